/**
 * The coverage map (decision 056): a heat map of how often a teacher's, a shared portfolio's or
 * the installation's artifacts are tagged with each NGSS practice, crosscutting concept or core
 * idea, and the artifacts behind a chosen cell.
 *
 * loading ─(done)→ ready.idle ─(select)→ ready.cellLoading ─(done)→ ready.cell ─(more)→ ready.cellLoading
 *    └─(failed)→ loadFailed ─(retry)→ loading       └─(failed)→ ready.cellFailed ─(retry)→ ready.cellLoading
 * `change` (other rows or columns) loads the map again from `ready` or `loadFailed`; `close`
 * puts the cell's list away.
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type {
  Coverage,
  CoverageArtifact,
  CoverageArtifactPage,
  CoverageDimension,
  CoverageRequest,
  CoverageRowKind,
} from '../../schemas/coverage.ts';
import { fetchCoverage, fetchCoverageArtifacts } from '../../services/coverageService.ts';
import { toUiError, type UiError } from '../../services/errors.ts';

/** The chosen cell: a row's id and a column's code. */
export interface CoverageCell {
  row: number;
  column: string;
}

export interface CoverageContext {
  query: CoverageRequest;
  coverage: Coverage | null;
  error: UiError | null;
  cell: CoverageCell | null;
  /** The cell's artifacts read so far (pages 1 … `page`). */
  items: CoverageArtifact[];
  total: number;
  page: number;
  cellError: UiError | null;
}

export type CoverageEvent =
  | { type: 'change'; rows?: CoverageRowKind; dimension?: CoverageDimension }
  | { type: 'select'; row: number; column: string }
  | { type: 'more' }
  | { type: 'close' }
  | { type: 'retry' };

export type CoverageInput = CoverageRequest;

export const coverageMachine = setup({
  types: {
    context: {} as CoverageContext,
    events: {} as CoverageEvent,
    input: {} as CoverageInput,
  },
  actors: {
    fetchCoverage: fromPromise<Coverage, CoverageRequest>(({ input, signal }) => fetchCoverage(input, signal)),
    fetchCell: fromPromise<CoverageArtifactPage, CoverageRequest & CoverageCell & { page: number }>(
      ({ input, signal }) => fetchCoverageArtifacts(input, signal),
    ),
  },
  guards: {
    hasMore: ({ context }) => context.items.length < context.total,
    changes: ({ context, event }) =>
      event.type === 'change' &&
      ((event.rows !== undefined && event.rows !== context.query.rows) ||
        (event.dimension !== undefined && event.dimension !== context.query.dimension)),
  },
  actions: {
    storeCoverage: assign({ coverage: (_, params: { coverage: Coverage }) => params.coverage, error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    changeQuery: assign({
      query: ({ context, event }) =>
        event.type === 'change'
          ? { ...context.query, rows: event.rows ?? context.query.rows, dimension: event.dimension ?? context.query.dimension }
          : context.query,
      cell: null,
      items: [],
      total: 0,
    }),
    chooseCell: assign({
      cell: ({ event }) => (event.type === 'select' ? { row: event.row, column: event.column } : null),
      items: [],
      total: 0,
      page: 1,
      cellError: null,
    }),
    nextPage: assign({ page: ({ context }) => context.page + 1 }),
    storePage: assign({
      items: ({ context }, params: { page: CoverageArtifactPage }) => [...context.items, ...params.page.items],
      total: (_, params: { page: CoverageArtifactPage }) => params.page.total,
      cellError: null,
    }),
    storeCellError: assign({ cellError: (_, params: { error: unknown }) => toUiError(params.error) }),
    closeCell: assign({ cell: null, items: [], total: 0, cellError: null }),
  },
}).createMachine({
  id: 'coverage',
  context: ({ input }) => ({
    query: input,
    coverage: null,
    error: null,
    cell: null,
    items: [],
    total: 0,
    page: 1,
    cellError: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchCoverage',
        src: 'fetchCoverage',
        input: ({ context }) => context.query,
        onDone: {
          target: 'ready',
          actions: { type: 'storeCoverage', params: ({ event }) => ({ coverage: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: {
        retry: 'loading',
        change: { guard: 'changes', target: 'loading', actions: 'changeQuery' },
      },
    },
    ready: {
      initial: 'idle',
      on: {
        change: { guard: 'changes', target: 'loading', actions: 'changeQuery' },
        select: { target: '.cellLoading', actions: 'chooseCell' },
      },
      states: {
        idle: {},
        cellLoading: {
          invoke: {
            id: 'fetchCell',
            src: 'fetchCell',
            input: ({ context }) => ({ ...context.query, ...context.cell!, page: context.page }),
            onDone: {
              target: 'cell',
              actions: { type: 'storePage', params: ({ event }) => ({ page: event.output }) },
            },
            onError: {
              target: 'cellFailed',
              actions: { type: 'storeCellError', params: ({ event }) => ({ error: event.error }) },
            },
          },
          on: { close: { target: 'idle', actions: 'closeCell' } },
        },
        cell: {
          on: {
            more: { guard: 'hasMore', target: 'cellLoading', actions: 'nextPage' },
            close: { target: 'idle', actions: 'closeCell' },
          },
        },
        cellFailed: {
          on: {
            retry: 'cellLoading',
            close: { target: 'idle', actions: 'closeCell' },
          },
        },
      },
    },
  },
});

export type CoverageRef = ActorRefFrom<typeof coverageMachine>;
