/**
 * The portfolio selector's list, fetched when an artifact browser opens (invoked by
 * `portfolioBrowser` while it is listing), and beside it the portfolio of the address, so that the
 * browser can show it at once. It ends with the list and that portfolio, or with why the list failed.
 *
 * fetching ┬ list:      fetching ─(portfolios)→ done
 *          │                └─(failed)→ failed
 *          └ portfolio: deciding ─[a portfolio in the address]→ fetching ─(portfolio / failed)→ done
 *                          └→ done
 * fetching ─(both done)→ listed
 *
 * A failed fetch of the portfolio is left to the browser, which asks again and tells the user.
 */
import { assign, fromPromise, setup } from 'xstate';
import { toUiError, type UiError } from '../../services/errors.ts';
import { getPortfolioSummary, listPortfolios } from '../../services/portfolioService.ts';
import type { BrowsedPortfolio, BrowsedPortfolioListItem } from '../portfolioBrowser/selectors.ts';

export interface PortfolioListingInput {
  /** Researchers: whose portfolios are listed. `null`: the caller's own. */
  owner: number | null;
  /** The portfolio in the address, if any. */
  portfolioId: number | null;
}

/** The list (in the server's order) and the address's portfolio when it came; or why the list failed. */
export type PortfolioListingOutput =
  | { kind: 'listed'; portfolios: BrowsedPortfolioListItem[]; early: BrowsedPortfolio | null }
  | { kind: 'failed'; error: UiError };

interface PortfolioListingContext extends PortfolioListingInput {
  portfolios: BrowsedPortfolioListItem[];
  early: BrowsedPortfolio | null;
  error: UiError | null;
}

/** The table's view of a personal portfolio; an artifact is read whole when it is opened. */
export const getPersonalPortfolio = fromPromise<BrowsedPortfolio, { portfolioId: number }>(({ input, signal }) =>
  getPortfolioSummary(input.portfolioId, signal),
);

export const portfolioListingMachine = setup({
  types: {
    context: {} as PortfolioListingContext,
    input: {} as PortfolioListingInput,
    output: {} as PortfolioListingOutput,
  },
  actors: {
    listPortfolios: fromPromise<BrowsedPortfolioListItem[], { owner: number | null }>(({ input, signal }) =>
      listPortfolios(input.owner === null ? {} : { owner: input.owner }, signal),
    ),
    getPortfolio: getPersonalPortfolio,
  },
  guards: {
    hasPortfolioId: ({ context }) => context.portfolioId !== null,
  },
  actions: {
    storePortfolios: assign({
      portfolios: (_, params: { portfolios: BrowsedPortfolioListItem[] }) => params.portfolios,
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    keepEarly: assign({ early: (_, params: { portfolio: BrowsedPortfolio }) => params.portfolio }),
  },
}).createMachine({
  id: 'portfolioListing',
  context: ({ input }) => ({ ...input, portfolios: [], early: null, error: null }),
  output: ({ context }): PortfolioListingOutput =>
    context.error
      ? { kind: 'failed', error: context.error }
      : { kind: 'listed', portfolios: context.portfolios, early: context.early },
  initial: 'fetching',
  states: {
    // The list and the portfolio of the address are fetched side by side.
    fetching: {
      type: 'parallel',
      onDone: 'listed',
      states: {
        list: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                id: 'listPortfolios',
                src: 'listPortfolios',
                input: ({ context }) => ({ owner: context.owner }),
                onDone: {
                  target: 'done',
                  actions: { type: 'storePortfolios', params: ({ event }) => ({ portfolios: event.output }) },
                },
                onError: {
                  target: '#portfolioListing.failed',
                  actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            done: { type: 'final' },
          },
        },
        portfolio: {
          initial: 'deciding',
          states: {
            deciding: { always: [{ guard: 'hasPortfolioId', target: 'fetching' }, { target: 'done' }] },
            fetching: {
              invoke: {
                id: 'getPortfolio',
                src: 'getPortfolio',
                input: ({ context }) => ({ portfolioId: context.portfolioId! }),
                onDone: {
                  target: 'done',
                  actions: { type: 'keepEarly', params: ({ event }) => ({ portfolio: event.output }) },
                },
                onError: 'done',
              },
            },
            done: { type: 'final' },
          },
        },
      },
    },
    listed: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type PortfolioListingMachine = typeof portfolioListingMachine;
