import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  portfolioBrowserMachine,
  type PortfolioBrowserEvent,
} from '../../src/machines/portfolioBrowser/portfolioBrowserMachine.ts';
import type { PortfolioListingOutput } from '../../src/machines/portfolioListing/portfolioListingMachine.ts';
import { rowNames } from '../../src/test/portfolioHarness.tsx';
import type { SharedPortfolio, SharedPortfolioListItem } from '../../src/schemas/sharedPortfolio.ts';
import { toUiError } from '../../src/services/errors.ts';
import { signOut } from '../../src/services/session.ts';
import type { DiscussionChange } from '../../src/machines/sharedArtifactDiscussion/discussionSelectors.ts';
import {
  accounts,
  FakeSharedApi,
  makeSharedArtifact,
  makeSharedPortfolio,
  people,
  renderSharedPortfolios,
} from '../../src/test/sharedHarness.tsx';
import { checkStates } from './support/checkStates.ts';
import {
  assertEveryStateChecked,
  coverageInspector,
  createPathModel,
  modelEvents,
  trackMachine,
} from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { reportCoverageAfterAll } from './support/report.ts';
import { actorEvent, latest, pageAlerts, pathName, serverError } from './support/portfolioBrowserModel.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { SHARED_ARTIFACT_ABILITIES, SHARED_PORTFOLIO_ABILITIES } from '../../src/test/abilityFixtures.ts';

const coverage = trackMachine(portfolioBrowserMachine);
// The personal portfolios' paths are in portfolioBrowser.model.test.tsx: the run's summary checks
// that the two files together cover every state and transition.
reportCoverageAfterAll(coverage, { part: true });
afterEach(clearToasts);

// ---------------------------------------------------------------------------------------------
// Shared Portfolios: the same chart over the shared portfolio services. Its own paths are the
// discussion's changes patched into the table, the deletion of the artifact in the pane, and
// leaving the shared portfolio.

const PLC = makeSharedPortfolio({
  id: 9,
  // Tess is a teacher member: she may leave.
  abilities: SHARED_PORTFOLIO_ABILITIES.member,
  members: [people.lee, people.tess, people.theo],
  sharedArtifacts: [
    // What the server answers a member who works in the shared portfolio: Tess may comment, react and delete.
    makeSharedArtifact({
      id: 70,
      sharedPortfolio: { id: 9 },
      responses: { artifactName: 'Ramp race' },
      abilities: SHARED_ARTIFACT_ABILITIES.worker,
    }),
  ],
});
const CIRCLE = makeSharedPortfolio({
  id: 12,
  name: 'Engineering Design Circle',
  members: [people.lee, people.tess],
  sharedArtifacts: [],
});
const sharedListItem = (p: SharedPortfolio): SharedPortfolioListItem => ({
  ...p,
  sharedArtifacts: p.sharedArtifacts.map(({ id, owner, created_at, updated_at }) => ({
    id,
    owner: { id: owner.id },
    created_at,
    updated_at,
  })),
});
const SHARED_LIST = [sharedListItem(PLC), sharedListItem(CIRCLE)];
/** Tess's ⭐ on the artifact, as the discussion tells the browser. */
const STARRED: DiscussionChange = {
  artifactId: 70,
  commentCount: 0,
  commentTexts: [],
  reactions: { '🔖': false, '⭐': true, '🌉': false, '❓': false },
  portfolioCommentCount: null,
};

type BrowserSnapshot = SnapshotFrom<typeof portfolioBrowserMachine>;

const sharedInput = {
  mode: 'shared' as const,
  owner: null,
  portfolioId: 9,
  artifactId: 70,
  viewerId: accounts.tess.id,
};

/** The artifact as the browser holds it (gone once deleted). */
const shownArtifact = (s: BrowserSnapshot) =>
  s.context.portfolio && 'sharedArtifacts' in s.context.portfolio
    ? s.context.portfolio.sharedArtifacts.find((a) => a.id === 70)
    : undefined;
/** Whether nobody reacted yet: the artifact may be starred, or deleted. */
const undiscussed = (s: BrowserSnapshot) => {
  const artifact = shownArtifact(s);
  return artifact !== undefined && !Object.values(artifact.reactions).some(Boolean);
};

const listed = (early: SharedPortfolio | null) =>
  actorEvent('xstate.done.actor.portfolioListing', { output: { kind: 'listed', portfolios: SHARED_LIST, early } });

const sharedEvents = (snapshot: unknown): PortfolioBrowserEvent[] => {
  const s = snapshot as BrowserSnapshot;
  const own = undiscussed(s)
    ? ([
        { type: 'discussion.changed', change: STARRED },
        { type: 'artifact.removed', artifactId: 70 },
      ] as const)
    : [];
  return modelEvents<PortfolioBrowserEvent>([...own, { type: 'portfolio.left', portfolioId: 9 }], {
    // The list, and beside it the portfolio of the address or (failed) nothing yet; or no list.
    portfolioListing: [
      listed(PLC),
      listed(null),
      actorEvent('xstate.done.actor.portfolioListing', { output: { kind: 'failed', error: toUiError(serverError) } }),
    ],
    getPortfolio: [
      actorEvent('xstate.done.actor.getPortfolio', { output: PLC }),
      actorEvent('xstate.error.actor.getPortfolio', { error: serverError }),
    ],
  })(snapshot);
};

/** The API's answers besides the browser's own calls (the artifact is not discussed yet). */
function sharedSetup() {
  const api = new FakeSharedApi([PLC, CIRCLE]);
  const fakes = {
    listPortfolios: controllableActor<SharedPortfolioListItem[]>(),
    getPortfolio: controllableActor<SharedPortfolio, { portfolioId: number }>(),
  };
  const rendered = renderSharedPortfolios({
    path: '/shared-portfolios/9/artifacts/70',
    user: accounts.tess,
    api,
    fakes: { browser: { listPortfolios: fakes.listPortfolios.logic, getPortfolio: fakes.getPortfolio.logic } },
    inspect: { browser: coverageInspector },
    // The app would show the portfolio 2 s after a deletion; the paths end before.
    delays: { leaveDelay: 600_000 },
  });
  return { ...rendered, api, fakes };
}

/** The loaded shared portfolio with the artifact of the address in the pane (or its deletion said). */
async function expectSharedPortfolio(h: ReturnType<typeof sharedSetup>, s: BrowserSnapshot) {
  expect(screen.getByRole('region', { name: 'Grades 5–7 Science PLC' })).toBeTruthy();
  const pane = within(screen.getByRole('region', { name: 'Artifact details' }));
  const artifact = shownArtifact(s);
  if (artifact) {
    expect(pane.getByRole('heading', { level: 3, name: 'Ramp race' })).toBeTruthy();
    await waitFor(() =>
      expect(pane.getByRole('region', { name: 'Reactions' }).textContent).toContain(
        artifact.reactions['⭐'] ? 'Exemplar 1' : 'No reactions yet.',
      ),
    );
  } else {
    expect(pane.getByRole('status').textContent).toBe('This artifact was deleted. Returning to the shared portfolio…');
  }
  expect(rowNames()).toEqual(artifact ? ['Ramp race'] : ['No artifacts found']);
  // The table follows the discussion and the deletion without fetching the portfolio again.
  expect(h.fakes.getPortfolio.calls).toEqual([]);
}

const sharedChecks = (h: () => ReturnType<typeof sharedSetup>) =>
  ({
    listing: () => {
      expect(screen.getByRole('status', { name: 'Loading shared portfolios' })).toBeTruthy();
    },
    listFailed: () => {
      expect(pageAlerts()[0]?.textContent).toContain('The shared portfolios could not be loaded');
    },
    'ready.idle': async () => {
      await waitFor(() => expect(h().where()).toBe('/shared-portfolios'));
      const select = screen.getByRole('combobox', { name: 'Select Shared Portfolio' }) as HTMLSelectElement;
      expect(select.value).toBe('');
      expect([...select.options].map((o) => o.textContent)).toEqual([
        'Select a shared portfolio',
        'Engineering Design Circle',
      ]);
      expect(screen.getByText('Choose a shared portfolio to see its artifacts.')).toBeTruthy();
      expect(await screen.findByText('You left Grades 5–7 Science PLC.')).toBeTruthy();
    },
    'ready.choosing': () => {
      throw new Error('ready.choosing is passed through at once');
    },
    'ready.loading': () => {
      expect(screen.getByRole('status', { name: 'Loading shared portfolio' })).toBeTruthy();
    },
    'ready.notFound': () => {
      expect(pageAlerts()[0]?.textContent).toBe('Shared portfolio not found.');
    },
    'ready.loadFailed': () => {
      expect(pageAlerts()[0]?.textContent).toContain('The shared portfolio could not be loaded');
    },
    'ready.loaded.browsing': async (s: BrowserSnapshot) => {
      await expectSharedPortfolio(h(), s);
    },
    'ready.loaded.creating': () => {
      throw new Error('Shared portfolios offer no Create New Artifact');
    },
  }) satisfies Record<string, (s: BrowserSnapshot) => Promise<void> | void>;

describe('portfolioBrowser model (Shared Portfolios, opened on an artifact)', () => {
  const model = createPathModel(portfolioBrowserMachine, { input: sharedInput, events: sharedEvents });
  const paths = model.getShortestPaths();
  let current: ReturnType<typeof sharedSetup> | null = null;
  const checks = sharedChecks(() => current!);
  it('has a view check for every state and paths to the shared ones', () => {
    assertEveryStateChecked(portfolioBrowserMachine, checks);
    expect(paths.length).toBeGreaterThanOrEqual(6);
  });
  afterEach(() => {
    current = null;
    signOut();
  });
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      const h = sharedSetup();
      current = h;
      const pane = () => within(screen.getByRole('region', { name: 'Artifact details' }));
      await path.test({
        states: checkStates<BrowserSnapshot>(checks),
        events: {
          'xstate.done.actor.portfolioListing': async (step) => {
            const { output } = step.event as unknown as { output: PortfolioListingOutput };
            if (output.kind === 'failed') {
              await act(async () => latest(h.fakes.listPortfolios).deferred.reject(serverError));
              return;
            }
            const call = latest(h.fakes.getPortfolio);
            expect(call.input.portfolioId).toBe(9);
            await act(async () => (output.early ? call.deferred.resolve(PLC) : call.deferred.reject(serverError)));
            // Beside the list the portfolio shows nothing yet; a failed fetch is left to the one after it.
            expect(screen.getByRole('status', { name: 'Loading shared portfolios' })).toBeTruthy();
            expect(screen.queryAllByRole('alert')).toEqual([]);
            await act(async () => latest(h.fakes.listPortfolios).deferred.resolve(SHARED_LIST));
          },
          'xstate.done.actor.getPortfolio': async () => {
            const call = latest(h.fakes.getPortfolio);
            expect(call.input.portfolioId).toBe(9);
            await act(async () => call.deferred.resolve(PLC));
          },
          'xstate.error.actor.getPortfolio': async () => {
            await act(async () => latest(h.fakes.getPortfolio).deferred.reject(serverError));
            const alerts = await screen.findAllByRole('alert');
            expect(alerts.some((a) => a.textContent?.includes('Something went wrong on the server.'))).toBe(true);
          },
          'discussion.changed': async () => {
            // Tess gives the artifact a ⭐ in the pane: its discussion tells the browser.
            const reactions = within(pane().getByRole('region', { name: 'Reactions' }));
            await h.ux.click(await reactions.findByRole('button', { name: 'Add reaction' }));
            await h.ux.click(reactions.getByRole('button', { name: 'Exemplar' }));
            await reactions.findByRole('button', { name: 'Exemplar, 1' });
          },
          'artifact.removed': async () => {
            await h.ux.click(await pane().findByRole('button', { name: 'Delete Artifact' }));
            await h.ux.click(
              within(screen.getByRole('alertdialog', { name: 'Delete Artifact' })).getByRole('button', { name: 'YES' }),
            );
            expect(await screen.findByText('Successfully deleted shared artifact')).toBeTruthy();
            // The table follows the pane's answer (drawn as a transition).
            await waitFor(() => expect(screen.queryByRole('row', { name: /Ramp race/ })).toBeNull());
          },
          'portfolio.left': async () => {
            await h.ux.click(
              within(screen.getByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('button', {
                name: 'Leave',
              }),
            );
            await h.ux.click(
              within(screen.getByRole('alertdialog', { name: 'Leave Shared Portfolio' })).getByRole('button', {
                name: 'YES',
              }),
            );
            // The page follows the answer (drawn as a transition): the portfolio is no longer shown.
            await waitFor(() => expect(screen.queryByRole('region', { name: 'Grades 5–7 Science PLC' })).toBeNull());
          },
        },
      });
    });
  }
});
