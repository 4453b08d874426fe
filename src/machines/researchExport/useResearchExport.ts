import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ResearchExportRecord } from '../../schemas/researchExport.ts';
import type { UiError } from '../../services/errors.ts';
import type { TeacherOption } from '../teacherPicker/selectors.ts';
import { researchExportMachine, type SharedPortfolioOption } from './researchExportMachine.ts';
import type { ExportDraft, ExportField } from './selectors.ts';

/** The page's actor; the app provides `startDownload` and the signed-in user as input. */
export const ResearchExportActorContext = createActorContext(researchExportMachine);

export type ResearchExportStatus = 'denied' | 'loading' | 'loadFailed' | 'ready';

/** Where the page stands. */
export function useResearchExportStatus(): ResearchExportStatus {
  return ResearchExportActorContext.useSelector((s) => {
    if (s.matches('form')) return 'ready';
    if (s.matches('loadFailed')) return 'loadFailed';
    if (s.matches('denied')) return 'denied';
    return 'loading';
  });
}

/** The form's values. */
export const useExportDraft = (): ExportDraft => ResearchExportActorContext.useSelector((s) => s.context.draft);

/** The problems of the draft after a refused download. */
export const useExportProblems = (): Partial<Record<ExportField, string>> =>
  ResearchExportActorContext.useSelector((s) => s.context.problems);

/** The teachers to choose from, by 'Last, First'. */
export const useExportTeachers = (): readonly TeacherOption[] =>
  ResearchExportActorContext.useSelector((s) => s.context.teachers);

/** The shared portfolios to choose from, by name. */
export const useExportSharedPortfolios = (): readonly SharedPortfolioOption[] =>
  ResearchExportActorContext.useSelector((s) => s.context.sharedPortfolios);

/** The audit log, latest first. */
export const useExportLog = (): readonly ResearchExportRecord[] =>
  ResearchExportActorContext.useSelector((s) => s.context.exports);

/** Whether the log is being read again. */
export const useExportLogRefreshing = (): boolean =>
  ResearchExportActorContext.useSelector((s) => s.matches({ form: 'refreshingLog' }));

/** How many downloads started on this page. */
export const useExportDownloads = (): number => ResearchExportActorContext.useSelector((s) => s.context.downloads);

/** Why the page could not load. */
export const useResearchExportError = (): UiError | null =>
  ResearchExportActorContext.useSelector((s) => s.context.error);

/** Why the log could not be read again. */
export const useExportLogError = (): UiError | null =>
  ResearchExportActorContext.useSelector((s) => s.context.logError);

/** What the page may ask. */
export function useResearchExportEvents() {
  const actor = ResearchExportActorContext.useActorRef();
  return useMemo(
    () => ({
      change: (patch: Partial<ExportDraft>) => actor.send({ type: 'filters.change', patch }),
      download: () => actor.send({ type: 'export.request' }),
      refreshLog: () => actor.send({ type: 'log.refresh' }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor],
  );
}
