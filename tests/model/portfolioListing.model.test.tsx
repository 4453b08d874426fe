import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  portfolioListingMachine,
  type PortfolioListingInput,
} from '../../src/machines/portfolioListing/portfolioListingMachine.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { rowNames } from '../../src/test/portfolioHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { modelEvents } from './support/coverage.ts';
import { answerAsStep } from './support/deferred.ts';
import { checkedShortestPaths, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import { forces, LIST } from './support/portfolioBrowserFixtures.ts';
import { latest, pageAlerts, renderBrowser, serverError } from './support/portfolioBrowserModel.ts';

trackCoverage(portfolioListingMachine);
afterEach(clearToasts);

type Snapshot = ReturnType<typeof portfolioListingMachine.getInitialSnapshot>;
type Step = { event: unknown };

const offline = new NetworkError();

/** My Portfolios opened on Forces and Motion (a link, a reload), and opened on no portfolio. */
const MODES: { name: string; path: string; input: PortfolioListingInput }[] = [
  { name: 'opened on a portfolio', path: '/my-portfolios/41', input: { owner: null, portfolioId: 41 } },
  { name: 'opened on no portfolio', path: '/my-portfolios', input: { owner: null, portfolioId: null } },
];

const actorEvents = {
  listPortfolios: [
    { type: 'xstate.done.actor.listPortfolios', output: LIST },
    { type: 'xstate.error.actor.listPortfolios', error: offline },
  ],
  getPortfolio: [
    { type: 'xstate.done.actor.getPortfolio', output: forces },
    { type: 'xstate.error.actor.getPortfolio', error: serverError },
  ],
} as unknown as Record<string, never[]>;

let h: ReturnType<typeof renderBrowser>;

const loadingList = () => screen.queryByRole('status', { name: 'Loading portfolios' }) !== null;

const checks: Record<string, (s: Snapshot) => Promise<void> | void> = {
  // While fetching, the page waits for the list whatever came beside it.
  fetching: async () => {
    await waitFor(() => expect(loadingList()).toBe(true));
    expect(pageAlerts()).toEqual([]);
  },
  'fetching.list.fetching': () => {
    expect(h.fakes.listPortfolios.calls.map((c) => c.input)).toEqual([{ owner: null }]);
  },
  'fetching.list.done': () => {
    // The list came; the portfolio of the address is still on its way.
    expect(h.fakes.listPortfolios.calls).toEqual([]);
  },
  'fetching.portfolio.deciding': () => {
    throw new Error('deciding is transient: a path never rests there');
  },
  'fetching.portfolio.fetching': () => {
    // Asked beside the list, not after it.
    expect(h.fakes.getPortfolio.calls.map((c) => c.input)).toEqual([{ portfolioId: 41 }]);
  },
  'fetching.portfolio.done': ({ context }) => {
    // No portfolio in the address: nothing is asked.
    if (context.portfolioId === null) expect(h.fakes.getPortfolio.calls).toEqual([]);
  },
  listed: async ({ context }) => {
    await waitFor(() => expect(loadingList()).toBe(false));
    const select = screen.getByRole('combobox', { name: 'Select Portfolio' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Select a portfolio',
      'Forces and Motion',
      'Zoo trip',
    ]);
    if (context.portfolioId === null) {
      expect(screen.getByText('Choose a portfolio to see its artifacts.')).toBeTruthy();
    } else if (context.early) {
      // The portfolio that came beside the list is shown at once, without a second fetch.
      expect(rowNames()).toHaveLength(forces.artifacts.length);
      expect(h.fakes.getPortfolio.calls).toEqual([]);
    } else {
      // Its failure was left to the browser, which asks again.
      expect(screen.getByRole('status', { name: 'Loading portfolio' })).toBeTruthy();
      expect(h.fakes.getPortfolio.calls.map((c) => c.input)).toEqual([{ portfolioId: 41 }]);
      expect(pageAlerts()).toEqual([]);
    }
  },
  failed: async () => {
    await waitFor(() => expect(pageAlerts()[0]?.textContent).toContain('The portfolios could not be loaded'));
    expect(screen.queryByRole('combobox', { name: 'Select Portfolio' })).toBeNull();
  },
};
const states = checkStates<Snapshot>(checks);

const events = {
  'xstate.done.actor.listPortfolios': (step: Step) => answerAsStep(latest(h.fakes.listPortfolios), step),
  'xstate.error.actor.listPortfolios': (step: Step) => answerAsStep(latest(h.fakes.listPortfolios), step),
  'xstate.done.actor.getPortfolio': (step: Step) => answerAsStep(latest(h.fakes.getPortfolio), step),
  'xstate.error.actor.getPortfolio': (step: Step) => answerAsStep(latest(h.fakes.getPortfolio), step),
};

for (const mode of MODES) {
  describe(`portfolioListing model (My Portfolios ${mode.name})`, () => {
    const paths = checkedShortestPaths(
      portfolioListingMachine,
      { input: mode.input, events: modelEvents([], actorEvents) },
      checks,
      1,
    );
    for (const path of paths) {
      it(`${pathName(path)}`, async () => {
        h = renderBrowser(mode.path);
        await act(async () => undefined);
        await path.test({ states, events });
        // At most one request waits (the browser asks again only for a portfolio that failed beside the list).
        for (const fake of [h.fakes.listPortfolios, h.fakes.getPortfolio])
          expect(fake.calls.length).toBeLessThanOrEqual(1);
      });
    }
  });
}
