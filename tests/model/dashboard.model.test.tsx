import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, type SnapshotFrom } from 'xstate';
import {
  dashboardMachine,
  type DashboardEvent,
  type DashboardSection,
} from '../../src/machines/dashboard/dashboardMachine.ts';
import { provideDashboard } from '../../src/machines/dashboard/provideDashboard.ts';
import {
  DEFAULT_SORT,
  sortPortfolios,
  sortSharedPortfolios,
  summarize,
} from '../../src/machines/dashboard/selectors.ts';
import { DashboardActorContext } from '../../src/machines/dashboard/useDashboard.ts';
import { USER_ABILITIES } from '../../src/test/abilityFixtures.ts';
import type { Invitation } from '../../src/schemas/invitation.ts';
import type { Portfolio, PortfolioCreateBody, PortfolioListItem } from '../../src/schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../../src/schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { listItemOf, makePortfolio } from '../../src/test/portfolioHarness.tsx';
import { makeInvitation, makeSharedPortfolio, people } from '../../src/test/sharedFixtures.ts';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { DashboardPage } from '../../src/views/pages/DashboardPage.tsx';
import { assertEveryStateChecked, coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(dashboardMachine);
afterEach(() => clearToasts());

type Snapshot = SnapshotFrom<typeof dashboardMachine>;
type Step = { event: unknown; state: unknown };

const forces = makePortfolio({
  id: 11,
  name: 'Forces and Motion',
  created_at: '2026-03-10T15:00:00.000Z',
  grades: ['K', '1st'],
});
const water = makePortfolio({ id: 12, name: 'Water Cycle', created_at: '2026-02-14T15:00:00.000Z' });
const created = makePortfolio({ id: 13, name: 'Field Notes', created_at: '2026-04-01T15:00:00.000Z' });

function sharedItem(
  id: number,
  name: string,
  created_at: string,
  extra: Partial<SharedPortfolioListItem>,
): SharedPortfolioListItem {
  const { sharedArtifacts: _full, ...sp } = makeSharedPortfolio();
  return { ...sp, id, name, created_at, sharedArtifacts: [], ...extra };
}
const brief = (id: number) => ({
  id,
  owner: { id: people.tess.id },
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
});
const plc = sharedItem(31, 'Grades 5–7 Science PLC', '2026-02-01T15:00:00.000Z', {
  members: [people.lee, people.tess, people.theo],
  commentCount: 3,
  sharedArtifacts: [brief(1), brief(2)],
});
const circle = sharedItem(32, 'Engineering Design Circle', '2026-03-01T15:00:00.000Z', {
  members: [people.lee],
  commentCount: 9,
  sharedArtifacts: [brief(3)],
});
const invitation = makeInvitation({ id: 41 });

const offline = new NetworkError();
const broken = new ApiError(500, 'internal_error', 'The server had a problem.', '');
const defect = new Error('The add row broke.');

/** What each section's list call answers: the fixtures, or (on a retry after a failure) nothing. */
const LISTS = {
  portfolios: { actor: 'listPortfolios', data: [forces, water].map(listItemOf), error: offline },
  shared: { actor: 'listSharedPortfolios', data: [plc, circle], error: broken },
  invitations: { actor: 'listInvitations', data: [invitation], error: offline },
} as const;

const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as DashboardEvent;

/**
 * The events of a state. The three lists are requested together; the paths settle them in the
 * page's order (the first section still loading answers first), retry only once nothing loads,
 * and sort or add only once everything is shown and untouched, which keeps the model small while
 * taking every transition.
 */
function events(snapshot: unknown): DashboardEvent[] {
  const s = snapshot as Snapshot;
  const sections: DashboardSection[] = s.context.ownPortfolios
    ? ['portfolios', 'shared', 'invitations']
    : ['shared', 'invitations'];
  const loading = sections.find((section) => s.matches({ [section]: 'loading' } as never));
  if (loading) {
    const list = LISTS[loading];
    const retried = s.context.errors[loading] !== null;
    return [
      actorEvent(`xstate.done.actor.${list.actor}`, { output: retried ? [] : list.data }),
      actorEvent(`xstate.error.actor.${list.actor}`, { error: list.error }),
    ];
  }
  const result: DashboardEvent[] = sections
    .filter((section) => s.matches({ [section]: 'failed' } as never))
    .map((section) => ({ type: `${section}.retry` }));
  const untouched =
    s.context.addedId === null &&
    JSON.stringify(s.context.portfolioSort) === JSON.stringify(DEFAULT_SORT) &&
    JSON.stringify(s.context.sharedSort) === JSON.stringify(DEFAULT_SORT);
  if (untouched && result.length === 0) {
    if (s.matches({ portfolios: 'ready' })) {
      result.push(
        { type: 'portfolios.sort', column: 'name' },
        { type: 'portfolio.added', portfolio: created },
        actorEvent('xstate.error.actor.portfolioCreate', { error: defect }),
      );
    }
    if (s.matches({ shared: 'ready' }) && s.context.shared.length > 0)
      result.push({ type: 'shared.sort', column: 'comments' });
  }
  return result.filter((event) => s.can(event));
}

function setup(ownPortfolios: boolean) {
  const fakes = {
    listPortfolios: controllableActor<PortfolioListItem[]>(),
    listSharedPortfolios: controllableActor<SharedPortfolioListItem[]>(),
    listInvitations: controllableActor<Invitation[]>(),
    createPortfolio: controllableActor<Portfolio, PortfolioCreateBody>(),
  };
  const flags = { rowBroken: false };
  const logic = provideDashboard({
    notify: ({ message, tone }) => {
      // Stands for a defect in an outward effect, which makes the add row's actor fail.
      if (flags.rowBroken) throw defect;
      notify(message, tone);
    },
    actors: {
      listPortfolios: fakes.listPortfolios.logic,
      listSharedPortfolios: fakes.listSharedPortfolios.logic,
      listInvitations: fakes.listInvitations.logic,
      createPortfolio: fakes.createPortfolio.logic,
    },
  });
  const location = memoryLocation({ path: '/dashboard', record: true });
  render(
    <Router hook={location.hook}>
      <DashboardActorContext.Provider logic={logic} options={{ input: { ownPortfolios }, inspect: coverageInspector }}>
        <DashboardPage />
      </DashboardActorContext.Provider>
      <Toaster />
    </Router>,
  );
  return { fakes, flags, ux: userEvent.setup() };
}

const TITLES = {
  portfolios: 'My Portfolios',
  shared: 'Shared Portfolios',
  invitations: 'Invitations to Join Shared Portfolios',
  summary: 'Teacher Portfolio Summary',
} as const;

const region = (name: string) => screen.queryByRole('region', { name });

/** A section's table once loaded, and the first cell of each body row. */
function loadedTable(name: string): HTMLElement {
  const section = region(name);
  if (!section) throw new Error(`No ${name} section`);
  if (within(section).queryByRole('status', { busy: true })) throw new Error(`${name} is still loading`);
  return within(section).getByRole('table', { name });
}
const firstCells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
const sortedHeader = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .filter((th) => th.hasAttribute('aria-sort'))
    .map((th) => `${th.textContent} ${th.getAttribute('aria-sort')}`);

const PORTFOLIO_HEADERS: Record<string, string> = { name: 'Portfolio Name', date: 'Date Created' };
const SHARED_HEADERS: Record<string, string> = { comments: 'Comments', date: 'Date Created' };

/** A section that is loading shows a skeleton table of its name. */
async function expectLoading(name: string, label: string) {
  await waitFor(() =>
    expect(within(region(name)!).getByRole('status', { name: label }).getAttribute('aria-busy')).toBe('true'),
  );
}

/** A section that failed says so, with the reason and Try again. */
async function expectFailed(name: string, title: string, message: string) {
  await waitFor(() => {
    const alert = within(region(name)!).getByRole('alert');
    expect(within(alert).getByRole('heading', { name: title })).toBeTruthy();
    expect(within(alert).getByText(message)).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
  expect(within(region(name)!).queryByRole('table')).toBeNull();
}

/** The view each state of each section must show. */
const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  'portfolios.hidden': async () => {
    expect(region(TITLES.portfolios)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Portfolio' })).toBeNull();
    expect(region(TITLES.summary)).not.toBeNull();
  },
  'portfolios.loading': async () => {
    await expectLoading(TITLES.portfolios, 'Loading your portfolios');
    expect((screen.getByRole('button', { name: 'Add Portfolio' }) as HTMLButtonElement).disabled).toBe(true);
  },
  'portfolios.failed': async (s) => {
    await expectFailed(TITLES.portfolios, 'Your portfolios could not be loaded', s.context.errors.portfolios!.message);
    expect(screen.queryByRole('button', { name: 'Add Portfolio' })).toBeNull();
  },
  'portfolios.ready': async (s) => {
    const rows = sortPortfolios(s.context.portfolios, s.context.portfolioSort);
    await waitFor(() => {
      const table = loadedTable(TITLES.portfolios);
      expect(firstCells(table)).toEqual(
        rows.length > 0
          ? rows.map((p) => p.name)
          : ['You have no portfolios yet. Add one to start collecting evidence.'],
      );
      expect(sortedHeader(table)).toEqual([
        `${PORTFOLIO_HEADERS[s.context.portfolioSort.column]} ${s.context.portfolioSort.direction}`,
      ]);
      const highlighted = [...table.querySelectorAll('tr[data-highlight]')].map(
        (tr) => tr.querySelector('td')?.textContent,
      );
      expect(highlighted).toEqual(s.context.addedId === null ? [] : [created.name]);
    });
    expect((screen.getByRole('button', { name: 'Add Portfolio' }) as HTMLButtonElement).disabled).toBe(false);
  },
  'shared.loading': async (s) => {
    await expectLoading(TITLES.shared, 'Loading shared portfolios');
    if (!s.context.ownPortfolios) await expectLoading(TITLES.summary, 'Loading the summary');
  },
  'shared.failed': async (s) => {
    const message = s.context.errors.shared!.message;
    if (!s.context.ownPortfolios) {
      // The summary tells it once; the shared table is left out.
      await expectFailed(TITLES.summary, 'The summary could not be loaded', message);
      expect(region(TITLES.shared)).toBeNull();
    } else {
      await expectFailed(TITLES.shared, 'The shared portfolios could not be loaded', message);
    }
  },
  'shared.ready': async (s) => {
    const rows = sortSharedPortfolios(s.context.shared, s.context.sharedSort);
    await waitFor(() => {
      if (rows.length === 0) {
        expect(region(TITLES.shared)).toBeNull();
      } else {
        const table = loadedTable(TITLES.shared);
        expect(firstCells(table)).toEqual(rows.map((p) => p.name));
        expect(sortedHeader(table)).toEqual([
          `${SHARED_HEADERS[s.context.sharedSort.column]} ${s.context.sharedSort.direction}`,
        ]);
      }
    });
    if (!s.context.ownPortfolios) {
      const summary = within(region(TITLES.summary)!);
      const counts = Object.fromEntries(
        summary
          .getAllByRole('term')
          .map((dt) => [dt.textContent!.toLowerCase(), Number(dt.nextElementSibling?.textContent)]),
      );
      expect(counts).toEqual(summarize(s.context.shared));
    }
  },
  'invitations.loading': async () => {
    await expectLoading(TITLES.invitations, 'Loading invitations');
  },
  'invitations.failed': async (s) => {
    await expectFailed(
      TITLES.invitations,
      'The invitations could not be loaded',
      s.context.errors.invitations!.message,
    );
  },
  'invitations.ready': async (s) => {
    await waitFor(() => {
      if (s.context.invitations.length === 0) {
        expect(region(TITLES.invitations)).toBeNull();
      } else {
        const table = loadedTable(TITLES.invitations);
        expect(firstCells(table)).toEqual(s.context.invitations.map((i) => i.sharedPortfolio.name));
        expect(within(table).getByRole('link', { name: invitation.sharedPortfolio.name }).getAttribute('href')).toBe(
          `/invitation/${invitation.id}`,
        );
      }
    });
  },
};
assertEveryStateChecked(dashboardMachine, stateChecks);

/** Runs every check whose state the snapshot is in. */
async function checkSnapshot(s: Snapshot) {
  for (const [key, check] of Object.entries(stateChecks)) if (s.matches(key as never)) await check(s);
}

/** Adds a portfolio through the add row: the button, a name, Save, and the server's answer. */
async function addThroughRow(h: ReturnType<typeof setup>, portfolio: Portfolio) {
  await h.ux.click(screen.getByRole('button', { name: 'Add Portfolio' }));
  const row = within(screen.getByRole('form', { name: 'Add Portfolio' }));
  await h.ux.type(row.getByRole('textbox', { name: 'Portfolio Name' }), ` ${portfolio.name} `);
  await h.ux.click(row.getByRole('button', { name: 'Save' }));
  const call = h.fakes.createPortfolio.next();
  expect(call.input.name).toBe(portfolio.name);
  await act(async () => call.deferred.resolve(portfolio));
}

for (const [who, { ownPortfolios }] of [
  ['a teacher or PLC lead', USER_ABILITIES.teacher],
  ['a researcher', USER_ABILITIES.researcher],
] as const) {
  describe(`dashboard model (${who})`, () => {
    const model = createPathModel(dashboardMachine, { input: { ownPortfolios }, events });
    const paths = model.getShortestPaths();
    it('has paths to every state', () => {
      expect(paths.length).toBeGreaterThan(ownPortfolios ? 10 : 5);
    });
    for (const path of paths) {
      const steps = path.steps.map((step) => step.event.type).join(' → ');
      it(`reaches ${JSON.stringify(path.state.value)}: ${steps}`, async () => {
        const h = setup(ownPortfolios);
        // Every section starts loading (the paths check only the states after each step).
        await checkSnapshot(createActor(dashboardMachine, { input: { ownPortfolios } }).getSnapshot());
        const settle = (actor: keyof typeof h.fakes) => ({
          done: async (step: Step) => {
            const { output } = step.event as { output: never };
            await act(async () => h.fakes[actor].next().deferred.resolve(output));
          },
          error: async (step: Step) => {
            const { error } = step.event as { error: unknown };
            await act(async () => h.fakes[actor].next().deferred.reject(error));
          },
        });
        const retryIn = (name: string) => async () => {
          await h.ux.click(within(within(region(name)!).getByRole('alert')).getByRole('button', { name: 'Try again' }));
        };
        await path.test({
          states: stateChecks,
          events: {
            'xstate.done.actor.listPortfolios': settle('listPortfolios').done,
            'xstate.error.actor.listPortfolios': settle('listPortfolios').error,
            'xstate.done.actor.listSharedPortfolios': settle('listSharedPortfolios').done,
            'xstate.error.actor.listSharedPortfolios': settle('listSharedPortfolios').error,
            'xstate.done.actor.listInvitations': settle('listInvitations').done,
            'xstate.error.actor.listInvitations': settle('listInvitations').error,
            'portfolios.retry': retryIn(TITLES.portfolios),
            'shared.retry': retryIn(ownPortfolios ? TITLES.shared : TITLES.summary),
            'invitations.retry': retryIn(TITLES.invitations),
            'portfolios.sort': async () => {
              await h.ux.click(within(loadedTable(TITLES.portfolios)).getByRole('button', { name: 'Portfolio Name' }));
            },
            'shared.sort': async () => {
              await h.ux.click(within(loadedTable(TITLES.shared)).getByRole('button', { name: 'Comments' }));
            },
            'portfolio.added': async () => {
              await addThroughRow(h, created);
              expect(await screen.findByText('Successfully created portfolio')).toBeTruthy();
            },
            'xstate.error.actor.portfolioCreate': async () => {
              h.flags.rowBroken = true;
              await addThroughRow(h, created);
            },
          },
        });
      });
    }
  });
}
