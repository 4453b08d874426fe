/**
 * Login: e-mail and password, then a stored token, then the loaded user, then the app.
 *
 * editing ─(login.submit, form valid)→ submitting ─(token)→ loadingUser ─(user)→ loggedIn
 *    ↑  ├─(login.submit, form invalid: field messages, no request)     │
 *    │  └─(remember.change: "keep me signed in", off by default)        │
 *    └──────────────────(any failure: an alert, fields kept)───────────┘
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
import { assign, fromPromise, setup } from 'xstate';
import type { AuthResponse } from '../../schemas/auth.ts';
import type { Me } from '../../schemas/user.ts';
import { fetchMe, login } from '../../services/authService.ts';
import { ApiError, NetworkError, toUiError } from '../../services/errors.ts';
import { forgetSession } from '../../services/session.ts';
import { effect } from '../shared/effect.ts';

/** The spec's alert for a refused login (spec §8). */
export const LOGIN_FAILED_MESSAGE = 'Incorrect email or password.';
/** Field messages of the login form. */
export const LOGIN_FIELD_MESSAGES = {
  emailRequired: 'Email is required.',
  passwordRequired: 'Password is required.',
} as const;

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
}

export type LoginEvent =
  | { type: 'field.change'; field: LoginField; value: string }
  | { type: 'remember.change'; value: boolean }
  | { type: 'login.submit' };

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
    tags: {} as 'busy',
  },
  actors: {
    login: fromPromise<AuthResponse, LoginCredentials>(({ input, signal }) => login(input, signal)),
    fetchMe: fromPromise<Me>(({ signal }) => fetchMe(signal)),
  },
  guards: {
    isFormValid: ({ context }) => Object.keys(validateLogin(context)).length === 0,
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
  },
}).createMachine({
  id: 'login',
  context: { email: '', password: '', fieldErrors: {}, remember: false, failure: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: { type: 'storeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        'remember.change': { actions: { type: 'storeRemember', params: ({ event }) => ({ value: event.value }) } },
        'login.submit': [{ guard: 'isFormValid', target: 'submitting' }, { actions: 'showFieldErrors' }],
      },
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
});

export type LoginMachine = typeof loginMachine;
