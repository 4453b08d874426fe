import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactRows, artifactsGrid, rowNames } from '../../test/portfolioHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { FORCES, setup, portfolioSelect, header, openFilters } from '../../test/myPortfoliosPageKit.tsx';

afterEach(clearToasts);

describe('My Portfolios', () => {
  it('lists the portfolios by name after the placeholder; choosing one puts it in the address and shows its summary', async () => {
    const { location, ux, calls } = setup('/my-portfolios');
    await screen.findByRole('combobox', { name: 'Select Portfolio' });
    expect([...portfolioSelect().options].map((o) => o.textContent)).toEqual([
      'Select a portfolio',
      'ecology notes',
      'Forces and Motion',
      'Zoo trip',
    ]);
    expect(portfolioSelect().value).toBe('');
    expect(screen.getByText('Choose a portfolio to see its artifacts.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create New Artifact' })).toBeNull();

    await ux.selectOptions(portfolioSelect(), 'Forces and Motion');
    expect(location.history).toEqual(['/my-portfolios', `/my-portfolios/${FORCES}`]);
    const summary = await screen.findByRole('region', { name: 'Forces and Motion' });
    const facts = Object.fromEntries(
      within(summary)
        .getAllByRole('term')
        .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
    );
    expect(facts).toEqual({
      'Grade Levels': 'Kindergarten, 5th Grade',
      'Date Created': '02/03/26',
      Subject: 'Science',
      'Total Artifacts': '4',
      'Portfolio Topic': 'Pushes and pulls',
      Template: 'Basic',
    });
    expect(within(summary).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      `/my-portfolios/${FORCES}/edit`,
    );
    expect(screen.getByRole('button', { name: 'Create New Artifact' })).toBeTruthy();
    expect(calls.getPortfolio).toEqual([FORCES]);
    expect(calls.listPortfolios).toEqual([{ owner: null }]);
  });

  it('shows parking-lot artifacts first, then the newest, with name, author, date and comments', async () => {
    setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    expect(
      within(artifactsGrid())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Artifact Name', 'Parking Lot', 'Author', 'Date', 'Number of Comments']);
    expect(rowNames()).toEqual(['Tug-of-war video', 'Balanced forces exit ticket', 'Ramp races', 'Magnet hunt']);
    expect(header('Parking Lot').getAttribute('aria-sort')).toBe('descending');
    expect(header('Date').getAttribute('aria-sort')).toBe('none');
    const cells = within(artifactRows()[0]!).getAllByRole('gridcell');
    expect(within(cells[1]!).getByRole('img', { name: 'In the parking lot' })).toBeTruthy();
    const ramp = within(artifactRows()[2]!)
      .getAllByRole('gridcell')
      .map((c) => c.textContent);
    expect(ramp).toEqual([
      'Ramp races',
      '',
      'Tess Teacher',
      new Date(Date.now() - 12 * 864e5).toLocaleDateString('en-US', {
        month: '2-digit',
        day: '2-digit',
        year: '2-digit',
      }),
      '3',
    ]);
  });

  it('sorts by any column, flipping the direction on a second click', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    await ux.click(within(header('Artifact Name')).getByRole('button'));
    expect(rowNames()).toEqual(['Balanced forces exit ticket', 'Magnet hunt', 'Ramp races', 'Tug-of-war video']);
    expect(header('Artifact Name').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Parking Lot').getAttribute('aria-sort')).toBe('none');
    await ux.click(within(header('Artifact Name')).getByRole('button'));
    expect(rowNames()).toEqual(['Tug-of-war video', 'Ramp races', 'Magnet hunt', 'Balanced forces exit ticket']);
    expect(header('Artifact Name').getAttribute('aria-sort')).toBe('descending');
    await ux.click(within(header('Number of Comments')).getByRole('button'));
    expect(rowNames().slice(0, 2)).toEqual(['Ramp races', 'Balanced forces exit ticket']);
    await ux.click(within(header('Author')).getByRole('button'));
    expect(rowNames()[0]).toBe('Magnet hunt');
    await ux.click(within(header('Date')).getByRole('button'));
    expect(rowNames()).toEqual(['Tug-of-war video', 'Balanced forces exit ticket', 'Ramp races', 'Magnet hunt']);
    expect(header('Date').getAttribute('aria-sort')).toBe('descending');
  });

  it('Filter By offers the choice questions, the standards panels and the recent filter; ticks combine AND across questions and OR within one', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const dialog = await openFilters(ux);
    // Collapsible sections, each saying how many of its choices are ticked; the long standards list starts closed.
    const sections = within(dialog)
      .getAllByRole('heading', { level: 3 })
      .map((h) => within(h).getByRole('button'));
    expect(sections.map((b) => [b.textContent, b.getAttribute('aria-expanded')])).toEqual([
      ['Recent', 'true'],
      ['When in the unit was this?', 'true'],
      ['What kind of evidence is this?', 'true'],
      ['Standards or Elements of Framework', 'false'],
    ]);
    expect(within(dialog).getByRole('status').textContent).toBe('No filters selected.');
    await ux.click(sections[3]!);
    const panels = within(dialog)
      .getAllByRole('heading', { level: 4 })
      .map((h) => within(h).getByRole('button'));
    expect(panels.map((b) => b.textContent)).toContain('Crosscutting Concepts');
    for (const panel of panels) await ux.click(panel);
    expect(within(dialog).getByRole('group', { name: 'Crosscutting Concepts' })).toBeTruthy();
    const standards = within(dialog).getByRole('group', {
      name: 'Core Idea PS2: Motion and Stability: Forces and Interactions',
    });
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(57 + 1 + 4 + 6);

    const evidence = within(dialog).getByRole('group', { name: 'What kind of evidence is this?' });
    await ux.click(within(evidence).getByRole('checkbox', { name: 'Student work' }));
    expect(rowNames()).toEqual(['Ramp races', 'Magnet hunt']);
    await ux.click(within(evidence).getByRole('checkbox', { name: 'Assessment' }));
    expect(rowNames()).toEqual(['Balanced forces exit ticket', 'Ramp races', 'Magnet hunt']);
    const timing = within(dialog).getByRole('group', { name: 'When in the unit was this?' });
    await ux.click(within(timing).getByRole('checkbox', { name: 'Middle of unit' }));
    expect(rowNames()).toEqual(['Balanced forces exit ticket', 'Magnet hunt']);
    await ux.click(within(standards).getByRole('checkbox', { name: 'PS2.A: Forces and Motion' }));
    expect(rowNames()).toEqual(['Balanced forces exit ticket']);
    expect(within(dialog).getByRole('status').textContent).toBe('4 filters selected.');
    expect(within(dialog).getByRole('button', { name: /^What kind of evidence is this\?/ }).textContent).toBe(
      'What kind of evidence is this?2 selected',
    );
    expect(within(dialog).getByText('1 artifact shown')).toBeTruthy();
    await ux.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    // The chosen filters stay visible as chips that can be removed one by one or all at once.
    const chips = screen.getByRole('list', { name: 'Filtered by:' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((c) => c.firstChild?.textContent),
    ).toEqual(['Student work', 'Assessment', 'Middle of unit', 'PS2.A: Forces and Motion']);
    expect(screen.getByText('1 of 4 artifacts shown')).toBeTruthy();
    await ux.click(screen.getByRole('button', { name: 'Remove filter PS2.A: Forces and Motion' }));
    expect(rowNames()).toEqual(['Balanced forces exit ticket', 'Magnet hunt']);
    await ux.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(rowNames()).toHaveLength(4);
    expect(screen.queryByRole('list', { name: 'Filtered by:' })).toBeNull();
  });

  it('the recent filter keeps artifacts added in the last 7 days', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const dialog = await openFilters(ux);
    await ux.click(within(dialog).getByRole('checkbox', { name: 'Added in the last 7 days' }));
    expect(rowNames()).toEqual(['Tug-of-war video', 'Balanced forces exit ticket']);
    await ux.click(within(dialog).getByRole('checkbox', { name: 'Added in the last 7 days' }));
    expect(rowNames()).toHaveLength(4);
  });

  it('keyword search looks in every answer, list items included, and in comment texts, ignoring case', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const search = screen.getByRole('searchbox', { name: 'Search artifacts' });
    await ux.type(search, 'photo OF an');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp races']));
    await ux.clear(search);
    await ux.type(search, 'steeper');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp races']));
    await ux.clear(search);
    await ux.type(search, 'MAGNETIC');
    await waitFor(() => expect(rowNames()).toEqual(['Magnet hunt']));
    await ux.clear(search);
    await ux.type(search, 'middle');
    await waitFor(() => expect(rowNames()).toEqual(['Balanced forces exit ticket', 'Magnet hunt']));
  });

  it('says “No artifacts found” when nothing matches, and for an empty portfolio', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    await ux.type(screen.getByRole('searchbox', { name: 'Search artifacts' }), 'volcano');
    await waitFor(() => expect(within(artifactsGrid()).getByText('No artifacts found')).toBeTruthy());
    expect(screen.getByText('0 of 4 artifacts shown')).toBeTruthy();
    await ux.selectOptions(portfolioSelect(), 'Zoo trip');
    await screen.findByRole('region', { name: 'Zoo trip' });
    expect(within(artifactsGrid()).getByText('No artifacts found')).toBeTruthy();
  });
});
