/**
 * PORTFOLIO DASHBOARD (spec §2): three sections that load side by side, each with its own
 * failure and retry.
 *
 * portfolios:  hidden (no own portfolios) ─(ownPortfolios)→ loading ─(list)→ ready ─(portfolio.added)→ ready (row added)
 *                                                          └─(failed)→ failed ─(portfolios.retry)→ loading
 * shared:      loading ─(list)→ ready | ─(failed)→ failed ─(shared.retry)→ loading
 * invitations: loading ─(list)→ ready | ─(failed)→ failed ─(invitations.retry)→ loading
 *
 * While My Portfolios is shown, its add row is the invoked `portfolioCreate` actor, which reports
 * new portfolios with `portfolio.added`. The order of the two portfolio tables lives here too
 * (`portfolios.sort`, `shared.sort`); the views sort with the selectors.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { PortfolioListItem } from '../../schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { listPortfolios } from '../../services/portfolioService.ts';
import { listInvitations, listSharedPortfolios } from '../../services/sharedService.ts';
import { portfolioCreateMachine, type PortfolioAddedEvent } from '../portfolioCreate/portfolioCreateMachine.ts';
import {
  DEFAULT_SORT,
  listItemOf,
  nextSort,
  type PortfolioSortColumn,
  type SharedSortColumn,
  type Sort,
} from './selectors.ts';

export interface DashboardInput {
  /**
   * The user has personal portfolios (the server's `ownPortfolios` ability): My Portfolios is
   * shown; otherwise (researchers) the summary is, instead.
   */
  ownPortfolios: boolean;
}

/** The dashboard's sections. */
export type DashboardSection = 'portfolios' | 'shared' | 'invitations';

export interface DashboardContext {
  ownPortfolios: boolean;
  portfolios: PortfolioListItem[];
  shared: SharedPortfolioListItem[];
  invitations: Invitation[];
  portfolioSort: Sort<PortfolioSortColumn>;
  sharedSort: Sort<SharedSortColumn>;
  /** The portfolio added last on this page (highlighted). */
  addedId: number | null;
  /** Why each section last failed to load (kept until it loads). */
  errors: Record<DashboardSection, UiError | null>;
}

export type DashboardEvent =
  | { type: 'portfolios.retry' }
  | { type: 'shared.retry' }
  | { type: 'invitations.retry' }
  | { type: 'portfolios.sort'; column: PortfolioSortColumn }
  | { type: 'shared.sort'; column: SharedSortColumn }
  | PortfolioAddedEvent;

export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    input: {} as DashboardInput,
  },
  actors: {
    listPortfolios: fromPromise<PortfolioListItem[]>(({ signal }) => listPortfolios({}, signal)),
    listSharedPortfolios: fromPromise<SharedPortfolioListItem[]>(({ signal }) => listSharedPortfolios(signal)),
    listInvitations: fromPromise<Invitation[]>(({ signal }) => listInvitations(signal)),
    portfolioCreate: portfolioCreateMachine,
  },
  guards: {
    ownsPortfolios: ({ context }) => context.ownPortfolios,
  },
  actions: {
    storePortfolios: assign(({ context }, params: { portfolios: PortfolioListItem[] }) => ({
      portfolios: params.portfolios,
      errors: { ...context.errors, portfolios: null },
    })),
    storeShared: assign(({ context }, params: { shared: SharedPortfolioListItem[] }) => ({
      shared: params.shared,
      errors: { ...context.errors, shared: null },
    })),
    storeInvitations: assign(({ context }, params: { invitations: Invitation[] }) => ({
      invitations: params.invitations,
      errors: { ...context.errors, invitations: null },
    })),
    storeError: assign(({ context }, params: { section: DashboardSection; error: unknown }) => ({
      errors: { ...context.errors, [params.section]: toUiError(params.error) },
    })),
    addPortfolio: assign(({ context }, params: PortfolioAddedEvent) => ({
      portfolios: [...context.portfolios.filter((p) => p.id !== params.portfolio.id), listItemOf(params.portfolio)],
      addedId: params.portfolio.id,
    })),
    sortPortfolios: assign({
      portfolioSort: ({ context }, params: { column: PortfolioSortColumn }) =>
        nextSort(context.portfolioSort, params.column),
    }),
    sortShared: assign({
      sharedSort: ({ context }, params: { column: SharedSortColumn }) => nextSort(context.sharedSort, params.column),
    }),
  },
}).createMachine({
  id: 'dashboard',
  context: ({ input }) => ({
    ownPortfolios: input.ownPortfolios,
    portfolios: [],
    shared: [],
    invitations: [],
    portfolioSort: DEFAULT_SORT,
    sharedSort: DEFAULT_SORT,
    addedId: null,
    errors: { portfolios: null, shared: null, invitations: null },
  }),
  type: 'parallel',
  states: {
    portfolios: {
      initial: 'hidden',
      states: {
        hidden: {
          always: { guard: 'ownsPortfolios', target: 'loading' },
        },
        loading: {
          invoke: {
            id: 'listPortfolios',
            src: 'listPortfolios',
            onDone: {
              target: 'ready',
              actions: { type: 'storePortfolios', params: ({ event }) => ({ portfolios: event.output }) },
            },
            onError: {
              target: 'failed',
              actions: { type: 'storeError', params: ({ event }) => ({ section: 'portfolios', error: event.error }) },
            },
          },
        },
        failed: {
          on: { 'portfolios.retry': 'loading' },
        },
        ready: {
          invoke: {
            id: 'portfolioCreate',
            src: 'portfolioCreate',
            // The row fails only through a defect; the section then offers to load again.
            onError: {
              target: 'failed',
              actions: { type: 'storeError', params: ({ event }) => ({ section: 'portfolios', error: event.error }) },
            },
          },
          on: {
            'portfolio.added': { actions: { type: 'addPortfolio', params: ({ event }) => event } },
            'portfolios.sort': { actions: { type: 'sortPortfolios', params: ({ event }) => event } },
          },
        },
      },
    },
    shared: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'listSharedPortfolios',
            src: 'listSharedPortfolios',
            onDone: {
              target: 'ready',
              actions: { type: 'storeShared', params: ({ event }) => ({ shared: event.output }) },
            },
            onError: {
              target: 'failed',
              actions: { type: 'storeError', params: ({ event }) => ({ section: 'shared', error: event.error }) },
            },
          },
        },
        failed: {
          on: { 'shared.retry': 'loading' },
        },
        ready: {
          on: {
            'shared.sort': { actions: { type: 'sortShared', params: ({ event }) => event } },
          },
        },
      },
    },
    invitations: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'listInvitations',
            src: 'listInvitations',
            onDone: {
              target: 'ready',
              actions: { type: 'storeInvitations', params: ({ event }) => ({ invitations: event.output }) },
            },
            onError: {
              target: 'failed',
              actions: { type: 'storeError', params: ({ event }) => ({ section: 'invitations', error: event.error }) },
            },
          },
        },
        failed: {
          on: { 'invitations.retry': 'loading' },
        },
        ready: {},
      },
    },
  },
});

export type DashboardMachine = typeof dashboardMachine;
