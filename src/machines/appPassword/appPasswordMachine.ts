/**
 * A password for the mobile apps (Settings): a teacher who signs in to the portal with a school
 * account sets one, under the same policy as any password; one who has a password already gives
 * it first (the server says so when it is missing).
 *
 * editing ─(submit, form valid)→ saving ─(saved)→ editing (fields cleared, "saved" shown)
 *    └─(submit, form invalid: field messages, no request)   └─(refused: the server's reason)→ editing
 *
 * The server ends every other session of the account; this one continues in a renewed cookie.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AppPasswordBody } from '../../schemas/sso.ts';
import { setAppPassword } from '../../services/authService.ts';
import { toUiError } from '../../services/errors.ts';

export type AppPasswordField = 'password' | 'passwordConfirmation' | 'currentPassword';
export type AppPasswordFieldErrors = Partial<Record<AppPasswordField, string>>;

export const APP_PASSWORD_MESSAGES = {
  passwordRequired: 'Choose a password.',
  mismatch: 'The two passwords are not the same.',
  saved: 'Your password is saved. Sign in to the mobile app with your e-mail address and this password.',
} as const;

export interface AppPasswordContext {
  password: string;
  passwordConfirmation: string;
  currentPassword: string;
  fieldErrors: AppPasswordFieldErrors;
  /** Why the last attempt was refused; cleared by typing. */
  failure: string | null;
  /** The password was saved (until the next change). */
  saved: boolean;
}

export type AppPasswordEvent = { type: 'field.change'; field: AppPasswordField; value: string } | { type: 'submit' };

/** The field messages of the form; empty when it may be sent. */
export function validateAppPassword(form: { password: string; passwordConfirmation: string }): AppPasswordFieldErrors {
  const errors: AppPasswordFieldErrors = {};
  if (form.password === '') errors.password = APP_PASSWORD_MESSAGES.passwordRequired;
  else if (form.password !== form.passwordConfirmation) errors.passwordConfirmation = APP_PASSWORD_MESSAGES.mismatch;
  return errors;
}

const EMPTY = { password: '', passwordConfirmation: '', currentPassword: '' };

export const appPasswordMachine = setup({
  types: { context: {} as AppPasswordContext, events: {} as AppPasswordEvent, tags: {} as 'busy' },
  actors: {
    save: fromPromise<{ jwt: string }, AppPasswordBody>(({ input, signal }) => setAppPassword(input, signal)),
  },
  guards: {
    isFormValid: ({ context }) => Object.keys(validateAppPassword(context)).length === 0,
  },
  actions: {
    storeField: assign(({ context }, params: { field: AppPasswordField; value: string }) => {
      const { [params.field]: _dropped, ...fieldErrors } = context.fieldErrors;
      return { [params.field]: params.value, fieldErrors, failure: null, saved: false };
    }),
    showFieldErrors: assign({ fieldErrors: ({ context }) => validateAppPassword(context), saved: false }),
    clearFailure: assign({ failure: null }),
    storeFailure: assign({ failure: (_, params: { message: string }) => params.message }),
    markSaved: assign({ ...EMPTY, saved: true, failure: null }),
  },
}).createMachine({
  id: 'appPassword',
  context: { ...EMPTY, fieldErrors: {}, failure: null, saved: false },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: { type: 'storeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        submit: [{ guard: 'isFormValid', target: 'saving' }, { actions: 'showFieldErrors' }],
      },
    },
    saving: {
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({
          password: context.password,
          passwordConfirmation: context.passwordConfirmation,
          ...(context.currentPassword !== '' ? { currentPassword: context.currentPassword } : {}),
        }),
        onDone: { target: 'editing', actions: 'markSaved' },
        onError: {
          target: 'editing',
          actions: { type: 'storeFailure', params: ({ event }) => ({ message: toUiError(event.error).message }) },
        },
      },
    },
  },
});
