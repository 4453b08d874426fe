/**
 * Login: e-mail and password, then a stored token, then the loaded user, then the app; or a
 * school account's provider (single sign-on), which the browser leaves for.
 *
 * Two regions. `methods`: the ways to sign in, the providers' buttons and whether the password
 * form is shown; known from the start when the page came with them (the server embeds them), else
 * loaded (`GET /auth/methods`); until they are known (or when they cannot be read) the password
 * form is shown alone. `form`:
 *
 * editing ─(login.submit, form valid)→ submitting ─(token)→ loadingUser ─(user)→ loggedIn
 *    ↑  ├─(login.submit, form invalid: field messages, no request)     │
 *    │  └─(remember.change: "keep me signed in", off by default)        │
 *    └──────────────────(any failure: an alert, fields kept)───────────┘
 * editing ─(sso.start, a provider offered)→ redirecting (the browser goes to the provider)
 * editing ─(providerLogout.follow, offered)→ signingOutAtProvider (the browser goes to its sign-out)
 *
 * After a single sign-on session was logged out, the page may open with the provider's own
 * sign-out offered (`providerLogout`, from the logout's answer): "Also sign out of <label>".
 *
 * A sign-in at a provider that was refused comes back to `/login?sso=<code>`: the page starts
 * with the alert of that code (`SSO_MESSAGES`), which says what to do.
 *
 * The token is stored as soon as the server accepts the password; if the user then cannot be
 * loaded, the token is forgotten again so that no half-made session stays behind.
 *
 * "Keep me signed in" is off until the person ticks it: the server then keeps the session cookie
 * across browser restarts (30 days); otherwise the browser forgets it when it closes, which is
 * what a shared computer needs. The choice is sent with the login request.
 *
 * Failure messages: the spec's 'Incorrect email or password.' for every refusal of the server,
 * except a 429 (the server's own rate-limit message, which says how long to wait) and an
 * unreachable server (the network message), where the spec's text would mislead the user.
 */
import { and, assign, fromPromise, setup } from 'xstate';
import type { AuthResponse } from '../../schemas/auth.ts';
import type { SignInMethods, SignInProvider, SsoErrorCode } from '../../schemas/sso.ts';
import type { Me } from '../../schemas/user.ts';
import { fetchMe, fetchSignInMethods, login } from '../../services/authService.ts';
import { ApiError, NetworkError, toUiError } from '../../services/errors.ts';
import type { ProviderLogout } from '../../services/logout.ts';
import { forgetSession } from '../../services/session.ts';
import { effect } from '../shared/effect.ts';

/** The spec's alert for a refused login (spec §8). */
export const LOGIN_FAILED_MESSAGE = 'Incorrect email or password.';
/** Field messages of the login form. */
export const LOGIN_FIELD_MESSAGES = {
  emailRequired: 'Email is required.',
  passwordRequired: 'Password is required.',
} as const;

/** What the login page says when a sign-in at a provider ended here (`/login?sso=<code>`). */
export const SSO_MESSAGES: Record<SsoErrorCode, string> = {
  cancelled: 'The sign-in at your school account was cancelled. Choose your school account again to sign in.',
  wrong_domain:
    'This school account’s domain cannot sign in here. Sign in with the account your school gave you, or ask your school’s PracticeFolio contact.',
  wrong_tenant:
    'Your organisation’s accounts cannot sign in here. Ask your school’s PracticeFolio contact to add your organisation.',
  unverified_email:
    'Your school account has no verified e-mail address. Ask your school’s IT support to verify it, then try again.',
  expired: 'The sign-in took too long or was already used. Choose your school account again.',
  no_account:
    'There is no PracticeFolio account for this e-mail address. Ask your school’s PracticeFolio contact or the research team to create one.',
  blocked: 'Your account has been blocked. Ask the research team if you think this is a mistake.',
  failed: 'Your school account could not sign you in. Try again; if it keeps failing, tell your school’s IT support.',
  unavailable: 'Your school account’s sign-in service could not be reached. Try again in a few minutes.',
};

/** The ways to sign in when they cannot be read: the password form alone. */
export const PASSWORD_ONLY: SignInMethods = { providers: [], passwordLogin: true };

export type LoginField = 'email' | 'password';
export type LoginFieldErrors = Partial<Record<LoginField, string>>;

export interface LoginContext {
  email: string;
  password: string;
  fieldErrors: LoginFieldErrors;
  /** "Keep me signed in": a session kept across browser restarts (off by default). */
  remember: boolean;
  /** Why the last attempt failed: shown under the form, next to what caused it; cleared by typing. */
  failure: string | null;
  /** The ways to sign in; `null` until they are known (the password form is shown meanwhile). */
  methods: SignInMethods | null;
  /** The provider's own sign-out, offered after a single sign-on session was logged out. */
  providerLogout: ProviderLogout | null;
}

/** Where the login page was opened: `ssoError` is the code of a refused sign-in at a provider. */
export interface LoginInput {
  ssoError?: SsoErrorCode | null;
  /** The provider's sign-out that the logout before this page load offered. */
  providerLogout?: ProviderLogout | null;
  /** The ways to sign in, when the page came with them (else they are loaded). */
  methods?: SignInMethods | null;
}

export type LoginEvent =
  | { type: 'field.change'; field: LoginField; value: string }
  | { type: 'remember.change'; value: boolean }
  | { type: 'login.submit' }
  | { type: 'sso.start'; provider: string }
  | { type: 'providerLogout.follow' };

/** What the login request sends. */
export interface LoginCredentials {
  identifier: string;
  password: string;
  remember: boolean;
}

/** The field messages of a login form; empty when it may be sent. */
export function validateLogin(form: { email: string; password: string }): LoginFieldErrors {
  const errors: LoginFieldErrors = {};
  if (form.email.trim() === '') errors.email = LOGIN_FIELD_MESSAGES.emailRequired;
  if (form.password === '') errors.password = LOGIN_FIELD_MESSAGES.passwordRequired;
  return errors;
}

function withoutError(errors: LoginFieldErrors, field: LoginField): LoginFieldErrors {
  const { [field]: _dropped, ...rest } = errors;
  return rest;
}

/** What the alert says when logging in failed. */
export function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) return error.message;
  if (error instanceof NetworkError) return error.message;
  return LOGIN_FAILED_MESSAGE;
}

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput | undefined,
    tags: {} as 'busy',
  },
  actors: {
    login: fromPromise<AuthResponse, LoginCredentials>(({ input, signal }) => login(input, signal)),
    fetchMe: fromPromise<Me>(({ signal }) => fetchMe(signal)),
    loadMethods: fromPromise<SignInMethods>(({ signal }) => fetchSignInMethods(signal)),
  },
  guards: {
    isFormValid: ({ context }) => Object.keys(validateLogin(context)).length === 0,
    /** The password form is shown (until the ways to sign in are known, it is). */
    passwordShown: ({ context }) => context.methods?.passwordLogin ?? true,
    isOffered: ({ context }, params: { provider: string }) =>
      (context.methods?.providers ?? []).some((p) => p.id === params.provider),
    providerLogoutOffered: ({ context }) => context.providerLogout !== null,
    methodsKnown: ({ context }) => context.methods !== null,
  },
  actions: {
    storeField: assign(({ context }, params: { field: LoginField; value: string }) => ({
      ...(params.field === 'email' ? { email: params.value } : { password: params.value }),
      fieldErrors: withoutError(context.fieldErrors, params.field),
      failure: null,
    })),
    storeRemember: assign({ remember: (_, params: { value: boolean }) => params.value }),
    showFieldErrors: assign({ fieldErrors: ({ context }) => validateLogin(context) }),
    // The server keeps the session in its HttpOnly cookie; a session that cannot be loaded is forgotten here.
    forgetSession: () => forgetSession(),
    storeFailure: assign({ failure: (_, params: { message: string }) => params.message }),
    clearFailure: assign({ failure: null }),
    /** Starts the session of the user and leaves for the origin or the dashboard (provided by the app). */
    completeLogin: effect<{ user: Me }>('completeLogin'),
    storeMethods: assign({ methods: (_, params: { methods: SignInMethods }) => params.methods }),
    /** Leaves the page for the provider's sign-in (provided by the app: a full-page navigation). */
    goToProvider: effect<{ provider: SignInProvider }>('goToProvider'),
    /** Leaves the page for the provider's own sign-out (provided by the app: a full-page navigation). */
    goToProviderLogout: effect<{ url: string }>('goToProviderLogout'),
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    email: '',
    password: '',
    fieldErrors: {},
    remember: false,
    failure: input?.ssoError ? SSO_MESSAGES[input.ssoError] : null,
    methods: input?.methods ?? null,
    providerLogout: input?.providerLogout ?? null,
  }),
  type: 'parallel',
  states: {
    methods: {
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'methodsKnown', target: 'ready' }, { target: 'loading' }] },
        loading: {
          invoke: {
            id: 'loadMethods',
            src: 'loadMethods',
            onDone: {
              target: 'ready',
              actions: { type: 'storeMethods', params: ({ event }) => ({ methods: event.output }) },
            },
            // The page still signs in with a password when the providers cannot be read.
            onError: { target: 'ready', actions: { type: 'storeMethods', params: { methods: PASSWORD_ONLY } } },
          },
        },
        ready: { type: 'final' },
      },
    },
    form: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'field.change': {
              guard: 'passwordShown',
              actions: { type: 'storeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
            },
            'remember.change': {
              guard: 'passwordShown',
              actions: { type: 'storeRemember', params: ({ event }) => ({ value: event.value }) },
            },
            'login.submit': [
              { guard: and(['passwordShown', 'isFormValid']), target: 'submitting' },
              { guard: 'passwordShown', actions: 'showFieldErrors' },
            ],
            'sso.start': {
              guard: { type: 'isOffered', params: ({ event }) => ({ provider: event.provider }) },
              target: 'redirecting',
              actions: {
                type: 'goToProvider',
                params: ({ context, event }) => ({
                  provider: context.methods!.providers.find((p) => p.id === event.provider)!,
                }),
              },
            },
            'providerLogout.follow': {
              guard: 'providerLogoutOffered',
              target: 'signingOutAtProvider',
              actions: { type: 'goToProviderLogout', params: ({ context }) => ({ url: context.providerLogout!.url }) },
            },
          },
        },
        redirecting: {
          tags: ['busy'],
          type: 'final',
        },
        signingOutAtProvider: {
          tags: ['busy'],
          type: 'final',
        },
        submitting: {
          tags: ['busy'],
          entry: 'clearFailure',
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ context }) => ({
              identifier: context.email.trim(),
              password: context.password,
              remember: context.remember,
            }),
            onDone: { target: 'loadingUser' },
            onError: {
              target: 'editing',
              actions: { type: 'storeFailure', params: ({ event }) => ({ message: loginFailureMessage(event.error) }) },
            },
          },
        },
        loadingUser: {
          tags: ['busy'],
          invoke: {
            id: 'fetchMe',
            src: 'fetchMe',
            onDone: {
              target: 'loggedIn',
              actions: { type: 'completeLogin', params: ({ event }) => ({ user: event.output }) },
            },
            onError: {
              target: 'editing',
              actions: [
                'forgetSession',
                { type: 'storeFailure', params: ({ event }) => ({ message: toUiError(event.error).message }) },
              ],
            },
          },
        },
        loggedIn: {
          type: 'final',
          tags: ['busy'],
        },
      },
    },
  },
});

export type LoginMachine = typeof loginMachine;
