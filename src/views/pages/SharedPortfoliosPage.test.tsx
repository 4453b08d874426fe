import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { signOut } from '../../services/session.ts';
import { artifactsGrid, rowNames } from '../../test/portfolioHarness.tsx';
import { accounts, badRequest, TEAM_QUESTION } from '../../test/sharedHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { exportNote } from '../shared/browser/SharedPortfolioSummary.tsx';
import {
  PLC,
  LEAVE_TEXT,
  setup,
  portfolioSelect,
  summary,
  facts,
  openFilters,
} from '../../test/sharedPortfoliosPageKit.tsx';

afterEach(() => {
  clearToasts();
  signOut();
});

describe('Shared Portfolios: the page', () => {
  it.each([
    ['a teacher', accounts.tess, false, false],
    ['a PLC lead', accounts.lee, true, false],
    ['a researcher', accounts.rita, true, true],
  ] as const)(
    'shows %s CREATE NEW SHARED PORTFOLIO (leads, researchers) and the summary export (researchers)',
    async (_, user, create, exportCsv) => {
      setup({ path: '/shared-portfolios', user });
      expect(await screen.findByRole('heading', { level: 1, name: 'Shared Portfolios' })).toBeTruthy();
      const createLink = screen.queryByRole('link', { name: 'CREATE NEW SHARED PORTFOLIO' });
      expect(createLink?.getAttribute('href') ?? null).toBe(create ? '/shared-portfolios/new' : null);
      const exportLink = screen.queryByRole('link', { name: 'Export shared portfolios summary' });
      expect(exportLink?.getAttribute('href') ?? null).toBe(
        exportCsv ? 'http://portal.test/api/v1/shared-portfolios/export' : null,
      );
      expect(exportLink?.getAttribute('download') ?? null).toBe(exportCsv ? 'shared portfolios.csv' : null);
      expect(document.title).toBe('Shared Portfolios · PracticeFolio');
    },
  );

  it('lists the shared portfolios by name after the placeholder; choosing one puts it in the address and shows its summary', async () => {
    const { location, ux, api } = setup({ path: '/shared-portfolios' });
    await screen.findByRole('combobox', { name: 'Select Shared Portfolio' });
    expect([...portfolioSelect().options].map((o) => o.textContent)).toEqual([
      'Select a shared portfolio',
      'Engineering Design Circle',
      'Grades 5–7 Science PLC',
    ]);
    expect(screen.getByText('Choose a shared portfolio to see its artifacts.')).toBeTruthy();
    await ux.selectOptions(portfolioSelect(), 'Grades 5–7 Science PLC');
    expect(location.history).toEqual(['/shared-portfolios', `/shared-portfolios/${PLC}`]);
    expect(facts(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' }))).toEqual({
      'Grade Levels': '5th Grade, 6th Grade',
      'PLC Name': 'Middle school science',
      Created: 'Lee Lead',
      Subject: 'Science',
      'Date Created': '02/03/26',
      'Portfolio Topic': 'Forces and motion',
      'Total Artifacts': '3',
      'PLC Goals': 'Notice student reasoning.',
    });
    expect(api.calls.filter((c) => c.startsWith('getPortfolio'))).toEqual([`getPortfolio ${PLC}`]);
  });

  it('shows the artifacts as Artifact Name, Author, Date and Number of Comments, newest first', async () => {
    setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    expect(
      within(artifactsGrid())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Artifact Name', 'Author', 'Date', 'Number of Comments']);
    expect(within(artifactsGrid()).getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(rowNames()).toEqual(['Food web', 'Ramp race', 'Magnet hunt']);
    const ramp = within(screen.getByRole('row', { name: /Ramp race/ }))
      .getAllByRole('gridcell')
      .map((c) => c.textContent);
    expect(ramp).toEqual(['Ramp race', 'Tess Teacher', '03/02/26', '2']);
  });

  it.each([
    ['a teacher who is a member', accounts.tess, { leave: true, edit: false }],
    ['another teacher who is a member', accounts.theo, { leave: true, edit: false }],
    ['the owner (a PLC lead)', accounts.lee, { leave: false, edit: true }],
    ['a researcher', accounts.rita, { leave: false, edit: true }],
  ] as const)('offers %s the summary actions of spec §2: Leave %#', async (_, user, expected) => {
    setup({ user });
    const region = await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' });
    expect(within(region).queryByRole('button', { name: 'Leave' }) !== null).toBe(expected.leave);
    const exportButton = within(region).getByRole('button', { name: 'Export' }) as HTMLButtonElement;
    expect(exportButton.disabled).toBe(true);
    // Why it is disabled, next to it and as its description.
    const why = document.getElementById(exportButton.getAttribute('aria-describedby')!)!;
    expect(why.textContent).toBe(exportNote(user === accounts.rita));
    expect(why.textContent).toMatch(/^Exporting one shared portfolio is not available yet/);
    const edit = within(region).queryByRole('link', { name: 'Edit' });
    expect(edit?.getAttribute('href') ?? null).toBe(expected.edit ? `/shared-portfolios/${PLC}/edit` : null);
  });

  it('Edit opens the shared portfolio form', async () => {
    const { ux, where } = setup({ user: accounts.lee });
    await ux.click(
      within(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('link', { name: 'Edit' }),
    );
    expect(where()).toBe(`/shared-portfolios/${PLC}/edit`);
    expect(screen.getByRole('heading', { name: 'Edit Shared Portfolio' })).toBeTruthy();
  });

  it('Leave asks the question of spec §6; NO keeps the membership', async () => {
    const { ux, api } = setup();
    await ux.click(
      within(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    // The dialog opens, and takes the focus, once the page's machine has answered the click.
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave Shared Portfolio' });
    expect(dialog.textContent).toContain(LEAVE_TEXT);
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'NO' })));
    await ux.click(within(dialog).getByRole('button', { name: 'NO' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.some((c) => c.startsWith('leaveSharedPortfolio'))).toBe(false);
  });

  it('Leave then YES ends the membership, says so, and shows the list without that portfolio', async () => {
    const { ux, api, where } = setup();
    await ux.click(
      within(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await ux.click(
      within(await screen.findByRole('alertdialog', { name: 'Leave Shared Portfolio' })).getByRole('button', {
        name: 'YES',
      }),
    );
    expect(await screen.findByText('You left Grades 5–7 Science PLC.')).toBeTruthy();
    await waitFor(() => expect(where()).toBe('/shared-portfolios'));
    expect(api.calls).toContain(`leaveSharedPortfolio ${PLC}`);
    expect([...portfolioSelect().options].map((o) => o.textContent)).toEqual([
      'Select a shared portfolio',
      'Engineering Design Circle',
    ]);
    expect(screen.getByText('Choose a shared portfolio to see its artifacts.')).toBeTruthy();
  });

  it('a refused Leave alerts the server’s message and keeps the portfolio', async () => {
    const { ux, api, where } = setup();
    api.fail('leaveSharedPortfolio', badRequest('The owner cannot leave.'));
    await ux.click(
      within(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await ux.click(await screen.findByRole('button', { name: 'YES' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The owner cannot leave.');
    expect(where()).toBe(`/shared-portfolios/${PLC}`);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(summary()).toBeTruthy();
  });
});

describe('Shared Portfolios: Filter By and search', () => {
  it('offers Show Only, Grade and Has Reactions (emoji named by their meaning) before the questions and the standards', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const dialog = await openFilters(ux);
    const sections = within(dialog)
      .getAllByRole('heading', { level: 3 })
      .map((h) => within(h).getByRole('button'));
    expect(sections.map((b) => b.textContent)).toEqual([
      'Recent',
      'Show Only',
      'Grade',
      'Has Reactions',
      'When in the unit was this?',
      TEAM_QUESTION.text,
      'Standards or Elements of Framework',
    ]);
    // Grades read by their names, as everywhere else (spec §3).
    const grade = within(dialog).getByRole('group', { name: 'Grade' });
    expect(
      within(grade)
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent),
    ).toEqual([
      'Pre-K',
      'Kindergarten',
      '1st Grade',
      '2nd Grade',
      '3rd Grade',
      '4th Grade',
      '5th Grade',
      '6th Grade',
      '7th Grade',
      '8th Grade',
      '9th Grade',
      '10th Grade',
      '11th Grade',
      '12th Grade',
    ]);
    const reactions = within(dialog).getByRole('group', { name: 'Has Reactions' });
    expect(
      within(reactions)
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent),
    ).toEqual(["🔖Let's talk about this", '⭐Exemplar', '🌉Bridges grade levels', '❓I have a question']);
    expect(within(reactions).getByRole('checkbox', { name: 'Exemplar' })).toBeTruthy();
  });

  it('My Artifacts keeps the viewer’s own; Grade matches the portfolio grades; Has Reactions the emoji given — AND across, OR within', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const dialog = await openFilters(ux);
    await ux.click(
      within(within(dialog).getByRole('group', { name: 'Show Only' })).getByRole('checkbox', { name: 'My Artifacts' }),
    );
    expect(rowNames()).toEqual(['Ramp race']);
    await ux.click(
      within(within(dialog).getByRole('group', { name: 'Show Only' })).getByRole('checkbox', { name: 'My Artifacts' }),
    );
    const grade = within(dialog).getByRole('group', { name: 'Grade' });
    await ux.click(within(grade).getByRole('checkbox', { name: '5th Grade' }));
    expect(rowNames()).toEqual(['Food web']);
    await ux.click(within(grade).getByRole('checkbox', { name: '7th Grade' }));
    expect(rowNames()).toEqual(['Food web', 'Magnet hunt']);
    await ux.click(within(grade).getByRole('checkbox', { name: '5th Grade' }));
    await ux.click(within(grade).getByRole('checkbox', { name: '7th Grade' }));
    const reactions = within(dialog).getByRole('group', { name: 'Has Reactions' });
    await ux.click(within(reactions).getByRole('checkbox', { name: 'Exemplar' }));
    expect(rowNames()).toEqual(['Ramp race']);
    await ux.click(within(reactions).getByRole('checkbox', { name: "Let's talk about this" }));
    expect(rowNames()).toEqual(['Food web', 'Ramp race']);
    await ux.click(within(grade).getByRole('checkbox', { name: '5th Grade' }));
    expect(rowNames()).toEqual(['Food web']);
    await ux.click(within(dialog).getByRole('button', { name: 'Done' }));
    const chips = screen.getByRole('list', { name: 'Filtered by:' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((c) => c.firstChild?.textContent),
    ).toEqual(['⭐ Exemplar', "🔖 Let's talk about this", '5th Grade']);
    await ux.click(screen.getByRole('button', { name: 'Remove filter ⭐ Exemplar' }));
    expect(rowNames()).toEqual(['Food web']);
    await ux.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(rowNames()).toHaveLength(3);
  });

  it('keyword search looks in answers and in comment texts, ignoring case', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const search = screen.getByRole('searchbox', { name: 'Search artifacts' });
    await ux.type(search, 'marbles');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp race']));
    await ux.clear(search);
    await ux.type(search, 'Fifth GRADERS');
    await waitFor(() => expect(rowNames()).toEqual(['Food web']));
    await ux.clear(search);
    await ux.type(search, 'another school');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp race']));
    await ux.clear(search);
    await ux.type(search, 'volcano');
    await waitFor(() => expect(within(artifactsGrid()).getByText('No artifacts found')).toBeTruthy());
  });
});
