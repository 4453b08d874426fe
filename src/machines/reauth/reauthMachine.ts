/**
 * Signing in again when the session ended during work: a call gets 401, a dialog over the page
 * asks for the password of the same account, and the calls that were refused are sent again —
 * the form, its typed text and the page stay as they were.
 *
 * signedIn ─(reauth.needed)→ asking ─(reauth.submit: a password)→ signingIn ─(the same account)→ signedIn (the calls are sent again)
 *               ↑                ├─(reauth.giveUp)→ gaveUp (the session ends; the sign-in page, the drafts kept)
 *               │                └─(field.change)→ asking
 *               │             signingIn ─(refused, or another account)→ asking (the message; the password cleared)
 *               └─────────────(reauth.needed while asking or signing in: the same question)
 *
 * Ways to sign in are `methods`: a password today; a single sign-on provider can be added as
 * another method (its own `reauth.submit` and actor) without changing the rest.
 *
 * Happy path: the teacher's session expired while she typed a comment; she presses Post
 * Comment, the dialog asks for her password, she signs in, and the comment is posted.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Me } from '../../schemas/user.ts';
import { login } from '../../services/authService.ts';
import { effect } from '../shared/effect.ts';
import { loginFailureMessage } from '../login/loginMachine.ts';

export type ReauthMethod = 'password';

export interface ReauthInput {
  /** The account that was signed in (the dialog signs in as it, no other). */
  email: string;
  userId: number;
}

export interface ReauthContext extends ReauthInput {
  methods: readonly ReauthMethod[];
  password: string;
  error: string | null;
}

export type ReauthEvent =
  | { type: 'reauth.needed' }
  | { type: 'field.change'; value: string }
  | { type: 'reauth.submit'; method: ReauthMethod }
  | { type: 'reauth.giveUp' };

/** Said when the password was right but for another account (the e-mail field is fixed, so only a changed account). */
export const OTHER_ACCOUNT_MESSAGE = 'Sign in as the same account to continue.';

export const reauthMachine = setup({
  types: {
    context: {} as ReauthContext,
    events: {} as ReauthEvent,
    input: {} as ReauthInput,
    tags: {} as 'busy',
  },
  actors: {
    signInWithPassword: fromPromise<Me, { identifier: string; password: string }>(
      async ({ input, signal }) => (await login(input, signal)).user,
    ),
  },
  guards: {
    hasPassword: ({ context }) => context.password !== '',
    isSameAccount: ({ context }, params: { user: Me }) => params.user.id === context.userId,
  },
  actions: {
    storePassword: assign({ password: (_, params: { value: string }) => params.value, error: null }),
    showError: assign({ error: (_, params: { message: string }) => params.message, password: '' }),
    forget: assign({ password: '', error: null }),
    /** The user is signed in again (provided by the app: the session takes the user; waiting calls are sent again). */
    signedInAgain: effect<{ user: Me }>('signedInAgain'),
    /** The user gave up (provided by the app: waiting calls fail, the session ends, the sign-in page opens). */
    gaveUp: effect('gaveUp'),
  },
}).createMachine({
  id: 'reauth',
  context: ({ input }) => ({ ...input, methods: ['password'], password: '', error: null }),
  initial: 'signedIn',
  states: {
    signedIn: {
      on: { 'reauth.needed': 'asking' },
    },
    asking: {
      on: {
        'field.change': { actions: { type: 'storePassword', params: ({ event }) => event } },
        'reauth.submit': { guard: 'hasPassword', target: 'signingIn' },
        'reauth.giveUp': { target: 'gaveUp', actions: ['forget', 'gaveUp'] },
      },
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        id: 'signInWithPassword',
        src: 'signInWithPassword',
        input: ({ context }) => ({ identifier: context.email, password: context.password }),
        onDone: [
          {
            guard: { type: 'isSameAccount', params: ({ event }) => ({ user: event.output }) },
            target: 'signedIn',
            actions: ['forget', { type: 'signedInAgain', params: ({ event }) => ({ user: event.output }) }],
          },
          { target: 'asking', actions: { type: 'showError', params: { message: OTHER_ACCOUNT_MESSAGE } } },
        ],
        onError: {
          target: 'asking',
          actions: { type: 'showError', params: ({ event }) => ({ message: loginFailureMessage(event.error) }) },
        },
      },
    },
    gaveUp: {
      type: 'final',
    },
  },
});

export type ReauthMachine = typeof reauthMachine;
