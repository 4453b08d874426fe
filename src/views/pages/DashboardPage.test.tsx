import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from 'styled-components';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { provideDashboard } from '../../machines/dashboard/provideDashboard.ts';
import { DashboardActorContext } from '../../machines/dashboard/useDashboard.ts';
import type { Invitation } from '../../schemas/invitation.ts';
import type { Portfolio, PortfolioCreateBody, PortfolioListItem } from '../../schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { listItemOf, makePortfolio } from '../../test/portfolioHarness.tsx';
import { makeUser, renderSignedIn, resetApp } from '../../test/renderApp.tsx';
import { makeInvitation, makeSharedPortfolio, people } from '../../test/sharedFixtures.ts';
import { Toaster } from '../feedback/Toaster.tsx';
import { clearToasts, notify } from '../feedback/toastStore.ts';
import { theme } from '../theme/theme.ts';
import { DashboardPage } from './DashboardPage.tsx';

afterEach(() => {
  clearToasts();
  resetApp();
});

const forces = makePortfolio({
  id: 11,
  name: 'Forces and Motion',
  created_at: '2026-03-10T15:00:00.000Z',
  grades: ['1st', 'K'],
  subject: 'Science',
  topic: 'Pushes and pulls',
  artifacts: [],
});
const ecosystems = makePortfolio({ id: 12, name: 'ecosystems', created_at: '2026-01-20T15:00:00.000Z', grades: [], subject: null, topic: null });
const water = makePortfolio({ id: 13, name: 'Water Cycle', created_at: '2026-02-14T15:00:00.000Z', grades: ['5th'], subject: 'Arts', topic: 'Clouds' });

/** The list item of a shared portfolio, with `artifacts` brief shared artifacts. */
function sharedItem(overrides: Partial<SharedPortfolioListItem> & { artifacts?: number } = {}): SharedPortfolioListItem {
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

const plc = sharedItem({
  id: 31,
  name: 'Grades 5–7 Science PLC',
  plcName: 'Middle school science',
  created_at: '2026-02-01T15:00:00.000Z',
  members: [people.lee, people.tess, people.theo],
  commentCount: 3,
  artifacts: 2,
});
const circle = sharedItem({
  id: 32,
  name: 'Engineering Design Circle',
  plcName: 'Makers',
  created_at: '2026-03-01T15:00:00.000Z',
  grades: ['K'],
  members: [people.lee, people.pat],
  commentCount: 7,
  artifacts: 1,
});

interface Fakes {
  portfolios?: () => Promise<PortfolioListItem[]>;
  shared?: () => Promise<SharedPortfolioListItem[]>;
  invitations?: () => Promise<Invitation[]>;
  create?: (body: PortfolioCreateBody) => Promise<Portfolio>;
}

/** The page as the app wires it (toasts included), with answering fake services. */
function renderDashboard({ isResearcher = false, fakes = {} }: { isResearcher?: boolean; fakes?: Fakes } = {}) {
  const calls = { listPortfolios: 0, listSharedPortfolios: 0, listInvitations: 0, createPortfolio: [] as PortfolioCreateBody[] };
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
        return (fakes.create ?? (async (body: PortfolioCreateBody) => makePortfolio({ id: 99, name: body.name, created_at: new Date().toISOString() })))(input);
      }),
    },
  });
  const location = memoryLocation({ path: '/dashboard', record: true });
  render(
    <ThemeProvider theme={theme}>
      <Router hook={location.hook}>
        <DashboardActorContext.Provider logic={logic} options={{ input: { isResearcher } }}>
          <DashboardPage />
        </DashboardActorContext.Provider>
        <Toaster />
      </Router>
    </ThemeProvider>,
  );
  return { calls, location, ux: userEvent.setup() };
}

const section = (name: string) => screen.getByRole('region', { name });
/** The table of a section once it has loaded (the skeleton is a table of the same name). */
function tableOf(name: string): HTMLElement {
  const region = section(name);
  if (within(region).queryByRole('status', { busy: true })) throw new Error(`${name} is still loading`);
  return within(region).getByRole('table', { name });
}
const myTable = () => tableOf('My Portfolios');
/** The body rows' cell texts. */
const bodyRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
const firstColumn = (table: HTMLElement) => bodyRows(table).map((cells) => cells[0]);
const sortOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .filter((th) => th.hasAttribute('aria-sort'))
    .map((th) => [th.textContent, th.getAttribute('aria-sort')]);
/** Waits for My Portfolios, then opens its add row. */
async function openAddRow(ux: ReturnType<typeof userEvent.setup>) {
  await waitFor(myTable);
  await ux.click(screen.getByRole('button', { name: 'Add Portfolio' }));
}
const addRow = () => within(myTable()).getByRole('form', { name: 'Add Portfolio' });

describe('Dashboard page', () => {
  it('is titled PORTFOLIO DASHBOARD and greets the signed-in user', async () => {
    await renderSignedIn('/dashboard', makeUser('plcLead', { username: 'Pat Lead' }));
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['PORTFOLIO DASHBOARD']);
    expect(screen.getByText('Welcome, Pat Lead')).toBeTruthy();
    expect(document.title).toBe('PORTFOLIO DASHBOARD · PracticeFolio');
    // The app starts a teacher's or lead's dashboard with My Portfolios, loading.
    expect(await screen.findByRole('status', { name: 'Loading your portfolios' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Teacher Portfolio Summary' })).toBeNull();
  });

  it("the app starts a researcher's dashboard with the summary and without My Portfolios", async () => {
    await renderSignedIn('/dashboard', makeUser('researcher'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Teacher Portfolio Summary' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Loading the summary' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'My Portfolios' })).toBeNull();
  });

  describe('My Portfolios (teachers and PLC leads)', () => {
    it('lists the portfolios newest first, with every column', async () => {
      renderDashboard();
      const table = await waitFor(myTable);
      expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
        'Portfolio Name',
        'Date Created',
        'Grade Levels',
        'Subject',
        'Portfolio Topic',
        'Artifacts',
        'Template',
      ]);
      expect(sortOf(table)).toEqual([['Date Created', 'descending']]);
      expect(bodyRows(table)).toEqual([
        ['Forces and Motion', '03/10/26', 'Kindergarten, 1st Grade', 'Science', 'Pushes and pulls', '0', 'Basic'],
        ['Water Cycle', '02/14/26', '5th Grade', 'Arts', 'Clouds', '0', 'Basic'],
        ['ecosystems', '01/20/26', '', '', '', '0', 'Basic'],
      ]);
      expect(within(table).getByRole('link', { name: 'Forces and Motion' }).getAttribute('href')).toBe('/my-portfolios/11');
    });

    it('sorts by a column header, and the other way on a second click', async () => {
      const { ux } = renderDashboard();
      const table = await waitFor(myTable);
      await ux.click(within(table).getByRole('button', { name: 'Portfolio Name' }));
      expect(firstColumn(table)).toEqual(['ecosystems', 'Forces and Motion', 'Water Cycle']);
      expect(sortOf(table)).toEqual([['Portfolio Name', 'ascending']]);
      await ux.click(within(table).getByRole('button', { name: 'Portfolio Name' }));
      expect(firstColumn(table)).toEqual(['Water Cycle', 'Forces and Motion', 'ecosystems']);
      expect(sortOf(table)).toEqual([['Portfolio Name', 'descending']]);
      // Grades sort by the lowest grade; a portfolio without grades comes last.
      await ux.click(within(table).getByRole('button', { name: 'Grade Levels' }));
      expect(firstColumn(table)).toEqual(['Forces and Motion', 'Water Cycle', 'ecosystems']);
      await ux.click(within(table).getByRole('button', { name: 'Date Created' }));
      expect(firstColumn(table)).toEqual(['Forces and Motion', 'Water Cycle', 'ecosystems']);
      expect(sortOf(table)).toEqual([['Date Created', 'descending']]);
    });

    it('shows a real empty state', async () => {
      renderDashboard({ fakes: { portfolios: async () => [] } });
      expect(await screen.findByText('You have no portfolios yet. Add one to start collecting evidence.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Add Portfolio' })).toBeTruthy();
    });

    it('opens the add row with an empty subject choice, and refuses a save without a name', async () => {
      const { ux, calls } = renderDashboard();
      await openAddRow(ux);
      const row = addRow();
      const name = within(row).getByRole('textbox', { name: 'Portfolio Name' });
      expect(document.activeElement).toBe(name);
      const subject = within(row).getByRole('combobox', { name: 'Subject' }) as HTMLSelectElement;
      expect(subject.value).toBe('');
      expect(subject.selectedOptions[0]?.textContent).toBe('No subject');
      expect([...subject.options].map((o) => o.textContent)).toEqual(['No subject', 'Arts', 'History', 'Language Arts', 'Mathematics', 'PE', 'Science']);
      // The button that opened the row is gone while the row is open.
      expect(screen.queryByRole('button', { name: 'Add Portfolio' })).toBeNull();

      await ux.type(name, '   ');
      await ux.click(within(row).getByRole('button', { name: 'Save' }));
      expect(within(row).getByText('A name is required.')).toBeTruthy();
      expect(name.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(name);
      expect(calls.createPortfolio).toEqual([]);
      // Typing a name takes the message away.
      await ux.type(name, 'x');
      expect(within(row).queryByText('A name is required.')).toBeNull();
    });

    it('sends the trimmed name with the chosen grades, subject and topic, then shows the new row', async () => {
      const created = makePortfolio({ id: 77, name: 'Field Notes', created_at: '2026-04-01T15:00:00.000Z', grades: ['K', '2nd'], subject: 'History', topic: 'Maps' });
      const { ux, calls } = renderDashboard({ fakes: { create: async () => created } });
      await openAddRow(ux);
      const row = addRow();
      await ux.type(within(row).getByRole('textbox', { name: 'Portfolio Name' }), '  Field Notes  ');
      await ux.click(within(row).getByRole('button', { name: /^Grade Levels/ }));
      const grades = within(row).getByRole('group', { name: 'Grade Levels' });
      expect(within(grades).getAllByRole('checkbox')).toHaveLength(14);
      await ux.click(within(grades).getByRole('checkbox', { name: '2nd Grade' }));
      await ux.click(within(grades).getByRole('checkbox', { name: 'Kindergarten' }));
      await ux.keyboard('{Escape}');
      await ux.selectOptions(within(row).getByRole('combobox', { name: 'Subject' }), 'History');
      await ux.type(within(row).getByRole('textbox', { name: 'Portfolio Topic' }), ' Maps ');
      await ux.click(within(row).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(calls.createPortfolio).toEqual([{ name: 'Field Notes', grades: ['K', '2nd'], subject: 'History', topic: 'Maps' }]));
      const table = myTable();
      await waitFor(() => expect(firstColumn(table)).toEqual(['Field Notes', 'Forces and Motion', 'Water Cycle', 'ecosystems']));
      expect(bodyRows(table)[0]).toEqual(['Field Notes', '04/01/26', 'Kindergarten, 2nd Grade', 'History', 'Maps', '0', 'Basic']);
      expect(within(table).getAllByRole('row')[1]!.hasAttribute('data-highlight')).toBe(true);
      expect(within(table).queryByRole('form', { name: 'Add Portfolio' })).toBeNull();
      expect(within(screen.getByRole('region', { name: 'Notifications' })).getByRole('status').textContent).toContain('Successfully created portfolio');
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Portfolio' }));
    });

    it('sends no subject and no topic when they stay empty', async () => {
      const { ux, calls } = renderDashboard();
      await openAddRow(ux);
      await ux.type(within(addRow()).getByRole('textbox', { name: 'Portfolio Name' }), 'Plain{Enter}');
      await waitFor(() => expect(calls.createPortfolio).toEqual([{ name: 'Plain', grades: [], subject: null, topic: null }]));
    });

    it("alerts the server's message on failure and keeps the row open with what was typed", async () => {
      const refused = new ApiError(400, 'validation_error', 'The name must be at most 200 characters.', '');
      const { ux, calls } = renderDashboard({
        fakes: {
          create: async () => {
            throw refused;
          },
        },
      });
      await openAddRow(ux);
      await ux.type(within(addRow()).getByRole('textbox', { name: 'Portfolio Name' }), 'Too long');
      await ux.click(within(addRow()).getByRole('button', { name: 'Save' }));
      expect((await screen.findByRole('alert')).textContent).toContain('The name must be at most 200 characters.');
      const name = within(addRow()).getByRole('textbox', { name: 'Portfolio Name' }) as HTMLInputElement;
      expect(name.value).toBe('Too long');
      await waitFor(() => expect(document.activeElement).toBe(name));
      // The add row stays first; nothing was added below it.
      expect(firstColumn(myTable()).slice(1)).toEqual(['Forces and Motion', 'Water Cycle', 'ecosystems']);
      expect(calls.createPortfolio).toHaveLength(1);
    });

    it('Cancel discards the row and what was typed', async () => {
      const { ux, calls } = renderDashboard();
      await openAddRow(ux);
      await ux.type(within(addRow()).getByRole('textbox', { name: 'Portfolio Name' }), 'Draft');
      await ux.click(within(addRow()).getByRole('button', { name: 'Cancel' }));
      expect(within(myTable()).queryByRole('form', { name: 'Add Portfolio' })).toBeNull();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Portfolio' }));
      await ux.click(screen.getByRole('button', { name: 'Add Portfolio' }));
      expect((within(addRow()).getByRole('textbox', { name: 'Portfolio Name' }) as HTMLInputElement).value).toBe('');
      expect(calls.createPortfolio).toEqual([]);
    });

    it('tells when the portfolios could not be loaded, and loads them again on Try again', async () => {
      let attempts = 0;
      const { ux } = renderDashboard({
        fakes: {
          portfolios: async () => {
            attempts += 1;
            if (attempts === 1) throw new ApiError(500, 'internal_error', 'The server had a problem.', '');
            return [water].map(listItemOf);
          },
        },
      });
      const alert = await within(await screen.findByRole('region', { name: 'My Portfolios' })).findByRole('alert');
      expect(within(alert).getByRole('heading', { name: 'Your portfolios could not be loaded' })).toBeTruthy();
      expect(within(alert).getByText('The server had a problem.')).toBeTruthy();
      await ux.click(within(alert).getByRole('button', { name: 'Try again' }));
      await waitFor(() => expect(firstColumn(myTable())).toEqual(['Water Cycle']));
    });
  });

  describe('researchers', () => {
    it('see the summary counts of the shared portfolios and no My Portfolios table', async () => {
      const { calls } = renderDashboard({ isResearcher: true, fakes: { shared: async () => [plc, circle] } });
      const summary = await screen.findByRole('region', { name: 'Teacher Portfolio Summary' });
      await waitFor(() => expect(within(summary).queryByRole('status')).toBeNull());
      const counts = Object.fromEntries(
        within(summary)
          .getAllByRole('term')
          .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
      // 2 portfolios; 2 + 1 artifacts; 3 + 7 comments; Lee, Tess, Theo and Pat.
      expect(counts).toEqual({ Portfolios: '2', Artifacts: '3', Comments: '10', Teachers: '4' });
      expect(screen.queryByRole('region', { name: 'My Portfolios' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Add Portfolio' })).toBeNull();
      expect(calls.listPortfolios).toBe(0);
      // Researchers see the shared table too.
      expect(firstColumn(tableOf('Shared Portfolios'))).toEqual(['Engineering Design Circle', 'Grades 5–7 Science PLC']);
    });

    it('can open from each summary card the list it counts', async () => {
      const { ux } = renderDashboard({ isResearcher: true, fakes: { shared: async () => [plc, circle] } });
      const summary = await screen.findByRole('region', { name: 'Teacher Portfolio Summary' });
      const links = await within(summary).findAllByRole('link');
      expect(links.map((a) => [a.getAttribute('aria-label'), a.getAttribute('href')])).toEqual([
        ['Portfolios: 2. See the shared portfolios', '#shared-portfolios'],
        ['Artifacts: 3. See the artifacts of each shared portfolio', '#shared-portfolios'],
        ['Comments: 10. See the comments of each shared portfolio', '#shared-portfolios'],
        ['Teachers: 4. See the people in Manage Users', '/users'],
      ]);
      const table = screen.getByRole('region', { name: 'Shared Portfolios' });
      expect(table.id).toBe('shared-portfolios');
      await ux.click(links[1]!);
      expect(document.activeElement).toBe(table);
    });

    it('see zeros when there are no shared portfolios', async () => {
      renderDashboard({ isResearcher: true });
      const summary = await screen.findByRole('region', { name: 'Teacher Portfolio Summary' });
      await waitFor(() => expect(within(summary).getAllByRole('definition').map((dd) => dd.textContent)).toEqual(['0', '0', '0', '0']));
      expect(screen.queryByRole('region', { name: 'Shared Portfolios' })).toBeNull();
      // No link to a table that is not there.
      expect(within(summary).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/users']);
    });

    it('are told once when the shared portfolios could not be loaded', async () => {
      let attempts = 0;
      const { ux } = renderDashboard({
        isResearcher: true,
        fakes: {
          shared: async () => {
            attempts += 1;
            if (attempts === 1) throw new ApiError(503, 'unavailable', 'Try later.', '');
            return [plc];
          },
        },
      });
      const summary = await screen.findByRole('region', { name: 'Teacher Portfolio Summary' });
      const alert = await within(summary).findByRole('alert');
      expect(within(alert).getByText('The summary could not be loaded')).toBeTruthy();
      expect(screen.getAllByRole('button', { name: 'Try again' })).toHaveLength(1);
      await ux.click(within(alert).getByRole('button', { name: 'Try again' }));
      await waitFor(() => expect(within(summary).getAllByRole('definition').map((dd) => dd.textContent)).toEqual(['1', '2', '3', '3']));
      expect(firstColumn(tableOf('Shared Portfolios'))).toEqual(['Grades 5–7 Science PLC']);
    });
  });

  describe('Shared Portfolios and invitations', () => {
    it('are left out when there are none', async () => {
      renderDashboard();
      await waitFor(myTable);
      await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading shared portfolios' })).toBeNull());
      await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading invitations' })).toBeNull());
      expect(screen.queryByRole('heading', { name: 'Shared Portfolios' })).toBeNull();
      expect(screen.queryByRole('heading', { name: 'Invitations to Join Shared Portfolios' })).toBeNull();
    });

    it('list the shared portfolios newest first, sortable, with links', async () => {
      const { ux } = renderDashboard({ fakes: { shared: async () => [plc, circle] } });
      const table = await waitFor(() => tableOf('Shared Portfolios'));
      expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
        'Shared Portfolio Name',
        'PLC Name',
        'Date Created',
        'Grade Levels',
        'Subject',
        'Portfolio Topic',
        'Artifacts',
        'Comments',
      ]);
      expect(sortOf(table)).toEqual([['Date Created', 'descending']]);
      expect(bodyRows(table)).toEqual([
        ['Engineering Design Circle', 'Makers', '03/01/26', 'Kindergarten', 'Science', 'Forces and motion', '1', '7'],
        ['Grades 5–7 Science PLC', 'Middle school science', '02/01/26', '5th Grade, 6th Grade', 'Science', 'Forces and motion', '2', '3'],
      ]);
      expect(within(table).getByRole('link', { name: 'Grades 5–7 Science PLC' }).getAttribute('href')).toBe('/shared-portfolios/31');
      await ux.click(within(table).getByRole('button', { name: 'Artifacts' }));
      expect(firstColumn(table)).toEqual(['Grades 5–7 Science PLC', 'Engineering Design Circle']);
      expect(sortOf(table)).toEqual([['Artifacts', 'descending']]);
      await ux.click(within(table).getByRole('button', { name: 'Comments' }));
      expect(firstColumn(table)).toEqual(['Engineering Design Circle', 'Grades 5–7 Science PLC']);
      await ux.click(within(table).getByRole('button', { name: 'PLC Name' }));
      expect(firstColumn(table)).toEqual(['Engineering Design Circle', 'Grades 5–7 Science PLC']);
      expect(sortOf(table)).toEqual([['PLC Name', 'ascending']]);
    });

    it('list the invitations with a link to each, skipping any whose shared portfolio is gone', async () => {
      const older = makeInvitation({ id: 41, created_at: '2026-02-02T10:00:00.000Z' });
      const newer = makeInvitation({
        id: 42,
        from: null,
        created_at: '2026-03-03T10:00:00.000Z',
        sharedPortfolio: { ...older.sharedPortfolio, id: 32, name: 'Engineering Design Circle', plcName: 'Makers' },
      });
      const dangling = { ...makeInvitation({ id: 43 }), sharedPortfolio: null } as unknown as Invitation;
      renderDashboard({ fakes: { invitations: async () => [older, dangling, newer] } });
      const table = await waitFor(() => tableOf('Invitations to Join Shared Portfolios'));
      expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Shared Portfolio Name', 'Invite From', 'PLC Name', 'Date']);
      expect(bodyRows(table)).toEqual([
        ['Engineering Design Circle', '', 'Makers', '03/03/26'],
        ['Grades 5–7 Science PLC', 'Lee Lead', 'Middle school science', '02/02/26'],
      ]);
      expect(within(table).getByRole('link', { name: 'Engineering Design Circle' }).getAttribute('href')).toBe('/invitation/42');
    });

    it('each tell their own failure with a retry', async () => {
      const fails = { shared: true, invitations: true };
      const { ux } = renderDashboard({
        fakes: {
          shared: async () => {
            if (fails.shared) throw new ApiError(500, 'internal_error', 'Shared broke.', '');
            return [plc];
          },
          invitations: async () => {
            if (fails.invitations) throw new ApiError(500, 'internal_error', 'Invitations broke.', '');
            return [makeInvitation()];
          },
        },
      });
      const sharedAlert = await within(await screen.findByRole('region', { name: 'Shared Portfolios' })).findByRole('alert');
      const invitationsAlert = await within(section('Invitations to Join Shared Portfolios')).findByRole('alert');
      expect(within(sharedAlert).getByText('The shared portfolios could not be loaded')).toBeTruthy();
      expect(within(sharedAlert).getByText('Shared broke.')).toBeTruthy();
      expect(within(invitationsAlert).getByText('The invitations could not be loaded')).toBeTruthy();
      // My Portfolios is unaffected.
      await waitFor(() => expect(firstColumn(myTable())).toHaveLength(3));
      fails.invitations = false;
      await ux.click(within(invitationsAlert).getByRole('button', { name: 'Try again' }));
      await waitFor(() => expect(tableOf('Invitations to Join Shared Portfolios')).toBeTruthy());
      expect(within(section('Shared Portfolios')).getByRole('alert')).toBeTruthy();
      fails.shared = false;
      await ux.click(within(section('Shared Portfolios')).getByRole('button', { name: 'Try again' }));
      await waitFor(() => expect(firstColumn(tableOf('Shared Portfolios'))).toEqual(['Grades 5–7 Science PLC']));
    });
  });

  it('shows skeletons of the same shape while each section loads', async () => {
    const pending = () => new Promise<never>(() => undefined);
    renderDashboard({ fakes: { portfolios: pending, shared: pending, invitations: pending } });
    for (const [region, label] of [
      ['My Portfolios', 'Loading your portfolios'],
      ['Shared Portfolios', 'Loading shared portfolios'],
      ['Invitations to Join Shared Portfolios', 'Loading invitations'],
    ] as const) {
      const status = within(section(region)).getByRole('status', { name: label });
      expect(within(status).getAllByRole('columnheader').length).toBeGreaterThan(3);
    }
    expect((screen.getByRole('button', { name: 'Add Portfolio' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
