import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { User } from '../../schemas/user.ts';
import { ApiError } from '../../services/errors.ts';
import { makeUser } from '../../test/renderApp.tsx';
import type { Notice } from '../shared/notice.ts';
import { userToggleMachine } from './userToggleMachine.ts';

const active = makeUser('teacher', { id: 9, username: 'Nia', blocked: false });
const refusal = new ApiError(403, 'forbidden', 'You may not block this account.', '');

function start(
  isSelf = false,
  answer: (blocked: boolean) => Promise<User> = async (blocked) => ({ ...active, blocked }),
) {
  const notices: Notice[] = [];
  const sent: { id: number; blocked: boolean }[] = [];
  const actor = createActor(
    userToggleMachine.provide({
      actors: {
        setUserBlocked: fromPromise<User, { id: number; blocked: boolean }>(({ input }) => {
          sent.push(input);
          return answer(input.blocked);
        }),
      },
      actions: { notify: (_, notice) => notices.push(notice) },
    }),
    { input: { user: active, isSelf } },
  ).start();
  return { actor, notices, sent };
}

describe('userToggleMachine guards', () => {
  it('canToggle: nobody switches their own account', () => {
    const { actor, sent } = start(true);
    actor.send({ type: 'user.toggle' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(sent).toEqual([]);
  });
});

describe('userToggleMachine actions', () => {
  it('switching Active off asks to block, shows the asked value meanwhile, then takes the answer', async () => {
    const { actor, sent } = start();
    actor.send({ type: 'user.toggle' });
    expect(actor.getSnapshot().context.pendingBlocked).toBe(true);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toEqual([{ id: 9, blocked: true }]);
    expect(actor.getSnapshot().context).toMatchObject({ user: { id: 9, blocked: true }, pendingBlocked: null });
    actor.send({ type: 'user.toggle' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toEqual([
      { id: 9, blocked: true },
      { id: 9, blocked: false },
    ]);
  });

  it('a refusal alerts the server message and the switch returns to its value', async () => {
    const { actor, notices } = start(false, () => Promise.reject(refusal));
    actor.send({ type: 'user.toggle' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(notices).toEqual([{ message: 'You may not block this account.', tone: 'error' }]);
    expect(actor.getSnapshot().context).toMatchObject({ user: { blocked: false }, pendingBlocked: null });
  });
});
