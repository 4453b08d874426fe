import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise, SimulatedClock } from 'xstate';
import { invitationMachine } from '../../machines/invitation/invitationMachine.ts';
import { InvitationActorContext } from '../../machines/invitation/useInvitation.ts';
import type { Invitation } from '../../schemas/invitation.ts';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeInvitation, makeSharedArtifact, makeSharedPortfolio, people } from '../../test/sharedFixtures.ts';
import { Toaster } from '../feedback/Toaster.tsx';
import { clearToasts, notify } from '../feedback/toastStore.ts';
import { InvitationPage } from './InvitationPage.tsx';

const artifacts = [
  makeSharedArtifact({
    id: 71,
    responses: { artifactName: 'Ramp race' },
    ownerUsername: 'Tess Teacher',
    created_at: '2026-03-02T10:00:00.000Z',
    commentCount: 2,
  }),
  makeSharedArtifact({
    id: 72,
    responses: { artifactName: 'Food web' },
    ownerUsername: 'Theo Teacher',
    created_at: '2026-03-09T10:00:00.000Z',
    commentCount: 0,
  }),
  makeSharedArtifact({
    id: 73,
    responses: {},
    ownerUsername: 'Lee Lead',
    created_at: '2026-03-05T10:00:00.000Z',
    commentCount: 5,
  }),
];

interface Options {
  invitationId?: number | null;
  fetchInvitation?: () => Promise<Invitation>;
  fetchSharedPortfolio?: () => Promise<SharedPortfolio>;
  accept?: () => Promise<SharedPortfolio>;
  remove?: () => Promise<Invitation>;
  redirectDelay?: number;
  clock?: SimulatedClock;
}

function renderInvitation({
  invitationId = 21,
  fetchInvitation = async () => makeInvitation(),
  fetchSharedPortfolio = async () => makeSharedPortfolio({ sharedArtifacts: artifacts }),
  accept = async () => makeSharedPortfolio(),
  remove = async () => makeInvitation(),
  redirectDelay = 0,
  clock,
}: Options = {}) {
  const calls = {
    fetchInvitation: [] as number[],
    fetchSharedPortfolio: [] as number[],
    accept: [] as number[],
    remove: [] as number[],
  };
  const navigateToDashboard = vi.fn<() => void>();
  const logic = invitationMachine.provide({
    actions: { notify: (_, { message, tone }) => notify(message, tone), navigateToDashboard },
    delays: { redirectDelay },
    actors: {
      fetchInvitation: fromPromise<Invitation, { id: number }>(({ input }) => {
        calls.fetchInvitation.push(input.id);
        return fetchInvitation();
      }),
      fetchSharedPortfolio: fromPromise<SharedPortfolio, { id: number }>(({ input }) => {
        calls.fetchSharedPortfolio.push(input.id);
        return fetchSharedPortfolio();
      }),
      acceptInvitation: fromPromise<SharedPortfolio, { id: number }>(({ input }) => {
        calls.accept.push(input.id);
        return accept();
      }),
      deleteInvitation: fromPromise<Invitation, { id: number }>(({ input }) => {
        calls.remove.push(input.id);
        return remove();
      }),
    },
  });
  render(
    <>
      <InvitationActorContext.Provider logic={logic} options={{ input: { invitationId }, ...(clock ? { clock } : {}) }}>
        <InvitationPage />
      </InvitationActorContext.Provider>
      <Toaster />
    </>,
  );
  return { calls, navigateToDashboard, ux: userEvent.setup({ delay: null }) };
}

const heading = () => screen.findByRole('heading', { level: 1, name: 'Invitation to Join Grades 5–7 Science PLC' });
const fact = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
const mmddyy = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${String(d.getFullYear() % 100).padStart(2, '0')}`;
};

afterEach(() => clearToasts());

describe('Invitation page', () => {
  it('shows who invited whom, the portfolio in brief and its artifacts, newest first', async () => {
    const h = renderInvitation();
    expect(screen.getByRole('status', { name: 'Loading invitation' })).toBeTruthy();
    await heading();
    expect(h.calls.fetchInvitation).toEqual([21]);
    expect(h.calls.fetchSharedPortfolio).toEqual([9]);
    expect(fact('Invite From')).toBe('Lee Lead (lead@example.org)');
    expect(fact('Email')).toBe('teacher@example.org');
    expect(fact('Currently Shared with')).toBe('Lee Lead, Tess Teacher');
    expect(fact('PLC Name')).toBe('Middle school science');
    expect(fact('Portfolio Topic')).toBe('Forces and motion');
    expect(fact('Grade Levels')).toBe('5th Grade, 6th Grade');
    expect(fact('Subject')).toBe('Science');
    expect(fact('Date Created')).toBe(mmddyy('2026-02-03T15:00:00.000Z'));

    const table = screen.getByRole('table', { name: 'Artifacts' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Artifact Name', 'Author', 'Date', 'Number of Comments']);
    const body = within(table).getAllByRole('row').slice(1);
    expect(
      body.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Food web', 'Theo Teacher', mmddyy('2026-03-09T10:00:00.000Z'), '0'],
      ['(Unnamed)', 'Lee Lead', mmddyy('2026-03-05T10:00:00.000Z'), '5'],
      ['Ramp race', 'Tess Teacher', mmddyy('2026-03-02T10:00:00.000Z'), '2'],
    ]);
    // Read-only: nothing in the table to click.
    expect(within(table).queryAllByRole('button')).toEqual([]);
    expect(within(table).queryAllByRole('link')).toEqual([]);
  });

  it('says "No artifacts found" for an empty portfolio and "Not specified" for missing details', async () => {
    renderInvitation({
      fetchInvitation: async () =>
        makeInvitation({
          from: null,
          sharedPortfolio: { ...makeInvitation().sharedPortfolio, plcName: null, topic: '', grades: [], subject: null },
        }),
      fetchSharedPortfolio: async () => makeSharedPortfolio(),
    });
    await heading();
    expect(screen.getByText('No artifacts found')).toBeTruthy();
    for (const label of ['Invite From', 'PLC Name', 'Portfolio Topic', 'Grade Levels', 'Subject'])
      expect(fact(label)).toBe('Not specified');
  });

  it('accepts, says so and goes to the dashboard', async () => {
    const h = renderInvitation();
    await heading();
    await h.ux.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByText('Successfully accepted invitation')).toBeTruthy();
    expect(h.calls.accept).toEqual([21]);
    await waitFor(() => expect(h.navigateToDashboard).toHaveBeenCalledTimes(1));
    expect((screen.getByRole('button', { name: 'Accept Invitation' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete Invitation' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('waits 1 second before going to the dashboard', async () => {
    const clock = new SimulatedClock();
    const h = renderInvitation({ redirectDelay: 1000, clock });
    await heading();
    await h.ux.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    await screen.findByText('Successfully accepted invitation');
    act(() => clock.increment(999));
    expect(h.navigateToDashboard).not.toHaveBeenCalled();
    act(() => clock.increment(1));
    expect(h.navigateToDashboard).toHaveBeenCalledTimes(1);
  });

  it('asks before deleting; NO keeps the invitation, YES deletes it and goes to the dashboard', async () => {
    const h = renderInvitation();
    await heading();
    await h.ux.click(screen.getByRole('button', { name: 'Delete Invitation' }));
    const question = screen.getByRole('alertdialog', { name: 'Delete Invitation' });
    expect(within(question).getByText('Are you sure you want to delete this invitation?')).toBeTruthy();
    await h.ux.click(within(question).getByRole('button', { name: 'NO' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(h.calls.remove).toEqual([]);

    await h.ux.click(screen.getByRole('button', { name: 'Delete Invitation' }));
    await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES' }));
    expect(await screen.findByText('Successfully deleted invitation')).toBeTruthy();
    expect(h.calls.remove).toEqual([21]);
    expect(h.calls.accept).toEqual([]);
    await waitFor(() => expect(h.navigateToDashboard).toHaveBeenCalledTimes(1));
  });

  it('alerts a failed answer and lets the user answer again', async () => {
    const h = renderInvitation({
      accept: async () => Promise.reject(new ApiError(404, 'not_found', 'Invitation not found.', '')),
    });
    await heading();
    await h.ux.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(within(await screen.findByRole('alert')).getByText('Invitation not found.')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Accept Invitation' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(h.navigateToDashboard).not.toHaveBeenCalled();
  });

  it('says "Invitation not found." for a missing invitation or an address without an id', async () => {
    renderInvitation({
      fetchInvitation: async () => Promise.reject(new ApiError(404, 'not_found', 'Invitation not found.', '')),
    });
    expect(await screen.findByText('Invitation not found.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('does not ask the server about an address without an id', async () => {
    const h = renderInvitation({ invitationId: null });
    expect(await screen.findByText('Invitation not found.')).toBeTruthy();
    expect(h.calls.fetchInvitation).toEqual([]);
  });

  it('offers to try again when loading fails', async () => {
    let fail = true;
    const h = renderInvitation({
      fetchSharedPortfolio: async () =>
        fail ? Promise.reject(new NetworkError()) : makeSharedPortfolio({ members: [people.lee] }),
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(new NetworkError().message)).toBeTruthy();
    fail = false;
    await h.ux.click(within(alert).getByRole('button', { name: 'Try again' }));
    await heading();
    expect(h.calls.fetchInvitation).toEqual([21, 21]);
  });
});
