import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { Portfolio, PortfolioListItem } from '../../schemas/portfolio.ts';
import type { User } from '../../schemas/user.ts';
import { NetworkError } from '../../services/errors.ts';
import {
  answeringBrowserActors,
  artifactsGrid,
  daysAgo,
  listItemOf,
  makeAccount,
  makeArtifact,
  makePortfolio,
  renderTeacherPortfolios,
  rowNames,
} from '../../test/portfolioHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';

const tess = makeAccount(7, 'Tess Teacher');
const lee = makeAccount(8, 'Lee Lead', 'plcLead');
const ana = makeAccount(9, 'Ana Maria Zapata');
const solo = makeAccount(10, 'madonna');
const abe = makeAccount(11, 'abe adams');

function tessPortfolios(): Portfolio[] {
  const forces = makePortfolio({
    id: 12,
    name: 'Forces and Motion',
    owner: { id: 7, username: 'Tess Teacher', email: 'tess@example.org' },
    artifacts: [
      makeArtifact({
        id: 40,
        portfolio: { id: 12 },
        parkingLot: true,
        created_at: daysAgo(1),
        responses: { artifactName: 'Tug-of-war video' },
      }),
      makeArtifact({
        id: 41,
        portfolio: { id: 12 },
        parkingLot: false,
        created_at: daysAgo(3),
        responses: { artifactName: 'Balanced forces' },
      }),
      makeArtifact({
        id: 42,
        portfolio: { id: 12 },
        parkingLot: false,
        created_at: daysAgo(9),
        responses: { artifactName: 'Ramp races' },
      }),
    ],
  });
  return [
    forces,
    makePortfolio({ id: 13, name: 'Astronomy', owner: { id: 7, username: 'Tess Teacher', email: 'tess@example.org' } }),
  ];
}

function setup(path = '/teacher-portfolios', users: User[] = [tess, lee, ana, solo, abe]) {
  const browser = answeringBrowserActors(tessPortfolios());
  const listCalls: unknown[] = [];
  const actors = {
    ...browser,
    listPortfolios: fromPromise<PortfolioListItem[], { owner: number | null }>(async ({ input }) => {
      listCalls.push(input);
      return input.owner === 7 ? tessPortfolios().map(listItemOf) : [];
    }),
    listTeachers: fromPromise<User[]>(async () => users),
  };
  return { ...renderTeacherPortfolios({ path, actors }), listCalls, calls: browser.calls };
}

const teacherSelect = () => screen.getByRole('combobox', { name: 'Select Teacher' }) as HTMLSelectElement;
const portfolioSelect = () => screen.getByRole('combobox', { name: 'Select Portfolio' }) as HTMLSelectElement;

afterEach(clearToasts);

describe('Teacher Portfolios', () => {
  it('offers the summary CSV as a download named “teacher portfolios.csv”', () => {
    setup();
    const link = screen.getByRole('link', { name: 'Export portfolios summary' });
    expect(link.getAttribute('href')).toBe('http://portal.test/api/v1/portfolios/export');
    expect(link.getAttribute('download')).toBe('teacher portfolios.csv');
  });

  it('lists teachers and leads as “Last, First”, sorted by that label, after the placeholder', async () => {
    setup();
    await waitFor(() => expect(teacherSelect().disabled).toBe(false));
    expect([...teacherSelect().options].map((o) => o.textContent)).toEqual([
      'Select a teacher',
      'adams, abe',
      'Lead, Lee',
      'madonna',
      'Teacher, Tess',
      'Zapata, Ana Maria',
    ]);
    expect(screen.getByText('Choose a teacher, then one of their portfolios.')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Select Portfolio' })).toBeNull();
  });

  it('choosing a teacher and a portfolio keeps both in the address; the artifacts are read-only', async () => {
    const { location, ux, listCalls } = setup();
    await waitFor(() => expect(teacherSelect().disabled).toBe(false));
    await ux.selectOptions(teacherSelect(), 'Teacher, Tess');
    expect(location.history.at(-1)).toBe('/teacher-portfolios?teacher=7');
    await screen.findByRole('combobox', { name: 'Select Portfolio' });
    expect([...portfolioSelect().options].map((o) => o.textContent)).toEqual([
      'Select a portfolio',
      'Astronomy',
      'Forces and Motion',
    ]);
    expect(listCalls).toEqual([{ owner: 7 }]);

    await ux.selectOptions(portfolioSelect(), 'Forces and Motion');
    expect(location.history.at(-1)).toBe('/teacher-portfolios?teacher=7&portfolio=12');
    const summary = await screen.findByRole('region', { name: 'Forces and Motion' });
    expect(within(summary).queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(within(summary).getByText('Template').nextElementSibling?.textContent).toBe('Basic');
    expect(screen.queryByRole('button', { name: 'Create New Artifact' })).toBeNull();
    // Researchers see the newest first (no parking-lot grouping).
    expect(rowNames()).toEqual(['Tug-of-war video', 'Balanced forces', 'Ramp races']);
    expect(within(artifactsGrid()).getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort')).toBe(
      'descending',
    );

    await ux.click(screen.getByRole('row', { name: /Ramp races/ }));
    expect(location.history.at(-1)).toBe('/teacher-portfolios?teacher=7&portfolio=12&artifact=42');
    const pane = screen.getByRole('region', { name: 'Artifact details' });
    expect(within(pane).getByRole('heading', { name: 'Ramp races' })).toBeTruthy();
    expect(within(pane).queryByRole('link', { name: 'EDIT' })).toBeNull();
    expect(within(pane).queryByRole('link', { name: 'COPY TO' })).toBeNull();
    expect(within(pane).queryByRole('button', { name: 'Delete Artifact' })).toBeNull();
    // Selecting an artifact replaced the entry: Back goes to the teacher, not the portfolio.
    expect(location.history).toEqual([
      '/teacher-portfolios',
      '/teacher-portfolios?teacher=7',
      '/teacher-portfolios?teacher=7&portfolio=12&artifact=42',
    ]);
  });

  it('opens on the teacher, portfolio and artifact of the address (a reload), and follows Back', async () => {
    const { location } = setup('/teacher-portfolios?teacher=7&portfolio=12&artifact=41');
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    expect(within(pane).getByRole('heading', { name: 'Balanced forces' })).toBeTruthy();
    await waitFor(() => expect(teacherSelect().value).toBe('7'));
    expect(portfolioSelect().value).toBe('12');
    act(() => location.navigate('/teacher-portfolios?teacher=7'));
    expect(await screen.findByText('Choose a portfolio to see its artifacts.')).toBeTruthy();
    act(() => location.navigate('/teacher-portfolios'));
    expect(await screen.findByText('Choose a teacher, then one of their portfolios.')).toBeTruthy();
  });

  it('has filters, search and compare like My Portfolios', async () => {
    const { ux } = setup('/teacher-portfolios?teacher=7&portfolio=12');
    await screen.findByRole('grid', { name: 'Artifacts' });
    await ux.type(screen.getByRole('searchbox', { name: 'Search artifacts' }), 'ramp');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp races']));
    await ux.clear(screen.getByRole('searchbox', { name: 'Search artifacts' }));
    await ux.click(screen.getByRole('button', { name: 'Filter By' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Added in the last 7 days' }));
    await ux.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(rowNames()).toEqual(['Tug-of-war video', 'Balanced forces']));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Tug-of-war video' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Balanced forces' }));
    const compare = screen.getByRole('region', { name: 'Compare Artifacts' });
    // The two artifacts' titles, then their differences once both are read whole.
    await waitFor(() =>
      expect(
        within(compare)
          .getAllByRole('heading', { level: 3 })
          .map((h) => h.textContent),
      ).toEqual(['Tug-of-war video', 'Balanced forces', 'Differences from “Tug-of-war video” to “Balanced forces”']),
    );
  });

  it('says so when the teachers cannot be loaded, and tries again', async () => {
    let attempts = 0;
    const actors = {
      ...answeringBrowserActors([]),
      listTeachers: fromPromise<User[]>(async () => {
        attempts += 1;
        if (attempts === 1) throw new NetworkError();
        return [tess];
      }),
    };
    const { ux } = renderTeacherPortfolios({ actors });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'The teachers could not be loaded' })).toBeTruthy();
    await ux.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect([...teacherSelect().options].map((o) => o.textContent)).toEqual(['Select a teacher', 'Teacher, Tess']),
    );
  });
});
