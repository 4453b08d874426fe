/**
 * One row's Active switch on Manage Users: blocks or unblocks one account.
 *
 * idle ─(user.toggle)→ saving ─(saved)→ idle
 *                        └─(failed)→ failed ─(user.toggle)→ saving
 *
 * While saving, the switch shows the value asked for; the row then takes the server's answer.
 * A failure tells the user and the switch returns to its previous value. Nobody may switch
 * their own account (the server refuses it too).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { User } from '../../schemas/user.ts';
import { toUiError } from '../../services/errors.ts';
import { setUserBlocked } from '../../services/userService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export interface UserToggleInput {
  user: User;
  /** Whether this row is the signed-in user's own account. */
  isSelf: boolean;
}

export interface UserToggleContext {
  /** The account as the server last described it. */
  user: User;
  isSelf: boolean;
  /** The `blocked` value being saved, while saving. */
  pendingBlocked: boolean | null;
}

export type UserToggleEvent = { type: 'user.toggle' };

export const userToggleMachine = setup({
  types: {
    context: {} as UserToggleContext,
    events: {} as UserToggleEvent,
    input: {} as UserToggleInput,
    tags: {} as 'busy',
  },
  actors: {
    setUserBlocked: fromPromise<User, { id: number; blocked: boolean }>(({ input, signal }) =>
      setUserBlocked(input.id, input.blocked, signal),
    ),
  },
  guards: {
    canToggle: ({ context }) => !context.isSelf,
  },
  actions: {
    // Active is the opposite of blocked, so switching Active asks for the opposite of `blocked`.
    storePending: assign({ pendingBlocked: ({ context }) => !context.user.blocked }),
    storeUser: assign({ user: (_, params: { user: User }) => params.user, pendingBlocked: null }),
    dropPending: assign({ pendingBlocked: null }),
    /** Tells the user something (provided by the app: a toast). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'userToggle',
  context: ({ input }) => ({ user: input.user, isSelf: input.isSelf, pendingBlocked: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'user.toggle': { guard: 'canToggle', target: 'saving' } },
    },
    saving: {
      tags: ['busy'],
      entry: 'storePending',
      invoke: {
        id: 'setUserBlocked',
        src: 'setUserBlocked',
        input: ({ context }) => ({ id: context.user.id, blocked: !context.user.blocked }),
        onDone: { target: 'idle', actions: { type: 'storeUser', params: ({ event }) => ({ user: event.output }) } },
        onError: {
          target: 'failed',
          actions: [
            'dropPending',
            { type: 'notify', params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }) },
          ],
        },
      },
    },
    failed: {
      on: { 'user.toggle': { guard: 'canToggle', target: 'saving' } },
    },
  },
});

export type UserToggleMachine = typeof userToggleMachine;
