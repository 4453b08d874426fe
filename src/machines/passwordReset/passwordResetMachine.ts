/**
 * Password reset, both halves: asking for a link (`forgot`) and setting a new password with the
 * code of that link (`reset`). The input chooses the half.
 *
 * forgot.editing ─(submit, valid e-mail)→ forgot.sending ─(any answer)→ forgot.sent: alert, go to /login
 *       └─(submit, invalid: field message, no request)
 * reset.editing ─(submit, valid)→ reset.submitting ─(token + user)→ reset.changed: alert, session, origin
 *       ↑   └─(submit, invalid: field messages, no request)   │
 *       └──────────────(server refused: its message)──────────┘
 *
 * The forgot half says the same whatever the server answers (spec §8), so that nobody learns
 * which addresses have accounts.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AuthResponse } from '../../schemas/auth.ts';
import { isEmail, PASSWORD_MIN } from '../../schemas/rules.ts';
import type { Me } from '../../schemas/user.ts';
import { forgotPassword, resetPassword } from '../../services/authService.ts';
import { toUiError } from '../../services/errors.ts';
import { effect } from '../shared/effect.ts';

/** The alerts of spec §8. */
export const PASSWORD_RESET_MESSAGES = {
  linkRequested: 'If your email was valid, a reset password link will be sent to it.',
  passwordChanged: 'Your password has been changed and you have been logged in.',
  /** After a welcome link: the person never had a password before. */
  passwordSet: 'Your password has been set and you have been logged in.',
} as const;

/** Field messages of the two forms. */
export const PASSWORD_RESET_FIELD_MESSAGES = {
  emailRequired: 'Email is required.',
  emailInvalid: 'Please enter a valid email address.',
  passwordRequired: 'New Password is required.',
  passwordTooShort: `Your new password must be at least ${PASSWORD_MIN} characters long.`,
  confirmationRequired: 'Please confirm your new password.',
  mismatch: 'Passwords do not match.',
} as const;

/** `welcome`: the link of a new account or an invitation (the person never had a password). */
export type PasswordResetInput = { flow: 'forgot' } | { flow: 'reset'; code: string; welcome?: boolean };
export type PasswordResetField = 'email' | 'password' | 'passwordConfirmation';
export type PasswordResetFieldErrors = Partial<Record<PasswordResetField, string>>;

export interface PasswordResetContext {
  flow: PasswordResetInput['flow'];
  /** The one-time code of the reset link (empty in the forgot half). */
  code: string;
  /** The link sets a first password (a new account or an invitation) rather than resetting one. */
  welcome: boolean;
  email: string;
  password: string;
  passwordConfirmation: string;
  fieldErrors: PasswordResetFieldErrors;
}

export type PasswordResetEvent =
  { type: 'field.change'; field: PasswordResetField; value: string } | { type: 'passwordReset.submit' };

/** The field message of the forgot form; empty when it may be sent. */
export function validateForgot(form: { email: string }): PasswordResetFieldErrors {
  const email = form.email.trim();
  if (email === '') return { email: PASSWORD_RESET_FIELD_MESSAGES.emailRequired };
  if (!isEmail(email)) return { email: PASSWORD_RESET_FIELD_MESSAGES.emailInvalid };
  return {};
}

/** The field messages of the new-password form; empty when it may be sent. */
export function validateReset(form: { password: string; passwordConfirmation: string }): PasswordResetFieldErrors {
  const errors: PasswordResetFieldErrors = {};
  if (form.password === '') errors.password = PASSWORD_RESET_FIELD_MESSAGES.passwordRequired;
  else if (form.password.length < PASSWORD_MIN) errors.password = PASSWORD_RESET_FIELD_MESSAGES.passwordTooShort;
  if (form.passwordConfirmation === '')
    errors.passwordConfirmation = PASSWORD_RESET_FIELD_MESSAGES.confirmationRequired;
  else if (form.password !== '' && form.passwordConfirmation !== form.password) {
    errors.passwordConfirmation = PASSWORD_RESET_FIELD_MESSAGES.mismatch;
  }
  return errors;
}

function validate(context: PasswordResetContext): PasswordResetFieldErrors {
  return context.flow === 'forgot' ? validateForgot(context) : validateReset(context);
}

function withField(
  context: PasswordResetContext,
  field: PasswordResetField,
  value: string,
): Partial<PasswordResetContext> {
  const { [field]: _dropped, ...fieldErrors } = context.fieldErrors;
  switch (field) {
    case 'email':
      return { email: value, fieldErrors };
    case 'password':
      return { password: value, fieldErrors };
    case 'passwordConfirmation':
      return { passwordConfirmation: value, fieldErrors };
  }
}

export const passwordResetMachine = setup({
  types: {
    input: {} as PasswordResetInput,
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    tags: {} as 'busy',
  },
  actors: {
    forgotPassword: fromPromise<unknown, { email: string }>(({ input, signal }) => forgotPassword(input.email, signal)),
    resetPassword: fromPromise<AuthResponse, { code: string; password: string; passwordConfirmation: string }>(
      ({ input, signal }) => resetPassword(input, signal),
    ),
  },
  guards: {
    isResetFlow: ({ context }) => context.flow === 'reset',
    isFormValid: ({ context }) => Object.keys(validate(context)).length === 0,
  },
  actions: {
    storeField: assign(({ context }, params: { field: PasswordResetField; value: string }) =>
      withField(context, params.field, params.value),
    ),
    showFieldErrors: assign({ fieldErrors: ({ context }) => validate(context) }),
    /** Shows a neutral alert (provided by the app). */
    notifyInfo: effect<{ message: string }>('notifyInfo'),
    /** Shows a success alert (provided by the app). */
    notifySuccess: effect<{ message: string }>('notifySuccess'),
    /** Shows an error alert (provided by the app). */
    notifyFailure: effect<{ message: string }>('notifyFailure'),
    /** Goes to the login page (provided by the app). */
    goToLogin: effect('goToLogin'),
    /** Starts the session of the user and leaves for the origin or the dashboard (provided by the app). */
    completeLogin: effect<{ user: Me }>('completeLogin'),
  },
}).createMachine({
  id: 'passwordReset',
  context: ({ input }) => ({
    flow: input.flow,
    code: input.flow === 'reset' ? input.code : '',
    welcome: input.flow === 'reset' && input.welcome === true,
    email: '',
    password: '',
    passwordConfirmation: '',
    fieldErrors: {},
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'isResetFlow', target: 'reset' }, { target: 'forgot' }],
    },
    forgot: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'field.change': {
              actions: { type: 'storeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
            },
            'passwordReset.submit': [{ guard: 'isFormValid', target: 'sending' }, { actions: 'showFieldErrors' }],
          },
        },
        sending: {
          tags: ['busy'],
          invoke: {
            id: 'forgotPassword',
            src: 'forgotPassword',
            input: ({ context }) => ({ email: context.email.trim() }),
            onDone: 'sent',
            // The same answer either way (spec §8): the outcome must not reveal whether the address has an account.
            onError: 'sent',
          },
        },
        sent: {
          type: 'final',
          tags: ['busy'],
          entry: [{ type: 'notifyInfo', params: { message: PASSWORD_RESET_MESSAGES.linkRequested } }, 'goToLogin'],
        },
      },
    },
    reset: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'field.change': {
              actions: { type: 'storeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
            },
            'passwordReset.submit': [{ guard: 'isFormValid', target: 'submitting' }, { actions: 'showFieldErrors' }],
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ context }) => ({
              code: context.code,
              password: context.password,
              passwordConfirmation: context.passwordConfirmation,
            }),
            onDone: {
              target: 'changed',
              actions: [
                {
                  type: 'notifySuccess',
                  params: ({ context }) => ({
                    message: context.welcome
                      ? PASSWORD_RESET_MESSAGES.passwordSet
                      : PASSWORD_RESET_MESSAGES.passwordChanged,
                  }),
                },
                { type: 'completeLogin', params: ({ event }) => ({ user: event.output.user }) },
              ],
            },
            onError: {
              target: 'editing',
              actions: { type: 'notifyFailure', params: ({ event }) => ({ message: toUiError(event.error).message }) },
            },
          },
        },
        changed: {
          type: 'final',
          tags: ['busy'],
        },
      },
    },
  },
});

export type PasswordResetMachine = typeof passwordResetMachine;
