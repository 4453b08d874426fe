/**
 * Insights (researchers and the leads of shared portfolios): four charts of one scope, each with
 * its data table, text summary and downloads (decision 057).
 *
 * starting ─(insights ability)→ loading ─(numbers)→ ready.idle   └─(failed)→ loadFailed ─(retry)→ loading
 *    └─(anyone else)→ denied
 *
 * ready: `filters.change` edits the draft; `filters.apply` loads the draft's numbers (a range whose
 * end is before its start is refused in place). `view.toggle` flips a chart between its picture
 * and its table; `mark.focus` remembers the mark the keyboard or pointer is on (its numbers are
 * read out under the chart). ready.idle ─(file.request)→ ready.saving ─(saved | failed)→ ready.idle.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Insights } from '../../schemas/insights.ts';
import { RANGE_ORDER_MESSAGE } from '../../schemas/researchExport.ts';
import type { Me } from '../../schemas/user.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { fetchInsights, type InsightsFilters } from '../../services/insightsService.ts';
import { CHART_IDS, fileNameOf, tableOf, type ChartFormat, type ChartId, type ChartTable } from './selectors.ts';

export interface InsightsInput {
  /** The signed-in user (`null` when nobody is). */
  currentUser: Pick<Me, 'id' | 'abilities'> | null;
}

/** What a chart shows: its picture or its data table. */
export type ChartView = 'chart' | 'table';

/** One file of one chart, as the saving actor gets it. */
export interface ChartFileRequest {
  chart: ChartId;
  format: ChartFormat;
  fileName: string;
  table: ChartTable;
}

export interface InsightsContext {
  allowed: boolean;
  /** The filters as the form holds them. */
  draft: InsightsFilters;
  /** The filters of the numbers shown. */
  applied: InsightsFilters;
  data: Insights | null;
  views: Record<ChartId, ChartView>;
  /** The mark each chart's readout describes (its index in the chart's table rows), if any. */
  focused: Partial<Record<ChartId, number>>;
  /** Why the filters were not applied. */
  problem: string | null;
  error: UiError | null;
  /** The last file saved, or why it could not be. */
  saved: string | null;
  fileError: UiError | null;
}

export type InsightsEvent =
  | { type: 'retry' }
  | { type: 'filters.change'; patch: Partial<InsightsFilters> }
  | { type: 'filters.apply' }
  | { type: 'view.toggle'; chart: ChartId }
  | { type: 'mark.focus'; chart: ChartId; index: number }
  | { type: 'file.request'; chart: ChartId; format: ChartFormat };

const EMPTY_FILTERS: InsightsFilters = { sharedPortfolio: null, from: '', to: '' };
const ALL_CHARTS = (view: ChartView) =>
  Object.fromEntries(CHART_IDS.map((id) => [id, view])) as Record<ChartId, ChartView>;

export const insightsMachine = setup({
  types: {
    context: {} as InsightsContext,
    events: {} as InsightsEvent,
    input: {} as InsightsInput,
  },
  actors: {
    loadInsights: fromPromise<Insights, InsightsFilters>(({ input, signal }) => fetchInsights(input, signal)),
    // The file writers (and the CSV library) load with the first download, not with the page.
    saveFile: fromPromise<string, ChartFileRequest>(async ({ input }) =>
      (await import('./chartFiles.ts')).saveChartFile(input),
    ),
  },
  guards: {
    allowed: ({ context }) => context.allowed,
    rangeReversed: ({ context }) =>
      context.draft.from !== '' && context.draft.to !== '' && context.draft.from > context.draft.to,
  },
}).createMachine({
  id: 'insights',
  context: ({ input }) => ({
    allowed: input.currentUser?.abilities.insights ?? false,
    draft: EMPTY_FILTERS,
    applied: EMPTY_FILTERS,
    data: null,
    views: ALL_CHARTS('chart'),
    focused: {},
    problem: null,
    error: null,
    saved: null,
    fileError: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'allowed', target: 'loading' }, { target: 'denied' }],
    },
    denied: {},
    loading: {
      entry: assign({ error: null, problem: null, focused: {} }),
      invoke: {
        id: 'loadInsights',
        src: 'loadInsights',
        input: ({ context }) => context.draft,
        onDone: {
          target: 'ready',
          actions: assign({ data: ({ event }) => event.output, applied: ({ context }) => context.draft }),
        },
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => toUiError(event.error) }) },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    ready: {
      initial: 'idle',
      on: {
        'filters.change': {
          actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.patch }), problem: null }),
        },
        'filters.apply': [
          { guard: 'rangeReversed', actions: assign({ problem: RANGE_ORDER_MESSAGE }) },
          { target: 'loading' },
        ],
        'view.toggle': {
          actions: assign({
            views: ({ context, event }) => ({
              ...context.views,
              [event.chart]: context.views[event.chart] === 'chart' ? 'table' : 'chart',
            }),
          }),
        },
        'mark.focus': {
          actions: assign({ focused: ({ context, event }) => ({ ...context.focused, [event.chart]: event.index }) }),
        },
      },
      states: {
        idle: {
          on: { 'file.request': 'saving' },
        },
        saving: {
          entry: assign({ saved: null, fileError: null }),
          invoke: {
            id: 'saveFile',
            src: 'saveFile',
            input: ({ context, event }) => {
              const { chart, format } = event as Extract<InsightsEvent, { type: 'file.request' }>;
              return { chart, format, fileName: fileNameOf(chart, format), table: tableOf(chart, context.data!) };
            },
            onDone: { target: 'idle', actions: assign({ saved: ({ event }) => event.output }) },
            onError: { target: 'idle', actions: assign({ fileError: ({ event }) => toUiError(event.error) }) },
          },
        },
      },
    },
  },
});
