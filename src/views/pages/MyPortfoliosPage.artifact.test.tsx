import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import {
  answeringBrowserActors,
  artifactRows,
  makeArtifact,
  makePortfolio,
  renderMyPortfolios,
  rowNames,
} from '../../test/portfolioHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { FORCES, forcesPortfolio, setup, portfolioSelect } from '../../test/myPortfoliosPageKit.tsx';

afterEach(clearToasts);

describe('My Portfolios', () => {
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
    // The compared artifacts' titles (the differences of two have a heading of their own).
    const titles = () =>
      within(compare)
        .queryAllByRole('heading', { level: 3 })
        .map((h) => h.textContent)
        .filter((title) => !title?.startsWith('Differences from'));
    const differences = () =>
      within(compare)
        .queryAllByRole('heading', { level: 3 })
        .map((h) => h.textContent)
        .filter((title) => title?.startsWith('Differences from'));

    await ux.click(screen.getByRole('checkbox', { name: 'Compare Ramp races' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Magnet hunt' }));
    expect(titles()).toEqual(['Ramp races', 'Magnet hunt']);
    await waitFor(() => expect(differences()).toEqual(['Differences from “Ramp races” to “Magnet hunt”']));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Tug-of-war video' }));
    expect(titles()).toEqual(['Ramp races', 'Tug-of-war video']);
    expect((screen.getByRole('checkbox', { name: 'Compare Magnet hunt' }) as HTMLInputElement).checked).toBe(false);
    // Read-only details: no actions in the comparison.
    expect(within(compare).queryByRole('link', { name: 'EDIT' })).toBeNull();
    // Un-ticking removes one; a row (keyboard too) picks as well.
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Ramp races' }));
    expect(titles()).toEqual(['Tug-of-war video']);
    expect(differences()).toEqual([]);
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
