/**
 * The artifact browser of My Portfolios, Teacher Portfolios and Shared Portfolios: the portfolio
 * selector, the chosen portfolio with its artifacts, Filter By, keyword search, the table's
 * order, the artifact shown in the detail pane and (personal views) Create New Artifact.
 *
 * listing ─(listed)→ ready.choosing ─(a portfolio chosen)→ ready.loading ─(portfolio)→ ready.loaded.browsing
 *  │                   └─(none yet)→ ready.idle              ├─(404)→ ready.notFound
 *  │                                                         └─(failed)→ ready.loadFailed ─(retry)→ loading
 *  ├─(failed)→ listFailed ─(retry)→ listing
 *  └ invokes portfolioListing: the list and, beside it, the address's portfolio (then shown at once)
 *
 * ready.loaded.browsing ─(artifact.create)→ creating ─(done)→ browsing
 *                                            └ invokes artifactCreate: the editor opens, or the user is told why not
 * ready.loaded ─(discussion.changed)→ the artifact's counts, comment texts and reaction flags patched in
 * ready.loaded ─(artifact.removed)→ a shared artifact deleted in its pane leaves the table (the pane stays)
 * ready.loaded ─(portfolio.left)→ ready.idle (the portfolio leaves the selector)
 * ready.loaded ─(artifact.close)→ no artifact chosen (a phone's Back to artifacts; the address loses the artifact)
 * While listing, an address change is only remembered.
 *
 * The same chart browses shared portfolios when their services are provided, down to the listing
 * (`provideBrowserServices`, `sharedPortfolioBrowserMachine`); a comment or reaction then sends
 * `discussion.changed`, so the counts and the search index follow at once, and nothing is fetched
 * again (spec §4, §9; decision 033).
 *
 * The address is the app's business: choosing a portfolio or an artifact calls `showPortfolio` /
 * `showArtifact`, and the page reports address changes (Back, a typed URL) with `route.change`.
 * While a portfolio is shown, its compare mode is a spawned `compare` actor (reset with the portfolio).
 */
import { assign, setup, spawnChild, stopChild } from 'xstate';
import { ApiError, toUiError } from '../../services/errors.ts';
import { artifactCreateMachine } from '../artifactCreate/artifactCreateMachine.ts';
import { compareMachine } from '../compare/compareMachine.ts';
import {
  getPersonalPortfolio,
  portfolioListingMachine,
  type PortfolioListingOutput,
} from '../portfolioListing/portfolioListingMachine.ts';
import { effect } from '../shared/effect.ts';
import {
  artifactsOf,
  nextSort,
  NO_FILTERS,
  setRecentFilter,
  sortPortfoliosByName,
  toggleFilter,
  toRows,
  withoutArtifact,
  type BrowsedPortfolio,
  type SortColumn,
} from './selectors.ts';
import { withDiscussion } from './discussionPatch.ts';
import {
  initialContext,
  type PortfolioBrowserContext,
  type PortfolioBrowserEvent,
  type PortfolioBrowserInput,
} from './portfolioBrowserTypes.ts';

export type { PortfolioBrowserContext, PortfolioBrowserEvent, PortfolioBrowserInput } from './portfolioBrowserTypes.ts';

type RouteChange = Extract<PortfolioBrowserEvent, { type: 'route.change' }>;
type DiscussionChanged = Extract<PortfolioBrowserEvent, { type: 'discussion.changed' }>;

export const portfolioBrowserMachine = setup({
  types: {
    context: {} as PortfolioBrowserContext,
    events: {} as PortfolioBrowserEvent,
    input: {} as PortfolioBrowserInput,
    tags: {} as 'busy',
  },
  actors: {
    portfolioListing: portfolioListingMachine,
    // The chosen portfolio, as the listing fetches the address's (shared portfolios provide their own).
    getPortfolio: getPersonalPortfolio,
    artifactCreate: artifactCreateMachine,
    compare: compareMachine,
  },
  guards: {
    hasPortfolioId: ({ context }) => context.portfolioId !== null,
    isListed: (_, params: PortfolioListingOutput) => params.kind === 'listed',
    hasEarlyPortfolio: ({ context }) => context.early !== null && context.early.id === context.portfolioId,
    hasArtifact: ({ context }) => context.artifactId !== null,
    isOtherPortfolio: ({ context }, params: { portfolioId: number }) => params.portfolioId !== context.portfolioId,
    isRouteToNoPortfolio: ({ context }, params: RouteChange) =>
      params.portfolioId === null && context.portfolioId !== null,
    isRouteToOtherPortfolio: ({ context }, params: RouteChange) =>
      params.portfolioId !== null && params.portfolioId !== context.portfolioId,
    isRouteToOtherArtifact: ({ context }, params: RouteChange) => params.artifactId !== context.artifactId,
    isNotFound: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 404,
    canCreateArtifact: ({ context }) => context.mode === 'personal',
  },
  actions: {
    storeListing: assign((_, params: PortfolioListingOutput) =>
      params.kind === 'listed'
        ? { portfolios: sortPortfoliosByName(params.portfolios), early: params.early, error: null }
        : { error: params.error },
    ),
    removePortfolio: assign({
      portfolios: ({ context }, params: { portfolioId: number }) =>
        context.portfolios.filter((p) => p.id !== params.portfolioId),
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    choosePortfolio: assign((_, params: { portfolioId: number | null; artifactId: number | null }) => ({
      closedArtifactId: null,
      portfolioId: params.portfolioId,
      artifactId: params.artifactId,
      portfolio: null,
      rows: [],
      filters: NO_FILTERS,
      error: null,
    })),
    storePortfolio: assign(({ context }, params: { portfolio: BrowsedPortfolio }) => ({
      early: null,
      portfolio: params.portfolio,
      rows: toRows(artifactsOf(params.portfolio), context.viewerId),
      error: null,
    })),
    chooseArtifact: assign({
      artifactId: (_, params: { artifactId: number | null }) => params.artifactId,
      closedArtifactId: null,
    }),
    closeArtifact: assign(({ context }) => ({ artifactId: null, closedArtifactId: context.artifactId })),
    removeArtifact: assign(({ context }, params: { artifactId: number }) => ({
      portfolio: context.portfolio ? withoutArtifact(context.portfolio, params.artifactId) : null,
      rows: context.rows.filter((row) => row.id !== params.artifactId),
      artifactId: context.artifactId === params.artifactId ? null : context.artifactId,
    })),
    patchDiscussion: assign(({ context }, params: DiscussionChanged) => {
      const portfolio = context.portfolio ? withDiscussion(context.portfolio, params.change) : null;
      return { portfolio, rows: portfolio ? toRows(artifactsOf(portfolio), context.viewerId) : context.rows };
    }),
    removeRow: assign(({ context }, params: { artifactId: number }) => ({
      portfolio: context.portfolio ? withoutArtifact(context.portfolio, params.artifactId) : null,
      rows: context.rows.filter((row) => row.id !== params.artifactId),
    })),
    storeSearch: assign({ search: (_, params: { text: string }) => params.text }),
    toggleFilter: assign({
      filters: ({ context }, params: { key: string; value: string }) =>
        toggleFilter(context.filters, params.key, params.value),
    }),
    setRecent: assign({
      filters: ({ context }, params: { on: boolean; at: number }) =>
        setRecentFilter(context.filters, params.on, params.at),
    }),
    clearFilters: assign({ filters: NO_FILTERS }),
    changeSort: assign({
      sort: ({ context }, params: { column: SortColumn }) => nextSort(context.sort, params.column),
    }),
    startCompare: spawnChild('compare', { id: 'compare' }),
    stopCompare: stopChild('compare'),
    /** Puts the portfolio in the address (provided by the app). */
    showPortfolio: effect<{ portfolioId: number }>('showPortfolio'),
    /** Puts the artifact in the address, replacing the current entry (provided by the app). */
    showArtifact: effect<{ portfolioId: number; artifactId: number }>('showArtifact'),
    /** Takes the artifact out of the address, replacing the current entry (provided by the app). */
    hideArtifact: effect<{ portfolioId: number }>('hideArtifact'),
  },
}).createMachine({
  id: 'portfolioBrowser',
  context: ({ input }) => initialContext(input),
  initial: 'listing',
  states: {
    // The invoked `portfolioListing` fetches the list and, beside it, the portfolio of the address.
    listing: {
      invoke: {
        id: 'portfolioListing',
        src: 'portfolioListing',
        input: ({ context }) => ({ owner: context.owner, portfolioId: context.portfolioId }),
        onDone: [
          {
            guard: { type: 'isListed', params: ({ event }) => event.output },
            target: 'ready',
            actions: { type: 'storeListing', params: ({ event }) => event.output },
          },
          { target: 'listFailed', actions: { type: 'storeListing', params: ({ event }) => event.output } },
        ],
      },
      // Before the list is there, the address is only remembered.
      on: { 'route.change': { actions: { type: 'choosePortfolio', params: ({ event }) => event } } },
    },
    listFailed: {
      on: { retry: 'listing', 'route.change': { actions: { type: 'choosePortfolio', params: ({ event }) => event } } },
    },
    ready: {
      initial: 'choosing',
      on: {
        'portfolio.select': {
          guard: { type: 'isOtherPortfolio', params: ({ event }) => event },
          target: '.loading',
          actions: [
            { type: 'choosePortfolio', params: ({ event }) => ({ portfolioId: event.portfolioId, artifactId: null }) },
            { type: 'showPortfolio', params: ({ event }) => ({ portfolioId: event.portfolioId }) },
          ],
        },
        'route.change': [
          {
            guard: { type: 'isRouteToNoPortfolio', params: ({ event }) => event },
            target: '.idle',
            actions: { type: 'choosePortfolio', params: ({ event }) => event },
          },
          {
            guard: { type: 'isRouteToOtherPortfolio', params: ({ event }) => event },
            target: '.loading',
            actions: { type: 'choosePortfolio', params: ({ event }) => event },
          },
          {
            guard: { type: 'isRouteToOtherArtifact', params: ({ event }) => event },
            actions: { type: 'chooseArtifact', params: ({ event }) => event },
          },
        ],
      },
      states: {
        choosing: {
          always: [
            {
              guard: 'hasEarlyPortfolio',
              target: 'loaded',
              actions: { type: 'storePortfolio', params: ({ context }) => ({ portfolio: context.early! }) },
            },
            { guard: 'hasPortfolioId', target: 'loading' },
            { target: 'idle' },
          ],
        },
        idle: {},
        loading: {
          invoke: {
            id: 'getPortfolio',
            src: 'getPortfolio',
            input: ({ context }) => ({ portfolioId: context.portfolioId! }),
            onDone: {
              target: 'loaded',
              actions: { type: 'storePortfolio', params: ({ event }) => ({ portfolio: event.output }) },
            },
            onError: [
              {
                guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
                target: 'notFound',
                actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              },
              {
                target: 'loadFailed',
                actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        notFound: {},
        loadFailed: { on: { retry: 'loading' } },
        loaded: {
          entry: 'startCompare',
          exit: 'stopCompare',
          initial: 'browsing',
          on: {
            'artifact.select': {
              actions: [
                { type: 'chooseArtifact', params: ({ event }) => event },
                {
                  type: 'showArtifact',
                  params: ({ context, event }) => ({ portfolioId: context.portfolioId!, artifactId: event.artifactId }),
                },
              ],
            },
            'artifact.close': {
              guard: 'hasArtifact',
              actions: [
                'closeArtifact',
                { type: 'hideArtifact', params: ({ context }) => ({ portfolioId: context.portfolioId! }) },
              ],
            },
            // The artifact's own view tells the user and leaves its address.
            'artifact.deleted': { actions: { type: 'removeArtifact', params: ({ event }) => event } },
            'discussion.changed': { actions: { type: 'patchDiscussion', params: ({ event }) => event } },
            // The shared artifact's pane says so until the app shows the portfolio.
            'artifact.removed': { actions: { type: 'removeRow', params: ({ event }) => event } },
            'search.change': { actions: { type: 'storeSearch', params: ({ event }) => event } },
            'filter.toggle': { actions: { type: 'toggleFilter', params: ({ event }) => event } },
            'filter.recent': { actions: { type: 'setRecent', params: ({ event }) => event } },
            'filters.clear': { actions: 'clearFilters' },
            'sort.change': { actions: { type: 'changeSort', params: ({ event }) => event } },
            // The leave flow already went to the list of shared portfolios.
            'portfolio.left': {
              target: '#portfolioBrowser.ready.idle',
              actions: [
                { type: 'removePortfolio', params: ({ event }) => event },
                { type: 'choosePortfolio', params: { portfolioId: null, artifactId: null } },
              ],
            },
          },
          states: {
            browsing: { on: { 'artifact.create': { guard: 'canCreateArtifact', target: 'creating' } } },
            // The invoked `artifactCreate` opens the new artifact's edit page, or tells the user why not.
            creating: {
              tags: ['busy'],
              invoke: {
                id: 'artifactCreate',
                src: 'artifactCreate',
                input: ({ context }) => ({ portfolioId: context.portfolioId! }),
                onDone: 'browsing',
              },
            },
          },
        },
      },
    },
  },
});

export type PortfolioBrowserMachine = typeof portfolioBrowserMachine;
