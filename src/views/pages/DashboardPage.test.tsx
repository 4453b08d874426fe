import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../services/errors.ts';
import { listItemOf, makePortfolio } from '../../test/portfolioHarness.tsx';
import { makeUser, renderSignedIn, resetApp } from '../../test/renderApp.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import {
  addRow,
  bodyRows,
  firstColumn,
  myTable,
  openAddRow,
  renderDashboard,
  section,
  sortOf,
  water,
} from '../../test/dashboardPageKit.tsx';

afterEach(() => {
  clearToasts();
  resetApp();
});

describe('Dashboard page', () => {
  it('is titled PORTFOLIO DASHBOARD and greets the signed-in user', async () => {
    await renderSignedIn('/dashboard', makeUser('plcLead', { username: 'Pat Lead' }));
    expect((await screen.findAllByRole('heading', { level: 1 })).map((h) => h.textContent)).toEqual([
      'PORTFOLIO DASHBOARD',
    ]);
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
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual([
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
      expect(within(table).getByRole('link', { name: 'Forces and Motion' }).getAttribute('href')).toBe(
        '/my-portfolios/11',
      );
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
      expect([...subject.options].map((o) => o.textContent)).toEqual([
        'No subject',
        'Arts',
        'History',
        'Language Arts',
        'Mathematics',
        'PE',
        'Science',
      ]);
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
      const created = makePortfolio({
        id: 77,
        name: 'Field Notes',
        created_at: '2026-04-01T15:00:00.000Z',
        grades: ['K', '2nd'],
        subject: 'History',
        topic: 'Maps',
      });
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

      await waitFor(() =>
        expect(calls.createPortfolio).toEqual([
          { name: 'Field Notes', grades: ['K', '2nd'], subject: 'History', topic: 'Maps' },
        ]),
      );
      const table = myTable();
      await waitFor(() =>
        expect(firstColumn(table)).toEqual(['Field Notes', 'Forces and Motion', 'Water Cycle', 'ecosystems']),
      );
      expect(bodyRows(table)[0]).toEqual([
        'Field Notes',
        '04/01/26',
        'Kindergarten, 2nd Grade',
        'History',
        'Maps',
        '0',
        'Basic',
      ]);
      expect(within(table).getAllByRole('row')[1]!.hasAttribute('data-highlight')).toBe(true);
      expect(within(table).queryByRole('form', { name: 'Add Portfolio' })).toBeNull();
      expect(within(screen.getByRole('region', { name: 'Notifications' })).getByRole('status').textContent).toContain(
        'Successfully created portfolio',
      );
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Portfolio' }));
    });

    it('sends no subject and no topic when they stay empty', async () => {
      const { ux, calls } = renderDashboard();
      await openAddRow(ux);
      await ux.type(within(addRow()).getByRole('textbox', { name: 'Portfolio Name' }), 'Plain{Enter}');
      await waitFor(() =>
        expect(calls.createPortfolio).toEqual([{ name: 'Plain', grades: [], subject: null, topic: null }]),
      );
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
