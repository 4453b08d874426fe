import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../services/session.ts';
import { artifactsGrid, rowNames } from '../../test/portfolioHarness.tsx';
import {
  accounts,
  detailPane,
  FakeSharedApi,
  renderSharedPortfolios,
  TEAM_QUESTION,
} from '../../test/sharedHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import {
  PLC,
  plc,
  discussions,
  setup,
  portfolioSelect,
  facts,
  reactionsOf,
  commentsOf,
  openArtifact,
} from '../../test/sharedPortfoliosPageKit.tsx';

afterEach(() => {
  clearToasts();
  signOut();
});

describe('Shared Portfolios: the artifact', () => {
  it('choosing an artifact rewrites the address in place and shows it with Grade Levels, the team questions, EDIT and COPY TO', async () => {
    const { location, ux } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    expect(location.history).toEqual([`/shared-portfolios/${PLC}/artifacts/70`]);
    expect(within(pane).getByRole('heading', { name: 'Ramp race' })).toBeTruthy();
    expect(facts(pane)['Grade Levels']).toBe('6th Grade');
    const team = within(pane).getByRole('region', { name: 'Team questions for shared portfolio' });
    expect(within(team).getByText(TEAM_QUESTION.text)).toBeTruthy();
    expect(within(team).getByText('Another school')).toBeTruthy();
    expect(within(pane).getByRole('link', { name: 'EDIT' }).getAttribute('href')).toBe(
      `/shared-portfolios/${PLC}/artifacts/70/edit`,
    );
    expect(within(pane).getByRole('link', { name: 'COPY TO' }).getAttribute('href')).toBe(
      `/shared-portfolios/${PLC}/artifacts/70/copy`,
    );
    // With comments and reactions it cannot be deleted.
    expect(within(pane).queryByRole('button', { name: 'Delete Artifact' })).toBeNull();
    await ux.click(within(pane).getByRole('link', { name: 'COPY TO' }));
    expect(screen.getByRole('heading', { name: 'Copy Artifact' })).toBeTruthy();
  });

  it('opens on the artifact of the address with its comments and reactions', async () => {
    setup({ path: `/shared-portfolios/${PLC}/artifacts/70` });
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    const comments = await waitFor(() => commentsOf(pane).getAllByRole('article'));
    expect(
      comments.map((c) => [
        within(c).getByRole('time').textContent,
        within(c).getByText(/\S/, { selector: 'strong' }).textContent,
      ]),
    ).toEqual([
      ['03/03/26', 'Theo Teacher'],
      ['03/04/26', 'Tess Teacher'],
    ]);
    // When it was posted, and 'edited' (with when, in the title) once it was changed.
    expect(comments.map((c) => c.querySelector('[data-edited]')?.textContent ?? null)).toEqual([null, 'edited']);
    expect(comments[1]!.querySelector('[data-edited]')!.getAttribute('title')).toMatch(
      /^Edited March 4, 2026 \d{1,2}:30[ap]m$/,
    );
    expect(commentsOf(pane).getByText('Did anyone test two cars at once?')).toBeTruthy();
    expect(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 2' }).getAttribute('aria-pressed')).toBe('true');
    expect(
      reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 1' }).getAttribute('aria-pressed'),
    ).toBe('false');
    // The meaning reads in words on the chip (no tooltip, no colour-emoji font needed).
    expect(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 2' }).textContent).toBe('⭐Exemplar 2');
  });

  it('says so for an artifact of the address that is not in the portfolio, and for a shared portfolio that is not there', async () => {
    setup({ path: `/shared-portfolios/${PLC}/artifacts/999` });
    expect(
      await within(await screen.findByRole('region', { name: 'Artifact details' })).findByText(
        'This artifact is not in the portfolio.',
      ),
    ).toBeTruthy();
    clearToasts();
  });

  it('says “Shared portfolio not found.” for a shared portfolio the viewer cannot see', async () => {
    setup({ path: '/shared-portfolios/404' });
    expect((await screen.findByRole('alert')).textContent).toBe('Shared portfolio not found.');
    expect(portfolioSelect().value).toBe('');
  });

  it('says so when the viewer belongs to no shared portfolio, with the create link for leads', async () => {
    setup({ path: '/shared-portfolios', user: accounts.lee, portfolios: [] });
    expect(await screen.findByText(/You are not a member of any shared portfolio yet\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create a shared portfolio.' }).getAttribute('href')).toBe(
      '/shared-portfolios/new',
    );
    signOut();
  });

  it('a teacher in no shared portfolio gets no create link', async () => {
    setup({ path: '/shared-portfolios', user: accounts.tess, portfolios: [] });
    expect(await screen.findByText(/You are not a member of any shared portfolio yet\./)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Create/ })).toBeNull();
  });

  it('says “No artifacts found” for a shared portfolio without artifacts', async () => {
    setup({ path: '/shared-portfolios/12' });
    await screen.findByRole('region', { name: 'Engineering Design Circle' });
    expect(within(artifactsGrid()).getByText('No artifacts found')).toBeTruthy();
  });

  it('an invitee who opens the portfolio reads it: no actions, no reacting, no comment box', async () => {
    setup({ path: `/shared-portfolios/${PLC}/artifacts/70`, user: accounts.pat });
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    await waitFor(() => expect(commentsOf(pane).getAllByRole('article')).toHaveLength(2));
    expect(within(pane).queryByRole('link', { name: 'EDIT' })).toBeNull();
    expect(within(pane).queryByRole('link', { name: 'COPY TO' })).toBeNull();
    expect(reactionsOf(pane).queryByRole('button')).toBeNull();
    expect(reactionsOf(pane).getByRole('img', { name: 'Exemplar, 2' })).toBeTruthy();
    expect(commentsOf(pane).queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Leave' })).toBeNull();
  });

  it('compare mode shows two shared artifacts side by side with their grade levels', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    await ux.click(screen.getByRole('checkbox', { name: 'Compare' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Ramp race' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Food web' }));
    const compare = screen.getByRole('region', { name: 'Compare Artifacts' });
    const headings = () =>
      within(compare)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent);
    // The two artifacts' titles, then their differences.
    await waitFor(() =>
      expect(headings()).toEqual(['Ramp race', 'Food web', 'Differences from “Ramp race” to “Food web”']),
    );
    expect(within(compare).getAllByText('Grade Levels')).toHaveLength(2);
  });
});

describe('Shared Portfolios: deleting an artifact', () => {
  it('offers Delete Artifact only without comments and reactions; YES deletes, says so, and shows the portfolio 2 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = new FakeSharedApi([plc()], discussions(), accounts.tess);
    const { where } = renderSharedPortfolios({
      path: `/shared-portfolios/${PLC}/artifacts/72`,
      user: accounts.tess,
      api,
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    const remove = await within(pane).findByRole('button', { name: 'Delete Artifact' });
    await user.click(remove);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Artifact' });
    expect(dialog.textContent).toContain('Do you want to delete Magnet hunt?');
    await user.click(within(dialog).getByRole('button', { name: 'YES' }));
    expect(await screen.findByText('Successfully deleted shared artifact')).toBeTruthy();
    expect(within(pane).getByRole('status').textContent).toBe(
      'This artifact was deleted. Returning to the shared portfolio…',
    );
    expect(api.calls).toContain('deleteSharedArtifact 72');
    await act(async () => vi.advanceTimersByTime(1500));
    expect(where()).toBe(`/shared-portfolios/${PLC}/artifacts/72`);
    await waitFor(() => expect(rowNames()).toEqual(['Food web', 'Ramp race']));
    await act(async () => vi.advanceTimersByTime(500));
    await waitFor(() => expect(where()).toBe(`/shared-portfolios/${PLC}`));
    expect(within(detailPane()).getByText('Select an artifact in the table to see it here.')).toBeTruthy();
  });

  it('hides Delete Artifact once a comment or reaction exists', async () => {
    const { ux } = setup({ path: `/shared-portfolios/${PLC}/artifacts/72` });
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    await within(pane).findByRole('button', { name: 'Delete Artifact' });
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Add reaction' }));
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Exemplar' }));
    await waitFor(() => expect(within(pane).queryByRole('button', { name: 'Delete Artifact' })).toBeNull());
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 1' }));
    expect(await within(pane).findByRole('button', { name: 'Delete Artifact' })).toBeTruthy();
  });
});
