import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Portfolio } from '../../src/schemas/portfolio.ts';
import {
  portfolioBrowserMachine,
  type PortfolioBrowserContext,
  type PortfolioBrowserEvent,
} from '../../src/machines/portfolioBrowser/portfolioBrowserMachine.ts';
import { activeFilterCount, defaultSort, filterRows, sortRows } from '../../src/machines/portfolioBrowser/selectors.ts';
import type { PortfolioListingOutput } from '../../src/machines/portfolioListing/portfolioListingMachine.ts';
import { NetworkError, toUiError } from '../../src/services/errors.ts';
import { notFoundError, rowNames } from '../../src/test/portfolioHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { createPathModel, trackMachine } from './support/coverage.ts';
import { reportCoverageAfterAll } from './support/report.ts';
import { forces, LIST, NEW_ARTIFACT, PORTFOLIOS } from './support/portfolioBrowserFixtures.ts';
import {
  actorEvent,
  latest,
  pageAlerts,
  pathName,
  renderBrowser,
  select,
  serverError,
} from './support/portfolioBrowserModel.ts';

const coverage = trackMachine(portfolioBrowserMachine);
// The shared portfolios' paths are in portfolioBrowser.shared.model.test.tsx: the run's summary
// checks that the two files together cover every state and transition.
reportCoverageAfterAll(coverage, { part: true });
afterEach(clearToasts);

const offline = new NetworkError();

const NOW = Date.now();
const input = { mode: 'personal' as const, owner: null, portfolioId: 41, artifactId: null };

interface Snapshot {
  value: unknown;
  context: PortfolioBrowserContext;
  matches: (value: unknown) => boolean;
  can: (event: PortfolioBrowserEvent) => boolean;
}

/** The listing's end with the list, and with the portfolio of the address when it came. */
const listed = (early: Portfolio | null) =>
  actorEvent('xstate.done.actor.portfolioListing', { output: { kind: 'listed', portfolios: LIST, early } });

const route = (portfolioId: number | null, artifactId: number | null): PortfolioBrowserEvent => ({
  type: 'route.change',
  portfolioId,
  artifactId,
});

/** The context of a freshly loaded Forces and Motion, as the user first sees it. */
function isPristine(c: PortfolioBrowserContext): boolean {
  const sort = defaultSort('personal');
  return (
    c.search === '' &&
    activeFilterCount(c.filters) === 0 &&
    c.sort.column === sort.column &&
    c.sort.direction === sort.direction &&
    c.rows.length === PORTFOLIOS[c.portfolioId ?? 0]?.artifacts.length
  );
}

/**
 * The events of the model in a state: user gestures and the answers of the service calls under
 * way. Context-changing gestures start only from a fresh portfolio, so every transition is
 * taken while the number of paths stays small.
 */
function events(snapshot: unknown): PortfolioBrowserEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: PortfolioBrowserEvent[] = [];
  const untouched = c.portfolioId === input.portfolioId && c.artifactId === input.artifactId;
  // The list, and beside it the portfolio of the address (its failure is left to ready.loading).
  // How the listing gets there is portfolioListing.model.test.tsx's.
  if (s.matches('listing')) {
    list.push(
      listed(null),
      actorEvent('xstate.done.actor.portfolioListing', { output: { kind: 'failed', error: toUiError(offline) } }),
    );
    if (untouched) list.push(listed(PORTFOLIOS[41]!), route(null, null));
  }
  if (s.matches('listFailed')) {
    list.push({ type: 'retry' });
    if (untouched) list.push(route(null, null));
  }
  if (s.matches({ ready: 'idle' })) list.push(select(41), route(41, 2));
  if (s.matches({ ready: 'loading' })) {
    list.push(
      actorEvent('xstate.done.actor.getPortfolio', { output: PORTFOLIOS[c.portfolioId!] }),
      actorEvent('xstate.error.actor.getPortfolio', { error: notFoundError() }),
      actorEvent('xstate.error.actor.getPortfolio', { error: serverError }),
    );
    if (c.portfolioId === 41) list.push(select(43));
  }
  if (s.matches({ ready: 'loadFailed' })) list.push({ type: 'retry' });
  if (s.matches({ ready: { loaded: 'browsing' } }) && c.portfolioId === 41 && isPristine(c)) {
    if (c.artifactId === null) {
      list.push(
        { type: 'search.change', text: 'ramp' },
        { type: 'filter.toggle', key: 'unitTiming', value: 'Middle of unit' },
        { type: 'filter.recent', on: true, at: NOW },
        { type: 'sort.change', column: 'name' },
        { type: 'artifact.select', artifactId: 1 },
        { type: 'artifact.create' },
        select(43),
        route(null, null),
        route(41, 2),
      );
    }
    if (c.artifactId === 1) list.push({ type: 'artifact.deleted', artifactId: 1 }, { type: 'artifact.close' });
  }
  if (
    s.matches({ ready: 'loaded' }) &&
    c.search === '' &&
    activeFilterCount(c.filters) === 1 &&
    c.filters.recentSince === null
  ) {
    list.push({ type: 'filters.clear' });
  }
  // The new artifact's edit page opens, or the user is told why not (artifactCreate.model.test.tsx).
  if (s.matches({ ready: { loaded: 'creating' } })) {
    list.push(
      actorEvent('xstate.done.actor.artifactCreate', { answer: 'created' }),
      actorEvent('xstate.done.actor.artifactCreate', { answer: 'failed' }),
    );
  }
  return list.filter((event) => s.can(event));
}

const portfolioSelect = () => screen.getByRole('combobox', { name: 'Select Portfolio' }) as HTMLSelectElement;

/** What a user sees of the browser. */
interface BrowserView {
  where: string | undefined;
  editorOpen: boolean;
  loadingList: boolean;
  /** The page's own alert (not toasts): its heading or text. */
  problem: string | null;
  options: (string | null)[] | null;
  selected: string | null;
  hint: boolean;
  loadingPortfolio: boolean;
  summary: string | null;
  rows: string[] | null;
  paneTitle: string | null;
  create: 'ready' | 'busy' | null;
}

const OPTIONS = ['Select a portfolio', 'Forces and Motion', 'Zoo trip'];
const NOTHING: Omit<BrowserView, 'where'> = {
  editorOpen: false,
  loadingList: false,
  problem: null,
  options: OPTIONS,
  selected: null,
  hint: false,
  loadingPortfolio: false,
  summary: null,
  rows: null,
  paneTitle: null,
  create: null,
};

const addressOf = (c: PortfolioBrowserContext) =>
  c.portfolioId === null
    ? '/my-portfolios'
    : c.artifactId === null
      ? `/my-portfolios/${c.portfolioId}`
      : `/my-portfolios/${c.portfolioId}/artifacts/${c.artifactId}`;

/** The view a state of the browser must produce; `leftForEditor` once Create New Artifact finished. */
function expectedView(s: Snapshot, leftForEditor: boolean): BrowserView {
  const c = s.context;
  const where = addressOf(c);
  const selected = c.portfolioId === null ? '' : String(c.portfolioId);
  if (s.matches('listing')) return { ...NOTHING, where, options: null, loadingList: true };
  if (s.matches('listFailed'))
    return { ...NOTHING, where, options: null, problem: 'The portfolios could not be loaded' };
  if (s.matches({ ready: 'idle' })) return { ...NOTHING, where, selected, hint: true };
  if (s.matches({ ready: 'loading' })) return { ...NOTHING, where, selected, loadingPortfolio: true };
  if (s.matches({ ready: 'notFound' })) return { ...NOTHING, where, selected, problem: 'Portfolio not found.' };
  if (s.matches({ ready: 'loadFailed' }))
    return { ...NOTHING, where, selected, problem: 'The portfolio could not be loaded' };
  if (leftForEditor)
    return {
      ...NOTHING,
      where: `/my-portfolios/${c.portfolioId}/artifacts/${NEW_ARTIFACT.id}/edit`,
      options: null,
      editorOpen: true,
    };
  return {
    ...NOTHING,
    where,
    selected,
    summary: PORTFOLIOS[c.portfolioId!]!.name,
    rows: filterRows(sortRows(c.rows, c.sort), c.filters, c.search).map((row) => row.name),
    paneTitle: c.rows.find((row) => row.id === c.artifactId)?.name ?? null,
    create: s.matches({ ready: { loaded: 'creating' } }) ? 'busy' : 'ready',
  };
}

/** The view on screen. */
function observedView(where: string | undefined): BrowserView {
  const select = screen.queryByRole('combobox', { name: 'Select Portfolio' }) as HTMLSelectElement | null;
  const problem = pageAlerts()[0];
  // The summary is the section whose facts include the Template.
  const summary = screen.queryByText('Template', { selector: 'dt' })?.closest('section');
  const grid = screen.queryByRole('grid', { name: 'Artifacts' });
  const pane = screen.queryByRole('region', { name: 'Artifact details' });
  const create = screen.queryByRole('button', { name: 'Create New Artifact' }) as HTMLButtonElement | null;
  return {
    where,
    editorOpen: screen.queryByRole('heading', { name: 'Edit Artifact' }) !== null,
    loadingList: screen.queryByRole('status', { name: 'Loading portfolios' }) !== null,
    problem: problem ? (problem.querySelector('h2')?.textContent ?? problem.textContent) : null,
    options: select ? [...select.options].map((o) => o.textContent) : null,
    selected: select ? select.value : null,
    hint: screen.queryByText('Choose a portfolio to see its artifacts.') !== null,
    loadingPortfolio: screen.queryByRole('status', { name: 'Loading portfolio' }) !== null,
    summary: summary?.querySelector('h2')?.textContent ?? null,
    rows: grid ? (within(grid).queryByText('No artifacts found') ? [] : rowNames()) : null,
    paneTitle: pane ? (within(pane).queryByRole('heading', { level: 3 })?.textContent ?? null) : null,
    create: create
      ? create.disabled && create.getAttribute('aria-busy') === 'true'
        ? 'busy'
        : create.disabled
          ? null
          : 'ready'
      : null,
  };
}

describe('portfolioBrowser model (My Portfolios, opened on a portfolio)', () => {
  const model = createPathModel(portfolioBrowserMachine, { input, events });
  const paths = model.getShortestPaths();
  it('has paths to every state', () => {
    expect(paths.length).toBeGreaterThan(15);
  });
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      const h = renderBrowser('/my-portfolios/41');
      const ux = h.ux;
      const where = () => h.location.history.at(-1);
      let leftForEditor = false;
      let checked = 0;
      await path.test({
        states: {
          '*': async (state) => {
            const expected = expectedView(state as unknown as Snapshot, leftForEditor);
            await waitFor(() => expect(observedView(where())).toEqual(expected));
            checked += 1;
          },
        },
        events: {
          'xstate.done.actor.portfolioListing': async (step) => {
            const { output } = step.event as unknown as { output: PortfolioListingOutput };
            const early = output.kind === 'listed' ? output.early : null;
            // The portfolio of the address comes (or fails) beside the list; a list that failed ends the listing.
            const beside = h.fakes.getPortfolio.calls.length > 0 ? latest(h.fakes.getPortfolio) : null;
            const list = latest(h.fakes.listPortfolios);
            await act(async () => {
              if (early) beside?.deferred.resolve(early as Portfolio);
              else beside?.deferred.reject(serverError);
              if (output.kind === 'listed') list.deferred.resolve(LIST);
              else list.deferred.reject(offline);
            });
          },
          'xstate.done.actor.getPortfolio': async (step) => {
            const call = latest(h.fakes.getPortfolio);
            const { output } = step.event as unknown as { output: Portfolio };
            expect(call.input.portfolioId).toBe(output.id);
            await act(async () => call.deferred.resolve(output));
          },
          'xstate.error.actor.getPortfolio': async (step) => {
            const { error } = step.event as unknown as { error: unknown };
            await act(async () => latest(h.fakes.getPortfolio).deferred.reject(error));
          },
          'xstate.done.actor.artifactCreate': async (step) => {
            const created = (step.event as unknown as { answer: 'created' | 'failed' }).answer === 'created';
            const call = latest(h.fakes.createArtifact);
            expect(call.input.portfolioId).toBe(41);
            await act(async () => (created ? call.deferred.resolve(NEW_ARTIFACT) : call.deferred.reject(serverError)));
            leftForEditor = created;
            // A failure is told (the editor opening says the rest).
            await waitFor(() =>
              expect(
                screen
                  .queryAllByRole('alert')
                  .some((a) => a.textContent?.includes('Something went wrong on the server.')),
              ).toBe(!created),
            );
          },
          retry: async () => {
            await ux.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
          },
          'portfolio.select': async (step) => {
            const { portfolioId } = step.event as Extract<PortfolioBrowserEvent, { type: 'portfolio.select' }>;
            await ux.selectOptions(portfolioSelect(), PORTFOLIOS[portfolioId]!.name);
            expect(where()).toBe(`/my-portfolios/${portfolioId}`);
          },
          'route.change': async (step) => {
            // The address changed under the page (Back, Forward, a link).
            const { portfolioId, artifactId } = step.event as Extract<PortfolioBrowserEvent, { type: 'route.change' }>;
            const to =
              portfolioId === null
                ? '/my-portfolios'
                : artifactId === null
                  ? `/my-portfolios/${portfolioId}`
                  : `/my-portfolios/${portfolioId}/artifacts/${artifactId}`;
            act(() => h.location.navigate(to));
          },
          'artifact.select': async (step) => {
            const { artifactId } = step.event as Extract<PortfolioBrowserEvent, { type: 'artifact.select' }>;
            const name = forces.artifacts.find((a) => a.id === artifactId)!.responses.artifactName as string;
            await ux.click(screen.getByRole('row', { name: new RegExp(name) }));
          },
          'artifact.deleted': async () => {
            const pane = screen.getByRole('region', { name: 'Artifact details' });
            await ux.click(within(pane).getByRole('button', { name: 'Delete Artifact' }));
            await ux.click(
              within(screen.getByRole('alertdialog', { name: 'Delete Artifact' })).getByRole('button', { name: 'YES' }),
            );
            await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
          },
          'artifact.create': async () => {
            await ux.click(screen.getByRole('button', { name: 'Create New Artifact' }));
          },
          'artifact.close': async () => {
            // Back to artifacts shows only where the artifact takes the table's place (narrow
            // screens; jsdom applies no media queries, so the button stays hidden here).
            const back = within(screen.getByRole('region', { name: 'Artifact details' })).getByRole('button', {
              name: '← Back to artifacts',
              hidden: true,
            });
            fireEvent.click(back);
          },
          'search.change': async (step) => {
            const { text } = step.event as Extract<PortfolioBrowserEvent, { type: 'search.change' }>;
            await ux.type(screen.getByRole('searchbox', { name: 'Search artifacts' }), text);
          },
          'filter.toggle': async (step) => {
            const { value } = step.event as Extract<PortfolioBrowserEvent, { type: 'filter.toggle' }>;
            await ux.click(screen.getByRole('button', { name: 'Filter By' }));
            const dialog = screen.getByRole('dialog', { name: 'Filter By' });
            await ux.click(
              within(within(dialog).getByRole('group', { name: 'When in the unit was this?' })).getByRole('checkbox', {
                name: value,
              }),
            );
            await ux.click(within(dialog).getByRole('button', { name: 'Done' }));
          },
          'filter.recent': async () => {
            await ux.click(screen.getByRole('button', { name: 'Filter By' }));
            const dialog = screen.getByRole('dialog', { name: 'Filter By' });
            await ux.click(within(dialog).getByRole('checkbox', { name: 'Added in the last 7 days' }));
            await ux.click(within(dialog).getByRole('button', { name: 'Done' }));
          },
          'filters.clear': async () => {
            await ux.click(screen.getByRole('button', { name: 'Clear all' }));
          },
          'sort.change': async () => {
            await ux.click(within(screen.getByRole('columnheader', { name: 'Artifact Name' })).getByRole('button'));
          },
        },
      });
      expect(checked).toBe(path.steps.length);
    });
  }
});
