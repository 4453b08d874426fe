import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { NetworkError, toUiError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { listItemOf, makePortfolio, notFoundError } from '../../test/portfolioHarness.tsx';
import type { BrowsedPortfolio, BrowsedPortfolioListItem } from '../portfolioBrowser/selectors.ts';
import { portfolioListingMachine, type PortfolioListingInput } from './portfolioListingMachine.ts';

const zoo = makePortfolio({ id: 43, name: 'Zoo trip' });
const forces = makePortfolio({ id: 41, name: 'Forces and Motion', artifacts: [makeArtifact({ id: 1 })] });

/** Runs one listing with its calls answered as given; resolves with its output and what was asked. */
async function run(
  input: PortfolioListingInput,
  answers: { list: () => Promise<BrowsedPortfolioListItem[]>; portfolio?: () => Promise<BrowsedPortfolio> },
) {
  const asked: unknown[] = [];
  const logic = portfolioListingMachine.provide({
    actors: {
      listPortfolios: fromPromise<BrowsedPortfolioListItem[], { owner: number | null }>(async ({ input }) => {
        asked.push({ list: input });
        return answers.list();
      }),
      getPortfolio: fromPromise<BrowsedPortfolio, { portfolioId: number }>(async ({ input }) => {
        asked.push({ portfolio: input });
        return (answers.portfolio ?? (() => Promise.reject(new Error('no portfolio expected'))))();
      }),
    },
  });
  const actor = createActor(logic, { input }).start();
  const output = await toPromise(actor);
  return { output, asked, value: actor.getSnapshot().value };
}

const list = async () => [zoo, forces].map(listItemOf);

describe('portfolioListingMachine guards', () => {
  it('hasPortfolioId: the portfolio of the address is asked beside the list', async () => {
    const result = await run({ owner: 7, portfolioId: 41 }, { list, portfolio: async () => forces });
    expect(result.asked).toEqual([{ list: { owner: 7 } }, { portfolio: { portfolioId: 41 } }]);
  });

  it('hasPortfolioId: without a portfolio in the address only the list is asked', async () => {
    const result = await run({ owner: null, portfolioId: null }, { list });
    expect(result.asked).toEqual([{ list: { owner: null } }]);
    expect(result.output).toEqual({ kind: 'listed', portfolios: [zoo, forces].map(listItemOf), early: null });
  });
});

describe('portfolioListingMachine actions', () => {
  it('storePortfolios / keepEarly: the listing ends with the list as the server ordered it and the portfolio', async () => {
    const result = await run({ owner: null, portfolioId: 41 }, { list, portfolio: async () => forces });
    expect(result.value).toBe('listed');
    expect(result.output).toEqual({ kind: 'listed', portfolios: [zoo, forces].map(listItemOf), early: forces });
  });

  it('keepEarly: a portfolio that could not be fetched is left to the browser (no error)', async () => {
    const result = await run(
      { owner: null, portfolioId: 41 },
      { list, portfolio: () => Promise.reject(notFoundError()) },
    );
    expect(result.output).toEqual({ kind: 'listed', portfolios: [zoo, forces].map(listItemOf), early: null });
  });

  it('storeError: a list that failed ends the listing with why, whatever came beside it', async () => {
    const offline = new NetworkError();
    const result = await run(
      { owner: null, portfolioId: 41 },
      { list: () => Promise.reject(offline), portfolio: async () => forces },
    );
    expect(result.value).toBe('failed');
    expect(result.output).toEqual({ kind: 'failed', error: toUiError(offline) });
  });
});
