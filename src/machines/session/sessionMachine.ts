/**
 * Session: is someone signed in?
 *
 * starting ─(token stored)→ checking ─(user)→ authenticated ─(logout)→ loggingOut ─→ loggedOut
 *    └──(no token)→ anonymous ←─(401)─┘   └─(network error)→ unreachable ─(retry)→ checking
 * anonymous ─(session.loggedIn)→ authenticated;  authenticated ─(session.expired)→ anonymous
 *
 * Logging out waits for the server's answer (a few seconds at most): a single sign-on session's
 * answer may offer the provider's own sign-out, which the login page then shows
 * (`providerLogoutOffered`, the site reloaded at `/login`); otherwise the site reloads at `/`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Me } from '../../schemas/user.ts';
import { fetchMe } from '../../services/authService.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { endServerSession, offerProviderLogout, type ProviderLogout } from '../../services/logout.ts';
import { deleteDraftsOf } from '../../services/drafts.ts';
import { currentUser, sessionStatus, signIn, signOut } from '../../services/session.ts';
import { effect } from '../shared/effect.ts';

export interface SessionContext {
  hasToken: boolean;
  error: UiError | null;
}

export interface SessionInput {
  /** Whether a session token was stored when the app started. */
  hasToken: boolean;
}

export type SessionEvent =
  { type: 'session.loggedIn'; user: Me } | { type: 'session.logout' } | { type: 'session.expired' } | { type: 'retry' };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    fetchMe: fromPromise<Me>(({ signal }) => fetchMe(signal)),
    endServerSession: fromPromise<ProviderLogout | null>(() => endServerSession()),
  },
  guards: {
    hasToken: ({ context }) => context.hasToken,
    isUnauthorized: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 401,
    offersProviderLogout: (_, params: { offer: ProviderLogout | null }) => params.offer !== null,
  },
  actions: {
    signIn: (_, params: { user: Me }) => signIn(params.user),
    signOut: () => signOut(),
    /** Keeps the provider's sign-out for the login page the reload shows. */
    offerProviderLogout: (_, params: { offer: ProviderLogout }) => offerProviderLogout(params.offer),
    /** A sign-out on purpose forgets the user's local drafts (a shared computer keeps none of them). */
    forgetDrafts: () => deleteDraftsOf(currentUser.value?.id ?? null),
    markAnonymous: () => {
      sessionStatus.value = 'anonymous';
    },
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    /** Reloads the site at `path` (provided by the app: a full page load). */
    reloadHome: effect<{ path: string }>('reloadHome'),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ hasToken: input.hasToken, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasToken', target: 'checking' }, { target: 'anonymous' }],
    },
    checking: {
      invoke: {
        id: 'fetchMe',
        src: 'fetchMe',
        onDone: {
          target: 'authenticated',
          actions: { type: 'signIn', params: ({ event }) => ({ user: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isUnauthorized', params: ({ event }) => ({ error: event.error }) },
            target: 'anonymous',
            actions: 'signOut',
          },
          { target: 'unreachable', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    unreachable: {
      on: {
        retry: 'checking',
        // The login page stays usable while the stored token could not be checked.
        'session.loggedIn': {
          target: 'authenticated',
          actions: { type: 'signIn', params: ({ event }) => ({ user: event.user }) },
        },
      },
    },
    anonymous: {
      entry: 'markAnonymous',
      on: {
        'session.loggedIn': {
          target: 'authenticated',
          actions: { type: 'signIn', params: ({ event }) => ({ user: event.user }) },
        },
      },
    },
    authenticated: {
      on: {
        'session.logout': 'loggingOut',
        'session.expired': { target: 'anonymous', actions: 'signOut' },
      },
    },
    loggingOut: {
      entry: 'forgetDrafts',
      invoke: {
        id: 'endServerSession',
        src: 'endServerSession',
        onDone: [
          {
            guard: { type: 'offersProviderLogout', params: ({ event }) => ({ offer: event.output }) },
            target: 'providerLogoutOffered',
            actions: { type: 'offerProviderLogout', params: ({ event }) => ({ offer: event.output! }) },
          },
          { target: 'loggedOut' },
        ],
        // `endServerSession` answers `null` rather than fail; should it fail all the same, the session ends here.
        onError: { target: 'loggedOut' },
      },
    },
    loggedOut: {
      type: 'final',
      entry: ['signOut', { type: 'reloadHome', params: { path: '/' } }],
    },
    providerLogoutOffered: {
      type: 'final',
      entry: ['signOut', { type: 'reloadHome', params: { path: '/login' } }],
    },
  },
});

export type SessionMachine = typeof sessionMachine;
