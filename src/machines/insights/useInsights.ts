import { useMemo } from 'react';
import type { Insights } from '../../schemas/insights.ts';
import type { UiError } from '../../services/errors.ts';
import type { InsightsFilters } from '../../services/insightsService.ts';
import { createActorContext } from '../shared/actorReact.ts';
import { insightsMachine, type ChartView } from './insightsMachine.ts';
import type { ChartFormat, ChartId } from './selectors.ts';

/** The page's actor; the app gives it the signed-in user as input. */
export const InsightsActorContext = createActorContext(insightsMachine);

export type InsightsStatus = 'denied' | 'loading' | 'loadFailed' | 'ready';

/** Where the page stands. */
export function useInsightsStatus(): InsightsStatus {
  return InsightsActorContext.useSelector((s) => {
    if (s.matches('ready')) return 'ready';
    if (s.matches('loadFailed')) return 'loadFailed';
    if (s.matches('denied')) return 'denied';
    return 'loading';
  });
}

/** The numbers shown (once loaded). */
export const useInsightsData = (): Insights | null => InsightsActorContext.useSelector((s) => s.context.data);

/** The filters as the form holds them, and why they were not applied. */
export const useInsightsDraft = (): InsightsFilters => InsightsActorContext.useSelector((s) => s.context.draft);
export const useInsightsProblem = (): string | null => InsightsActorContext.useSelector((s) => s.context.problem);

/** Whether a chart shows its picture or its table. */
export const useChartView = (chart: ChartId): ChartView =>
  InsightsActorContext.useSelector((s) => s.context.views[chart]);

/** The mark a chart's readout describes. */
export const useFocusedMark = (chart: ChartId): number | undefined =>
  InsightsActorContext.useSelector((s) => s.context.focused[chart]);

/** Whether a file is being made, the last saved, and why one could not be. */
export const useFileState = () => {
  const saving = InsightsActorContext.useSelector((s) => s.matches({ ready: 'saving' }));
  const saved = InsightsActorContext.useSelector((s) => s.context.saved);
  const error = InsightsActorContext.useSelector((s) => s.context.fileError);
  return { saving, saved, error };
};

/** Why the page could not load. */
export const useInsightsError = (): UiError | null => InsightsActorContext.useSelector((s) => s.context.error);

/** What the page may ask. */
export function useInsightsEvents() {
  const actor = InsightsActorContext.useActorRef();
  return useMemo(
    () => ({
      change: (patch: Partial<InsightsFilters>) => actor.send({ type: 'filters.change', patch }),
      apply: () => actor.send({ type: 'filters.apply' }),
      toggle: (chart: ChartId) => actor.send({ type: 'view.toggle', chart }),
      focusMark: (chart: ChartId, index: number) => actor.send({ type: 'mark.focus', chart, index }),
      requestFile: (chart: ChartId, format: ChartFormat) => actor.send({ type: 'file.request', chart, format }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor],
  );
}
