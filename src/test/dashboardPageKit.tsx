/** The dashboard page as the app wires it, for its component tests: fixtures, fake services and the page's parts. */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { provideDashboard } from '../machines/dashboard/provideDashboard.ts';
import { DashboardActorContext } from '../machines/dashboard/useDashboard.ts';
import type { Invitation } from '../schemas/invitation.ts';
import type { Portfolio, PortfolioCreateBody, PortfolioListItem } from '../schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../schemas/sharedPortfolio.ts';
import { listItemOf, makePortfolio } from './portfolioHarness.tsx';
import { makeSharedPortfolio, people } from './sharedFixtures.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { DashboardPage } from '../views/pages/DashboardPage.tsx';
import type { UserAbilities } from '../schemas/abilities.ts';
import { USER_ABILITIES } from './abilityFixtures.ts';

export const forces = makePortfolio({
  id: 11,
  name: 'Forces and Motion',
  created_at: '2026-03-10T15:00:00.000Z',
  grades: ['1st', 'K'],
  subject: 'Science',
  topic: 'Pushes and pulls',
  artifacts: [],
});
export const ecosystems = makePortfolio({
  id: 12,
  name: 'ecosystems',
  created_at: '2026-01-20T15:00:00.000Z',
  grades: [],
  subject: null,
  topic: null,
});
export const water = makePortfolio({
  id: 13,
  name: 'Water Cycle',
  created_at: '2026-02-14T15:00:00.000Z',
  grades: ['5th'],
  subject: 'Arts',
  topic: 'Clouds',
});

/** The list item of a shared portfolio, with `artifacts` brief shared artifacts. */
export function sharedItem(
  overrides: Partial<SharedPortfolioListItem> & { artifacts?: number } = {},
): SharedPortfolioListItem {
  const { artifacts = 0, ...rest } = overrides;
  const { sharedArtifacts: _full, ...sp } = makeSharedPortfolio();
  const brief = Array.from({ length: artifacts }, (_, i) => ({
    id: 500 + i,
    owner: { id: people.tess.id },
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
  }));
  return { ...sp, sharedArtifacts: brief, ...rest };
}

export const plc = sharedItem({
  id: 31,
  name: 'Grades 5–7 Science PLC',
  plcName: 'Middle school science',
  created_at: '2026-02-01T15:00:00.000Z',
  members: [people.lee, people.tess, people.theo],
  commentCount: 3,
  artifacts: 2,
});
export const circle = sharedItem({
  id: 32,
  name: 'Engineering Design Circle',
  plcName: 'Makers',
  created_at: '2026-03-01T15:00:00.000Z',
  grades: ['K'],
  members: [people.lee, people.pat],
  commentCount: 7,
  artifacts: 1,
});

export interface Fakes {
  portfolios?: () => Promise<PortfolioListItem[]>;
  shared?: () => Promise<SharedPortfolioListItem[]>;
  invitations?: () => Promise<Invitation[]>;
  create?: (body: PortfolioCreateBody) => Promise<Portfolio>;
}

/** The page as the app wires it (toasts included), with answering fake services. */
export function renderDashboard({
  abilities = USER_ABILITIES.teacher,
  fakes = {},
}: { abilities?: UserAbilities; fakes?: Fakes } = {}) {
  const calls = {
    listPortfolios: 0,
    listSharedPortfolios: 0,
    listInvitations: 0,
    createPortfolio: [] as PortfolioCreateBody[],
  };
  const logic = provideDashboard({
    notify: ({ message, tone }) => notify(message, tone),
    actors: {
      listPortfolios: fromPromise(async () => {
        calls.listPortfolios += 1;
        return (fakes.portfolios ?? (async () => [forces, ecosystems, water].map(listItemOf)))();
      }),
      listSharedPortfolios: fromPromise(async () => {
        calls.listSharedPortfolios += 1;
        return (fakes.shared ?? (async () => []))();
      }),
      listInvitations: fromPromise(async () => {
        calls.listInvitations += 1;
        return (fakes.invitations ?? (async () => []))();
      }),
      createPortfolio: fromPromise<Portfolio, PortfolioCreateBody>(async ({ input }) => {
        calls.createPortfolio.push(input);
        return (
          fakes.create ??
          (async (body: PortfolioCreateBody) =>
            makePortfolio({ id: 99, name: body.name, created_at: new Date().toISOString() }))
        )(input);
      }),
    },
  });
  const location = memoryLocation({ path: '/dashboard', record: true });
  render(
    <Router hook={location.hook}>
      <DashboardActorContext.Provider logic={logic} options={{ input: { ownPortfolios: abilities.ownPortfolios } }}>
        <DashboardPage />
      </DashboardActorContext.Provider>
      <Toaster />
    </Router>,
  );
  return { calls, location, ux: userEvent.setup() };
}

export const section = (name: string) => screen.getByRole('region', { name });
/** The table of a section once it has loaded (the skeleton is a table of the same name). */
export function tableOf(name: string): HTMLElement {
  const region = section(name);
  if (within(region).queryByRole('status', { busy: true })) throw new Error(`${name} is still loading`);
  return within(region).getByRole('table', { name });
}
export const myTable = () => tableOf('My Portfolios');
/** The body rows' cell texts. */
export const bodyRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
export const firstColumn = (table: HTMLElement) => bodyRows(table).map((cells) => cells[0]);
export const sortOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .filter((th) => th.hasAttribute('aria-sort'))
    .map((th) => [th.textContent, th.getAttribute('aria-sort')]);
/** Waits for My Portfolios, then opens its add row. */
export async function openAddRow(ux: ReturnType<typeof userEvent.setup>) {
  await waitFor(myTable);
  await ux.click(screen.getByRole('button', { name: 'Add Portfolio' }));
}
export const addRow = () => within(myTable()).getByRole('form', { name: 'Add Portfolio' });
