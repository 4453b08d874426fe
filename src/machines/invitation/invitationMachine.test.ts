import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeInvitation, makeSharedPortfolio } from '../../test/sharedFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import { INVITATION_MESSAGES, invitationMachine, REDIRECT_DELAY_MS } from './invitationMachine.ts';

const invitation = makeInvitation({ id: 21 });
const portfolio = makeSharedPortfolio({ id: invitation.sharedPortfolio.id });

interface Answers {
  invitation?: () => Promise<Invitation>;
  portfolio?: () => Promise<SharedPortfolio>;
  accept?: () => Promise<SharedPortfolio>;
  remove?: () => Promise<Invitation>;
}

function start(invitationId: number | null, answers: Answers = {}) {
  const notices: Notice[] = [];
  const asked: string[] = [];
  let dashboard = 0;
  const actor = createActor(
    invitationMachine.provide({
      actors: {
        fetchInvitation: fromPromise<Invitation, { id: number }>(({ input }) => {
          asked.push(`invitation ${input.id}`);
          return (answers.invitation ?? (async () => invitation))();
        }),
        fetchSharedPortfolio: fromPromise<SharedPortfolio, { id: number }>(({ input }) => {
          asked.push(`portfolio ${input.id}`);
          return (answers.portfolio ?? (async () => portfolio))();
        }),
        acceptInvitation: fromPromise<SharedPortfolio, { id: number }>(({ input }) => {
          asked.push(`accept ${input.id}`);
          return (answers.accept ?? (async () => portfolio))();
        }),
        deleteInvitation: fromPromise<Invitation, { id: number }>(({ input }) => {
          asked.push(`delete ${input.id}`);
          return (answers.remove ?? (async () => invitation))();
        }),
      },
      actions: {
        notify: (_, notice) => notices.push(notice),
        navigateToDashboard: () => (dashboard += 1),
      },
    }),
    { input: { invitationId } },
  ).start();
  return { actor, notices, asked, dashboard: () => dashboard };
}

describe('invitationMachine guards', () => {
  it('hasId: an address without an id is not found, and nothing is asked', () => {
    const { actor, asked } = start(null);
    expect(actor.getSnapshot().value).toBe('notFound');
    expect(asked).toEqual([]);
  });

  it('isNotFound: a 404 for the invitation is not found; another failure can be retried', async () => {
    const gone = start(21, { invitation: () => Promise.reject(new ApiError(404, 'not_found', 'Not Found', '')) });
    await waitFor(gone.actor, (s) => !s.matches('loading'));
    expect(gone.actor.getSnapshot().value).toBe('notFound');

    const answers = [() => Promise.reject(new NetworkError()), async () => invitation];
    const { actor } = start(21, { invitation: () => answers.shift()!() });
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(actor.getSnapshot().context.error?.kind).toBe('network');
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('pending'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describe('invitationMachine actions', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('storeInvitation / storeSharedPortfolio: the invitation, then its shared portfolio, are kept', async () => {
    const { actor, asked } = start(21);
    await waitFor(actor, (s) => s.matches('pending'));
    expect(asked).toEqual(['invitation 21', `portfolio ${invitation.sharedPortfolio.id}`]);
    expect(actor.getSnapshot().context).toMatchObject({ invitation, sharedPortfolio: portfolio, error: null });
  });

  it('accepting says so and goes to the dashboard one second later', async () => {
    const { actor, notices, asked, dashboard } = start(21);
    await waitFor(actor, (s) => s.matches('pending'));
    actor.send({ type: 'invitation.accept' });
    await waitFor(actor, (s) => s.matches('accepted'));
    expect(asked).toContain('accept 21');
    expect(notices).toEqual([{ message: INVITATION_MESSAGES.accepted, tone: 'success' }]);
    vi.advanceTimersByTime(REDIRECT_DELAY_MS - 1);
    expect(dashboard()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(dashboard()).toBe(1);
  });

  it('deleting asks first; a failure alerts the message and keeps the invitation pending', async () => {
    const { actor, notices, asked, dashboard } = start(21, {
      remove: () => Promise.reject(new ApiError(403, 'forbidden', 'Not your invitation.', '')),
    });
    await waitFor(actor, (s) => s.matches('pending'));
    actor.send({ type: 'invitation.delete' });
    actor.send({ type: 'delete.cancel' });
    expect(asked).not.toContain('delete 21');
    actor.send({ type: 'invitation.delete' });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('pending'));
    expect(notices).toEqual([{ message: 'Not your invitation.', tone: 'error' }]);
    vi.advanceTimersByTime(REDIRECT_DELAY_MS);
    expect(dashboard()).toBe(0);
  });

  it('a deleted invitation says so and goes to the dashboard after the delay', async () => {
    const { actor, notices, dashboard } = start(21);
    await waitFor(actor, (s) => s.matches('pending'));
    actor.send({ type: 'invitation.delete' });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('deleted'));
    expect(notices).toEqual([{ message: INVITATION_MESSAGES.deleted, tone: 'success' }]);
    vi.advanceTimersByTime(REDIRECT_DELAY_MS);
    expect(dashboard()).toBe(1);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
