import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { Portfolio } from '../../schemas/portfolio.ts';
import {
  answeringBrowserActors,
  artifactRows,
  artifactsGrid,
  daysAgo,
  makeArtifact,
  makePortfolio,
  renderMyPortfolios,
  rowNames,
} from '../../test/portfolioHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';

const FORCES = 41;

function forcesPortfolio(): Portfolio {
  const base = { portfolio: { id: FORCES } };
  const artifacts: Artifact[] = [
    makeArtifact({
      ...base,
      id: 1,
      parkingLot: false,
      created_at: daysAgo(12),
      commentCount: 3,
      commentTexts: ['Try a STEEPER ramp next time'],
      responses: {
        artifactName: 'Ramp races',
        unitTiming: 'Beginning of unit',
        artifactCategory: ['Student work', 'Photo of an activity'],
        standardFrameworkTags: ['Cause and Effect', 'PS2.A: Forces and Motion'],
        learningGoal: 'Predict how ramp height changes distance.',
      },
    }),
    makeArtifact({
      ...base,
      id: 2,
      parkingLot: false,
      created_at: daysAgo(5),
      commentCount: 1,
      responses: {
        artifactName: 'Balanced forces exit ticket',
        unitTiming: 'Middle of unit',
        artifactCategory: ['Assessment'],
        standardFrameworkTags: ['PS2.A: Forces and Motion'],
        unitDay: 6,
      },
    }),
    makeArtifact({
      ...base,
      id: 3,
      parkingLot: true,
      created_at: daysAgo(2),
      responses: { artifactName: 'Tug-of-war video', unitTiming: 'End of unit' },
    }),
    makeArtifact({
      ...base,
      id: 4,
      parkingLot: false,
      created_at: daysAgo(30),
      ownerUsername: 'Abe Author',
      responses: {
        artifactName: 'Magnet hunt',
        unitTiming: 'Middle of unit',
        artifactCategory: ['Student work'],
        learningGoal: 'Sort objects by magnetic attraction.',
      },
    }),
  ];
  return makePortfolio({
    id: FORCES,
    name: 'Forces and Motion',
    grades: ['5th', 'K'],
    subject: 'Science',
    topic: 'Pushes and pulls',
    artifacts,
  });
}

const ecology = () => makePortfolio({ id: 42, name: 'ecology notes', artifacts: [] });
const zoo = () => makePortfolio({ id: 43, name: 'Zoo trip', artifacts: [] });

function setup(path = `/my-portfolios/${FORCES}`, portfolios: Portfolio[] = [forcesPortfolio(), zoo(), ecology()]) {
  const actors = answeringBrowserActors(portfolios);
  return { ...renderMyPortfolios({ path, actors }), calls: actors.calls };
}

const portfolioSelect = () => screen.getByRole('combobox', { name: 'Select Portfolio' }) as HTMLSelectElement;
const header = (name: string) => within(artifactsGrid()).getByRole('columnheader', { name });

async function openFilters(ux: ReturnType<typeof setup>['ux']) {
  await ux.click(screen.getByRole('button', { name: 'Filter By' }));
  return screen.getByRole('dialog', { name: 'Filter By' });
}

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

  it('choosing an artifact shows it in the detail pane and rewrites the address in place', async () => {
    const { location, ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    expect(screen.getByText('Select an artifact in the table to see it here.')).toBeTruthy();
    await ux.click(screen.getByRole('row', { name: /Ramp races/ }));
    const pane = screen.getByRole('region', { name: 'Artifact details' });
    expect(within(pane).getByRole('heading', { name: 'Ramp races' })).toBeTruthy();
    expect(within(pane).getByRole('link', { name: 'EDIT' }).getAttribute('href')).toBe(
      `/my-portfolios/${FORCES}/artifacts/1/edit`,
    );
    expect(location.history).toEqual([`/my-portfolios/${FORCES}/artifacts/1`]);
    expect(screen.getByRole('row', { name: /Ramp races/ }).getAttribute('aria-selected')).toBe('true');
    // Keyboard: arrows move between rows, Enter shows the focused one.
    await ux.keyboard('{ArrowDown}{Enter}');
    expect(within(pane).getByRole('heading', { name: 'Magnet hunt' })).toBeTruthy();
    expect(location.history).toEqual([`/my-portfolios/${FORCES}/artifacts/4`]);
    await ux.keyboard('{Home} ');
    expect(within(pane).getByRole('heading', { name: 'Tug-of-war video' })).toBeTruthy();
    expect(within(pane).getByRole('link', { name: 'Complete Artifact' })).toBeTruthy();
  });

  it('opens on the artifact of the address, and follows Back to another portfolio', async () => {
    const { location } = setup(`/my-portfolios/${FORCES}/artifacts/2`);
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    expect(within(pane).getByRole('heading', { name: 'Balanced forces exit ticket' })).toBeTruthy();
    act(() => location.navigate('/my-portfolios/43'));
    expect(await screen.findByRole('region', { name: 'Zoo trip' })).toBeTruthy();
    expect(portfolioSelect().value).toBe('43');
    act(() => location.navigate('/my-portfolios'));
    expect(await screen.findByText('Choose a portfolio to see its artifacts.')).toBeTruthy();
  });

  it('compare mode: a checkbox per row, two artifacts side by side, a third replaces the second, switching off clears', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    expect(screen.queryByRole('checkbox', { name: /^Compare / })).toBeNull();
    await ux.click(screen.getByRole('checkbox', { name: 'Compare' }));
    const compare = screen.getByRole('region', { name: 'Compare Artifacts' });
    expect(screen.getAllByRole('checkbox', { name: /^Compare / })).toHaveLength(4);
    const titles = () =>
      within(compare)
        .queryAllByRole('heading', { level: 3 })
        .map((h) => h.textContent);

    await ux.click(screen.getByRole('checkbox', { name: 'Compare Ramp races' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Magnet hunt' }));
    expect(titles()).toEqual(['Ramp races', 'Magnet hunt']);
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Tug-of-war video' }));
    expect(titles()).toEqual(['Ramp races', 'Tug-of-war video']);
    expect((screen.getByRole('checkbox', { name: 'Compare Magnet hunt' }) as HTMLInputElement).checked).toBe(false);
    // Read-only details: no actions in the comparison.
    expect(within(compare).queryByRole('link', { name: 'EDIT' })).toBeNull();
    // Un-ticking removes one; a row (keyboard too) picks as well.
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Ramp races' }));
    expect(titles()).toEqual(['Tug-of-war video']);
    await ux.click(screen.getByRole('row', { name: /Balanced forces/ }));
    expect(titles()).toEqual(['Tug-of-war video', 'Balanced forces exit ticket']);
    await ux.click(within(compare).getByRole('button', { name: 'Remove from comparison: Tug-of-war video' }));
    expect(titles()).toEqual(['Balanced forces exit ticket']);

    await ux.click(screen.getByRole('checkbox', { name: 'Compare' }));
    expect(screen.queryByRole('region', { name: 'Compare Artifacts' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: /^Compare / })).toBeNull();
    await ux.click(screen.getByRole('checkbox', { name: 'Compare' }));
    expect(
      within(screen.getByRole('region', { name: 'Compare Artifacts' })).queryAllByRole('heading', { level: 3 }),
    ).toEqual([]);
  });

  it('renders only a window of rows for 10,000 artifacts, and scrolling moves the window', async () => {
    const artifacts = Array.from({ length: 10_000 }, (_, i) =>
      makeArtifact({
        id: i + 1,
        portfolio: { id: 50 },
        parkingLot: false,
        created_at: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString(),
        responses: { artifactName: `Artifact ${String(i + 1).padStart(5, '0')}` },
      }),
    );
    const big = makePortfolio({ id: 50, name: 'Big', artifacts });
    const { ux } = setup('/my-portfolios/50', [big]);
    const grid = await screen.findByRole('grid', { name: 'Artifacts' });
    expect(grid.getAttribute('aria-rowcount')).toBe('10001');
    expect(artifactRows().length).toBeLessThanOrEqual(30);
    expect(rowNames()[0]).toBe('Artifact 00001');
    expect(screen.getByText('10000 artifacts')).toBeTruthy();

    Object.defineProperty(grid, 'scrollTop', { configurable: true, value: 48 * 5000 });
    fireEvent.scroll(grid);
    expect(artifactRows().length).toBeLessThanOrEqual(30);
    expect(rowNames()).toContain('Artifact 05001');
    expect(rowNames()).not.toContain('Artifact 00001');
    const first = artifactRows()[0]!;
    expect(Number(first.getAttribute('aria-rowindex'))).toBeGreaterThan(4900);

    // Search stays exact over the whole list.
    await ux.type(screen.getByRole('searchbox', { name: 'Search artifacts' }), '09999');
    await waitFor(() => expect(rowNames()).toEqual(['Artifact 09999']));
  });

  it('Create New Artifact makes a parking-lot artifact and opens its edit page', async () => {
    const { location, ux, calls } = setup();
    await ux.click(await screen.findByRole('button', { name: 'Create New Artifact' }));
    await waitFor(() => expect(location.history.at(-1)).toBe(`/my-portfolios/${FORCES}/artifacts/777/edit`));
    expect(calls.createArtifact).toEqual([FORCES]);
  });

  it('a failed creation is alerted and the page stays', async () => {
    const actors = answeringBrowserActors([forcesPortfolio()]);
    const { ux, location } = renderMyPortfolios({
      path: `/my-portfolios/${FORCES}`,
      actors: {
        ...actors,
        createArtifact: fromPromise(async () => {
          throw new Error('boom');
        }),
      },
    });
    await ux.click(await screen.findByRole('button', { name: 'Create New Artifact' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong. Please try again.');
    expect(location.history).toEqual([`/my-portfolios/${FORCES}`]);
    expect((screen.getByRole('button', { name: 'Create New Artifact' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says “Portfolio not found.” for a portfolio that is not there', async () => {
    setup('/my-portfolios/999');
    expect((await screen.findByRole('alert')).textContent).toBe('Portfolio not found.');
    expect(portfolioSelect().value).toBe('');
  });

  it('deleting the shown artifact takes it out of the table', async () => {
    const { ux } = setup(`/my-portfolios/${FORCES}/artifacts/1`);
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    await ux.click(within(pane).getByRole('button', { name: 'Delete Artifact' }));
    await ux.click(
      within(screen.getByRole('alertdialog', { name: 'Delete Artifact' })).getByRole('button', { name: 'YES' }),
    );
    await waitFor(() => expect(rowNames()).toEqual(['Tug-of-war video', 'Balanced forces exit ticket', 'Magnet hunt']));
    expect(screen.getByText('Select an artifact in the table to see it here.')).toBeTruthy();
  });
});
