import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { BrowsedPortfolio, BrowsedPortfolioListItem } from './selectors.ts';
import { NetworkError, toUiError } from '../../services/errors.ts';
import type { PortfolioListingOutput } from '../portfolioListing/portfolioListingMachine.ts';
import { portfolioBrowserMachine } from './portfolioBrowserMachine.ts';
import { provideBrowserServices } from './provideBrowserServices.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { listItemOf, makePortfolio } from '../../test/portfolioHarness.tsx';

const portfolio = makePortfolio({ id: 41, artifacts: [makeArtifact({ id: 1 }), makeArtifact({ id: 2 })] });

function start(artifactId: number | null) {
  const hideArtifact = vi.fn<(portfolioId: number) => void>();
  const showArtifact = vi.fn<(portfolioId: number, artifactId: number) => void>();
  const logic = provideBrowserServices(portfolioBrowserMachine, {
    listPortfolios: fromPromise<BrowsedPortfolioListItem[], { owner: number | null }>(async () => [
      listItemOf(portfolio),
    ]),
    getPortfolio: fromPromise<BrowsedPortfolio, { portfolioId: number }>(async () => portfolio),
  }).provide({
    actions: {
      showPortfolio: () => undefined,
      showArtifact: (_, p) => showArtifact(p.portfolioId, p.artifactId),
      hideArtifact: (_, p) => hideArtifact(p.portfolioId),
    },
  });
  const actor = createActor(logic, { input: { mode: 'personal', owner: null, portfolioId: 41, artifactId } }).start();
  return { actor, hideArtifact, showArtifact };
}

describe('portfolioBrowser: Back to artifacts', () => {
  it('closes the chosen artifact: the address loses it and its row is remembered for the focus', async () => {
    const { actor, hideArtifact } = start(2);
    await waitFor(actor, (s) => s.matches({ ready: 'loaded' }));
    actor.send({ type: 'artifact.close' });
    expect(actor.getSnapshot().context).toMatchObject({ artifactId: null, closedArtifactId: 2 });
    expect(hideArtifact).toHaveBeenCalledWith(41);
    // Choosing another artifact forgets the closed one.
    actor.send({ type: 'artifact.select', artifactId: 1 });
    expect(actor.getSnapshot().context).toMatchObject({ artifactId: 1, closedArtifactId: null });
  });

  it('ignores Back when no artifact is chosen', async () => {
    const { actor, hideArtifact } = start(null);
    await waitFor(actor, (s) => s.matches({ ready: 'loaded' }));
    expect(actor.getSnapshot().can({ type: 'artifact.close' })).toBe(false);
    actor.send({ type: 'artifact.close' });
    expect(hideArtifact).not.toHaveBeenCalled();
  });
});

describe('portfolioBrowser: the portfolio of the address', () => {
  const quiet = {
    showPortfolio: () => undefined,
    showArtifact: () => undefined,
    hideArtifact: () => undefined,
  };
  const other = makePortfolio({ id: 42 });

  function startSlowList() {
    const asked: string[] = [];
    let answerList = () => undefined as void;
    const logic = provideBrowserServices(portfolioBrowserMachine, {
      listPortfolios: fromPromise<BrowsedPortfolioListItem[], { owner: number | null }>(async () => {
        asked.push('list');
        await new Promise<void>((resolve) => (answerList = resolve));
        return [listItemOf(portfolio), listItemOf(other)];
      }),
      getPortfolio: fromPromise<BrowsedPortfolio, { portfolioId: number }>(async ({ input }) => {
        asked.push(`portfolio ${input.portfolioId}`);
        return input.portfolioId === other.id ? other : portfolio;
      }),
    }).provide({ actions: quiet });
    const actor = createActor(logic, {
      input: { mode: 'personal', owner: null, portfolioId: 41, artifactId: null },
    }).start();
    return { actor, asked, answerList: () => answerList() };
  }

  it('is fetched beside the list, not after it, and shown once the list is there without a second fetch', async () => {
    const { actor, asked, answerList } = startSlowList();
    await vi.waitFor(() => expect(asked).toEqual(['list', 'portfolio 41']));
    expect(actor.getSnapshot().matches('listing')).toBe(true);
    answerList();
    await waitFor(actor, (s) => s.matches({ ready: 'loaded' }));
    expect(asked).toEqual(['list', 'portfolio 41']);
    expect(actor.getSnapshot().context).toMatchObject({ portfolioId: 41, portfolio, early: null });
    expect(actor.getSnapshot().context.rows.map((r) => r.id)).toEqual([1, 2]);
  });

  it('is fetched again when the address moved to another portfolio meanwhile', async () => {
    const { actor, asked, answerList } = startSlowList();
    await vi.waitFor(() => expect(asked).toEqual(['list', 'portfolio 41']));
    actor.send({ type: 'route.change', portfolioId: other.id, artifactId: null });
    answerList();
    await waitFor(actor, (s) => s.matches({ ready: 'loaded' }));
    expect(asked).toEqual(['list', 'portfolio 41', 'portfolio 42']);
    expect(actor.getSnapshot().context.portfolio).toBe(other);
  });
});

describe('portfolioBrowser: the end of the listing', () => {
  const zoo = makePortfolio({ id: 43, name: 'Zoo trip' });

  /** The browser on portfolio 41 with the listing's end as given (a promise in the listing child's place). */
  function startListed(output: PortfolioListingOutput) {
    const logic = portfolioBrowserMachine.provide({
      actors: {
        portfolioListing: fromPromise(async () => output) as never,
        getPortfolio: fromPromise<BrowsedPortfolio, { portfolioId: number }>(async () => portfolio),
      },
    });
    return createActor(logic, { input: { mode: 'personal', owner: null, portfolioId: 41, artifactId: null } }).start();
  }

  it('isListed / storeListing: the list is kept by name and the portfolio that came beside it is shown', async () => {
    const actor = startListed({ kind: 'listed', portfolios: [zoo, portfolio].map(listItemOf), early: portfolio });
    await waitFor(actor, (s) => s.matches({ ready: 'loaded' }));
    const { context } = actor.getSnapshot();
    expect(context.portfolios.map((p) => p.id)).toEqual([41, 43]);
    expect(context).toMatchObject({ portfolio, early: null, error: null });
  });

  it('isListed / storeListing: a failed listing says why and offers to try again', async () => {
    const error = toUiError(new NetworkError());
    const actor = startListed({ kind: 'failed', error });
    await waitFor(actor, (s) => s.matches('listFailed'));
    expect(actor.getSnapshot().context).toMatchObject({ portfolios: [], error });
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
  });
});
