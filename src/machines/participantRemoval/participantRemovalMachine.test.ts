import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { makeInvitation, makeSharedPortfolio, people } from '../../test/sharedFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import { participantRemovalMachine, type ParticipantRemovalEvent, type Removal } from './participantRemovalMachine.ts';

const pending: Removal = { kind: 'pending', person: { ...people.pat, invitationId: 51 } };
const member: Removal = { kind: 'member', person: people.tess };
const notOwner = new ApiError(403, 'forbidden', 'Only the owner of this shared portfolio can do this.', '');

/** Asks to remove someone of portfolio 9, answers the question, and resolves with what was asked and told. */
async function run(removal: Removal, answer: ParticipantRemovalEvent['type'], fails = false) {
  const cancelled: unknown[] = [];
  const removed: unknown[] = [];
  const notify = vi.fn<(notice: Notice) => void>();
  const logic = participantRemovalMachine.provide({
    actors: {
      cancelInvitation: fromPromise<Invitation, { invitationId: number }>(async ({ input }) => {
        cancelled.push(input);
        if (fails) throw notOwner;
        return makeInvitation({ id: 51, to: people.pat });
      }),
      removeMember: fromPromise<SharedPortfolio, { sharedPortfolioId: number; userId: number }>(async ({ input }) => {
        removed.push(input);
        if (fails) throw notOwner;
        return makeSharedPortfolio({ members: [people.lee] });
      }),
    },
    actions: { notify: (_, notice) => notify(notice) },
  });
  const actor = createActor(logic, { input: { sharedPortfolioId: 9, removal } }).start();
  expect(actor.getSnapshot().value).toBe('confirming');
  actor.send({ type: answer });
  const output = await toPromise(actor);
  return { output, cancelled, removed, notify, value: actor.getSnapshot().value };
}

describe('participantRemovalMachine guards', () => {
  it('isRemovingPending: a pending invitee loses the invitation (nothing else is asked)', async () => {
    const result = await run(pending, 'removal.confirm');
    expect(result.cancelled).toEqual([{ invitationId: 51 }]);
    expect(result.removed).toEqual([]);
  });

  it('isRemovingPending: a member is removed from the portfolio (no invitation is deleted)', async () => {
    const result = await run(member, 'removal.confirm');
    expect(result.removed).toEqual([{ sharedPortfolioId: 9, userId: people.tess.id }]);
    expect(result.cancelled).toEqual([]);
  });
});

describe('participantRemovalMachine actions', () => {
  it('markRemoved: a done request ends removed', async () => {
    for (const removal of [pending, member]) {
      const result = await run(removal, 'removal.confirm');
      expect(result.value).toBe('removed');
      expect(result.output).toEqual({ removed: true });
      expect(result.notify).not.toHaveBeenCalled();
    }
  });

  it('notify: a failed request is told as an error, and the person is kept', async () => {
    for (const removal of [pending, member]) {
      const result = await run(removal, 'removal.confirm', true);
      expect(result.value).toBe('kept');
      expect(result.output).toEqual({ removed: false });
      expect(result.notify).toHaveBeenCalledExactlyOnceWith({ message: notOwner.message, tone: 'error' });
    }
  });

  it('NO keeps the person without asking the server or telling anything', async () => {
    const result = await run(member, 'removal.cancel');
    expect(result.value).toBe('kept');
    expect(result.output).toEqual({ removed: false });
    expect([...result.cancelled, ...result.removed]).toEqual([]);
    expect(result.notify).not.toHaveBeenCalled();
  });
});
