import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { MembersResponse } from '../../schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeInvitation, people } from '../../test/sharedFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import { participantsMachine } from './participantsMachine.ts';

const LOADED: MembersResponse = {
  members: [people.tess],
  pending: [{ ...people.pat, invitationId: 51 }],
  nonMembers: [],
};

/** The dialog of portfolio 9 opened and loaded; the removal child answers `removed` at once. */
async function start(options: { removed?: boolean; invite?: () => Promise<Invitation> } = {}) {
  const notices: Notice[] = [];
  const logic = participantsMachine.provide({
    actors: {
      fetchMembers: fromPromise<MembersResponse, { sharedPortfolioId: number }>(async () => LOADED),
      invitePerson: fromPromise(options.invite ?? (async () => makeInvitation({ id: 77, to: people.theo }))),
      participantRemoval: createMachine({
        output: { removed: options.removed ?? true },
        initial: 'done',
        states: { done: { type: 'final' } },
      }) as never,
    },
    actions: { notify: (_, notice) => notices.push(notice) },
  });
  const actor = createActor(logic, {
    input: { sharedPortfolioId: 9, owner: people.lee, members: [people.lee] },
  }).start();
  actor.send({ type: 'dialog.open' });
  await waitFor(actor, (s) => s.matches({ open: 'ready' }));
  return { actor, notices };
}

describe('participantsMachine guards', () => {
  it('isSearchable: fewer than three characters clear the matches without searching', async () => {
    const { actor } = await start();
    actor.send({ type: 'search.change', text: 'te' });
    expect(actor.getSnapshot().matches({ open: { ready: 'idle' } })).toBe(true);
    actor.send({ type: 'search.change', text: 'tes' });
    expect(actor.getSnapshot().matches({ open: { ready: 'searching' } })).toBe(true);
  });

  it('isRefused: an address that may not be invited is refused in the box', async () => {
    const { actor } = await start();
    actor.send({ type: 'search.change', text: 'no' });
    actor.send({ type: 'invite.submit' });
    expect(actor.getSnapshot().matches({ open: { ready: 'idle' } })).toBe(true);
    expect(actor.getSnapshot().context.invalid).toBe(true);
  });

  it('isListed: only a listed person can be removed', async () => {
    const { actor } = await start({ removed: false });
    actor.send({ type: 'participant.remove', userId: people.theo.id });
    expect(actor.getSnapshot().matches({ open: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context.removal).toBeNull();
  });

  it('isBadRequest: a refused invitation is shown in the box, another failure is told', async () => {
    const refused = new ApiError(400, 'already_invited', 'Already invited.', '');
    const first = await start({ invite: () => Promise.reject(refused) });
    first.actor.send({ type: 'invite.person', person: people.theo });
    await waitFor(first.actor, (s) => s.matches({ open: 'ready' }));
    expect(first.actor.getSnapshot().context).toMatchObject({
      message: 'Already invited.',
      invalid: true,
      invitee: null,
    });
    expect(first.notices).toEqual([]);

    const second = await start({ invite: () => Promise.reject(new NetworkError()) });
    second.actor.send({ type: 'invite.person', person: people.theo });
    await waitFor(second.actor, (s) => s.matches({ open: 'ready' }));
    expect(second.actor.getSnapshot().context.invitee).toBeNull();
    expect(second.notices).toEqual([{ message: new NetworkError().message, tone: 'error' }]);
  });
});

describe('participantsMachine actions', () => {
  it('addPending: the invitee is listed as pending and announced', async () => {
    const { actor } = await start();
    actor.send({ type: 'invite.person', person: people.theo });
    await waitFor(actor, (s) => s.matches({ open: 'ready' }));
    const { context } = actor.getSnapshot();
    expect(context.membership.pending.map((p) => p.id)).toContain(people.theo.id);
    expect(context.announcement).toBe(`${people.theo.email} was invited.`);
    expect(context.invitee).toBeNull();
  });

  it('settleRemoval: a removed member or pending invitee is no longer listed, and this is announced', async () => {
    const members = await start();
    members.actor.send({ type: 'participant.remove', userId: people.tess.id });
    await waitFor(members.actor, (s) => s.matches({ open: 'ready' }));
    expect(members.actor.getSnapshot().context).toMatchObject({
      membership: { members: [], pending: LOADED.pending },
      removal: null,
      announcement: `${people.tess.username} was removed.`,
    });

    const pending = await start();
    pending.actor.send({ type: 'participant.remove', userId: people.pat.id });
    await waitFor(pending.actor, (s) => s.matches({ open: 'ready' }));
    expect(pending.actor.getSnapshot().context).toMatchObject({
      membership: { members: LOADED.members, pending: [] },
      removal: null,
      announcement: `The invitation of ${people.pat.username} was deleted.`,
    });
  });

  it('settleRemoval: a kept person stays listed, and nothing is announced', async () => {
    const { actor } = await start({ removed: false });
    actor.send({ type: 'participant.remove', userId: people.tess.id });
    await waitFor(actor, (s) => s.matches({ open: 'ready' }));
    expect(actor.getSnapshot().context).toMatchObject({
      membership: { members: LOADED.members, pending: LOADED.pending },
      removal: null,
      announcement: '',
    });
  });
});
