/**
 * Create New User dialog (researchers, on Manage Users).
 *
 * closed ─(dialog.open)→ open.form.editing ─(form.submit, valid)→ open.submitting ─(created)→ done → closed
 *                          │    ↑ invalid: messages shown              └─(failed)→ open.form.failed (form kept)
 *                          └─(dialog.cancel)→ closed
 *
 * The form is checked with the shared contract before sending. On success the user is told, and
 * the new account is reported to the parent (`user.created`) so the table shows it at once.
 * On failure the user is told the server's reason and the form says so, keeping what was typed.
 */
import { assign, fromPromise, sendParent, setup } from 'xstate';
import type { CreateUserBody, User } from '../../schemas/user.ts';
import { toUiError } from '../../services/errors.ts';
import { createUser } from '../../services/userService.ts';
import { effect } from '../shared/effect.ts';
import {
  checkNewUser,
  EMPTY_NEW_USER,
  type NewUserErrors,
  type NewUserField,
  type NewUserValues,
} from './newUserForm.ts';
import type { Notice } from '../shared/notice.ts';

export interface CreateUserContext {
  values: NewUserValues;
  /** Messages per field; shown once the user tried to submit. */
  errors: NewUserErrors;
  /** Whether the user tried to submit since the dialog opened (messages then follow the typing). */
  validated: boolean;
}

export type CreateUserEvent =
  | { type: 'dialog.open' }
  | { type: 'dialog.cancel' }
  | { type: 'field.change'; field: NewUserField; value: string }
  | { type: 'form.submit' };

/** What the dialog tells its parent when an account was created. */
export type UserCreatedEvent = { type: 'user.created'; user: User };

export const createUserMachine = setup({
  types: {
    context: {} as CreateUserContext,
    events: {} as CreateUserEvent,
    tags: {} as 'busy',
  },
  actors: {
    createUser: fromPromise<User, CreateUserBody>(({ input, signal }) => createUser(input, signal)),
  },
  guards: {
    isFormValid: ({ context }) => checkNewUser(context.values).errors === null,
  },
  actions: {
    resetForm: assign({ values: EMPTY_NEW_USER, errors: {}, validated: false }),
    storeField: assign(({ context }, params: { field: NewUserField; value: string }) => {
      const values = { ...context.values, [params.field]: params.value };
      // Once messages are on screen they follow what is typed.
      return { values, errors: context.validated ? (checkNewUser(values).errors ?? {}) : {} };
    }),
    showErrors: assign(({ context }) => ({ errors: checkNewUser(context.values).errors ?? {}, validated: true })),
    clearErrors: assign({ errors: {} }),
    reportCreated: sendParent((_, params: { user: User }): UserCreatedEvent => ({
      type: 'user.created',
      user: params.user,
    })),
    /** Tells the user something (provided by the app: a toast). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'createUser',
  context: { values: EMPTY_NEW_USER, errors: {}, validated: false },
  initial: 'closed',
  states: {
    closed: {
      entry: 'resetForm',
      on: { 'dialog.open': 'open' },
    },
    open: {
      initial: 'form',
      states: {
        form: {
          initial: 'editing',
          on: {
            'field.change': {
              actions: { type: 'storeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
            },
            'form.submit': [
              { guard: 'isFormValid', target: 'submitting', actions: 'clearErrors' },
              { actions: 'showErrors' },
            ],
            'dialog.cancel': '#createUser.closed',
          },
          states: {
            editing: {},
            failed: {},
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'createUser',
            src: 'createUser',
            input: ({ context }) => {
              const { body } = checkNewUser(context.values);
              if (!body) throw new Error('The form was checked before sending.');
              return body;
            },
            onDone: {
              target: '#createUser.done',
              actions: [
                {
                  type: 'notify',
                  params: ({ event }) => ({
                    message: `User ${event.output.username} successfully created.`,
                    tone: 'success',
                  }),
                },
                { type: 'reportCreated', params: ({ event }) => ({ user: event.output }) },
              ],
            },
            onError: {
              target: 'form.failed',
              actions: {
                type: 'notify',
                params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }),
              },
            },
          },
        },
      },
    },
    done: {
      always: 'closed',
    },
  },
});

export type CreateUserMachine = typeof createUserMachine;
