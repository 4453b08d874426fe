import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { Invitee } from '../../../machines/participants/participantsMachine.ts';
import type { Invitation } from '../../../schemas/invitation.ts';
import type { MembersResponse, Person, SharedPortfolio } from '../../../schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../../services/errors.ts';
import { renderParticipantsDialog } from '../../../test/participantsHarness.tsx';
import { makeInvitation, makeMembers, makeSharedPortfolio, people } from '../../../test/sharedFixtures.ts';
import { clearToasts } from '../../feedback/toastStore.ts';

const extra = (n: number): Person => ({ id: 100 + n, username: `Extra ${n}`, email: `extra${n}@example.org` });

interface Options {
  members?: () => Promise<MembersResponse>;
  search?: (text: string) => Promise<MembersResponse>;
  invite?: (invitee: Invitee) => Promise<Invitation>;
  cancel?: (invitationId: number) => Promise<Invitation>;
  remove?: (userId: number) => Promise<SharedPortfolio>;
}

function renderParticipants({
  members = async () => makeMembers(),
  search = async () => makeMembers({ nonMembers: [people.theo] }),
  invite = async (invitee) =>
    makeInvitation({
      id: 77,
      to: 'to' in invitee ? people.theo : { id: 300, username: invitee.email.split('@')[0]!, email: invitee.email },
    }),
  cancel = async () => makeInvitation({ id: 51, to: people.pat }),
  remove = async () => makeSharedPortfolio({ members: [people.lee] }),
}: Options = {}) {
  const calls = {
    members: 0,
    search: [] as string[],
    invite: [] as Invitee[],
    cancel: [] as number[],
    remove: [] as number[],
  };
  const rendered = renderParticipantsDialog({
    fetchMembers: fromPromise<MembersResponse, { sharedPortfolioId: number }>(({ input }) => {
      expect(input.sharedPortfolioId).toBe(9);
      calls.members += 1;
      return members();
    }),
    searchPeople: fromPromise<MembersResponse, { sharedPortfolioId: number; search: string }>(({ input }) => {
      calls.search.push(input.search);
      return search(input.search);
    }),
    invitePerson: fromPromise<Invitation, { sharedPortfolioId: number; invitee: Invitee }>(({ input }) => {
      calls.invite.push(input.invitee);
      return invite(input.invitee);
    }),
    cancelInvitation: fromPromise<Invitation, { invitationId: number }>(({ input }) => {
      calls.cancel.push(input.invitationId);
      return cancel(input.invitationId);
    }),
    removeMember: fromPromise<SharedPortfolio, { sharedPortfolioId: number; userId: number }>(({ input }) => {
      calls.remove.push(input.userId);
      return remove(input.userId);
    }),
  });
  return { calls, ...rendered };
}

const dialog = () => screen.getByRole('dialog', { name: 'Edit Participants' });
const searchBox = () => within(dialog()).getByLabelText('Email') as HTMLInputElement;
const participantList = () => within(dialog()).getByRole('list', { name: 'Portfolio Participants' });
const rows = () =>
  within(participantList())
    .getAllByRole('listitem')
    .map((li) => li.querySelector('span')!.textContent);
const message = () => document.getElementById(searchBox().getAttribute('aria-describedby')!)!.textContent;

async function open(h: ReturnType<typeof renderParticipants>) {
  await h.ux.click(screen.getByRole('button', { name: 'Edit Participants' }));
  await within(dialog()).findByRole('heading', { name: 'Portfolio Participants' });
}

afterEach(() => clearToasts());

describe('Edit Participants', () => {
  it('shows who the portfolio is shared with before the dialog opens', () => {
    const h = renderParticipants();
    expect(
      within(screen.getByRole('group', { name: 'Currently Shared with' })).getByText('Lee Lead, Tess Teacher'),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(h.calls.members).toBe(0);
  });

  it('lists members and pending invitees (marked), without the owner, in two columns', async () => {
    let answer!: (response: MembersResponse) => void;
    const h = renderParticipants({ members: () => new Promise((resolve) => (answer = resolve)) });
    await h.ux.click(screen.getByRole('button', { name: 'Edit Participants' }));
    expect(within(dialog()).getByRole('status', { name: 'Loading participants' })).toBeTruthy();
    await act(async () => answer(makeMembers()));
    await within(dialog()).findByRole('heading', { name: 'Add Participants to Portfolio' });
    expect(within(dialog()).getByRole('heading', { name: 'Portfolio Participants' })).toBeTruthy();
    expect(rows()).toEqual(['Tess Teacher', 'Pat Pending (Pending)']);
    expect(within(participantList()).queryByText('Lee Lead')).toBeNull();
    expect(within(participantList()).getByRole('button', { name: 'Remove Tess Teacher' })).toBeTruthy();
    expect(within(participantList()).getByRole('button', { name: 'Remove Pat Pending' })).toBeTruthy();
    expect(document.activeElement).toBe(searchBox());
    expect(h.calls.members).toBe(1);
  });

  it('borders the list only when it has more than 4 entries', async () => {
    const four = renderParticipants({
      members: async () => makeMembers({ members: [people.tess, extra(1), extra(2)] }),
    });
    await open(four);
    expect(rows()).toHaveLength(4);
    expect(participantList().hasAttribute('data-bordered')).toBe(false);
    expect(getComputedStyle(participantList()).borderTopStyle).not.toBe('solid');
    cleanup();

    const five = renderParticipants({
      members: async () => makeMembers({ members: [people.tess, extra(1), extra(2), extra(3)] }),
    });
    await open(five);
    expect(rows()).toHaveLength(5);
    expect(participantList().hasAttribute('data-bordered')).toBe(true);
    expect(getComputedStyle(participantList()).borderTopStyle).toBe('solid');
  });

  it('searches from three characters on and invites a person found by a click', async () => {
    const h = renderParticipants();
    await open(h);
    await h.ux.type(searchBox(), 'th');
    expect(h.calls.search).toEqual([]);
    expect(message()).toBe('Please enter a valid email address to invite a new user.');
    await h.ux.type(searchBox(), 'e');
    const match = await within(dialog()).findByRole('button', { name: 'Invite Theo Teacher (teacher2@example.org)' });
    expect(h.calls.search).toEqual(['the']);
    await h.ux.click(match);
    await waitFor(() => expect(rows()).toEqual(['Tess Teacher', 'Pat Pending (Pending)', 'Theo Teacher (Pending)']));
    expect(h.calls.invite).toEqual([{ to: people.theo.id, label: 'Theo Teacher' }]);
    expect(searchBox().value).toBe('');
    expect(within(dialog()).queryByRole('list', { name: 'People you can invite' })).toBeNull();
    expect(within(dialog()).getByRole('status', { name: '' }).textContent).toBe('teacher2@example.org was invited.');
  });

  it('forgets the matches when the text gets shorter than three characters', async () => {
    const h = renderParticipants();
    await open(h);
    await h.ux.type(searchBox(), 'the');
    await within(dialog()).findByRole('list', { name: 'People you can invite' });
    await h.ux.type(searchBox(), '{Backspace}');
    expect(within(dialog()).queryByRole('list', { name: 'People you can invite' })).toBeNull();
    expect(h.calls.search).toEqual(['the']);
  });

  it('says "Email is required" when the box is sent empty', async () => {
    const h = renderParticipants();
    await open(h);
    await h.ux.click(within(dialog()).getByRole('button', { name: 'Invite' }));
    expect(message()).toBe('Email is required');
    expect(searchBox().getAttribute('aria-invalid')).toBe('true');
    expect(h.calls.invite).toEqual([]);
  });

  it('asks for a valid address until the text is one', async () => {
    const h = renderParticipants();
    await open(h);
    await h.ux.type(searchBox(), 'new.person@example');
    expect(message()).toBe('Please enter a valid email address to invite a new user.');
    await h.ux.keyboard('{Enter}');
    expect(searchBox().getAttribute('aria-invalid')).toBe('true');
    expect(h.calls.invite).toEqual([]);
    await h.ux.type(searchBox(), '.org');
    expect(message()).toBe('');
    expect(searchBox().getAttribute('aria-invalid')).toBeNull();
  });

  it('refuses the address of a member (and the owner) without asking the server', async () => {
    const h = renderParticipants();
    await open(h);
    await h.ux.type(searchBox(), 'Teacher@Example.org');
    expect(message()).toBe('Teacher@Example.org is already a member of this shared portfolio.');
    await h.ux.keyboard('{Enter}');
    expect(h.calls.invite).toEqual([]);
    await h.ux.clear(searchBox());
    await h.ux.type(searchBox(), 'lead@example.org{Enter}');
    expect(message()).toBe('lead@example.org is already a member of this shared portfolio.');
    expect(h.calls.invite).toEqual([]);
  });

  it('invites a new address with Enter; the person shows as pending', async () => {
    const h = renderParticipants();
    await open(h);
    await h.ux.type(searchBox(), 'new.person@example.org{Enter}');
    await waitFor(() => expect(rows()).toContain('new.person (Pending)'));
    expect(h.calls.invite).toEqual([{ email: 'new.person@example.org', label: 'new.person@example.org' }]);
    expect(searchBox().value).toBe('');
  });

  it('shows the server’s refusal under the box', async () => {
    const refusal = 'someone@example.org has already been invited to this shared portfolio.';
    const h = renderParticipants({
      invite: async () => Promise.reject(new ApiError(400, 'already_invited', refusal, '')),
    });
    await open(h);
    await h.ux.type(searchBox(), 'someone@example.org');
    await h.ux.click(within(dialog()).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(message()).toBe(refusal));
    expect(searchBox().getAttribute('aria-invalid')).toBe('true');
    expect(searchBox().value).toBe('someone@example.org');
    expect(rows()).toEqual(['Tess Teacher', 'Pat Pending (Pending)']);
  });

  it('alerts other failures', async () => {
    const h = renderParticipants({ invite: async () => Promise.reject(new NetworkError()) });
    await open(h);
    await h.ux.type(searchBox(), 'someone@example.org{Enter}');
    expect(within(await screen.findByRole('alert')).getByText(new NetworkError().message)).toBeTruthy();
    expect((within(dialog()).getByRole('button', { name: 'Invite' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('asks before deleting a pending invitation, then cancels it', async () => {
    const h = renderParticipants();
    await open(h);
    await h.ux.click(within(participantList()).getByRole('button', { name: 'Remove Pat Pending' }));
    const question = screen.getByRole('alertdialog', { name: 'Remove Participant' });
    expect(
      within(question).getByText(
        'Remove Pat Pending from this shared portfolio? They will no longer see or comment on its artifacts.',
      ),
    ).toBeTruthy();
    await h.ux.click(within(question).getByRole('button', { name: 'NO' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(rows()).toEqual(['Tess Teacher', 'Pat Pending (Pending)']);

    await h.ux.click(within(participantList()).getByRole('button', { name: 'Remove Pat Pending' }));
    await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(rows()).toEqual(['Tess Teacher']));
    expect(h.calls.cancel).toEqual([51]);
    expect(h.calls.remove).toEqual([]);
  });

  it('asks before removing a member, then removes them; the summary follows', async () => {
    const h = renderParticipants();
    await open(h);
    await h.ux.click(within(participantList()).getByRole('button', { name: 'Remove Tess Teacher' }));
    expect(
      within(screen.getByRole('alertdialog')).getByText(
        'Remove Tess Teacher from this shared portfolio? They will no longer see or comment on its artifacts.',
      ),
    ).toBeTruthy();
    await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(rows()).toEqual(['Pat Pending (Pending)']));
    expect(h.calls.remove).toEqual([people.tess.id]);
    expect(h.calls.cancel).toEqual([]);
    await h.ux.click(within(dialog()).getByRole('button', { name: 'Close' }));
    expect(within(screen.getByRole('group', { name: 'Currently Shared with' })).getByText('Lee Lead')).toBeTruthy();
  });

  it('alerts a failed removal and keeps the row', async () => {
    const h = renderParticipants({
      remove: async () =>
        Promise.reject(new ApiError(403, 'forbidden', 'Only the owner of this shared portfolio can do this.', '')),
    });
    await open(h);
    await h.ux.click(within(participantList()).getByRole('button', { name: 'Remove Tess Teacher' }));
    await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    expect(
      within(await screen.findByRole('alert')).getByText('Only the owner of this shared portfolio can do this.'),
    ).toBeTruthy();
    expect(rows()).toEqual(['Tess Teacher', 'Pat Pending (Pending)']);
  });

  it('offers to try again when the list cannot be loaded, and reloads it on every opening', async () => {
    let fail = true;
    const h = renderParticipants({ members: async () => (fail ? Promise.reject(new NetworkError()) : makeMembers()) });
    await h.ux.click(screen.getByRole('button', { name: 'Edit Participants' }));
    const alert = await within(dialog()).findByRole('alert');
    fail = false;
    await h.ux.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog()).findByText('Pat Pending')).toBeTruthy();
    await h.ux.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await open(h);
    expect(h.calls.members).toBe(3);
  });

  it('alerts a failed search', async () => {
    const h = renderParticipants({ search: async () => Promise.reject(new NetworkError()) });
    await open(h);
    await h.ux.type(searchBox(), 'the');
    expect(within(await screen.findByRole('alert')).getByText(new NetworkError().message)).toBeTruthy();
    await act(async () => undefined);
    expect(h.actor.getSnapshot().matches({ open: { ready: 'idle' } })).toBe(true);
  });
});
