import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import type { CreateUserBody, User } from '../../schemas/user.ts';
import { ApiError } from '../../services/errors.ts';
import { makeUser } from '../../test/renderApp.tsx';
import type { Notice } from '../shared/notice.ts';
import { createUserMachine, type UserCreatedEvent } from './createUserMachine.ts';
import { ROLE_REQUIRED_MESSAGE, type NewUserValues } from './newUserForm.ts';

const created = makeUser('teacher', { id: 50, username: 'Nia Novak', email: 'nia@example.org' });

/** The dialog inside a parent that records what the dialog reports. */
function start(answer: () => Promise<User> = async () => created) {
  const notices: Notice[] = [];
  const sent: CreateUserBody[] = [];
  const reported: UserCreatedEvent[] = [];
  const dialog = createUserMachine.provide({
    actors: {
      createUser: fromPromise<User, CreateUserBody>(({ input }) => {
        sent.push(input);
        return answer();
      }),
    },
    actions: { notify: (_, notice) => notices.push(notice) },
  });
  const parent = createActor(
    setup({
      types: { events: {} as UserCreatedEvent, children: {} as { dialog: 'dialog' } },
      actors: { dialog },
    }).createMachine({
      invoke: { id: 'dialog', src: 'dialog' },
      on: { 'user.created': { actions: ({ event }) => reported.push(event) } },
    }),
  ).start();
  const actor = parent.getSnapshot().children.dialog!;
  return { actor, notices, sent, reported };
}

function fill(actor: ReturnType<typeof start>['actor'], values: NewUserValues) {
  for (const field of ['username', 'email', 'roleId'] as const) {
    actor.send({ type: 'field.change', field, value: values[field] });
  }
}

describe('createUserMachine guards', () => {
  it('isFormValid: an incomplete form is not sent; each wrong field gets its message', () => {
    const { actor, sent } = start();
    actor.send({ type: 'dialog.open' });
    fill(actor, { username: 'Nia', email: 'not-an-address', roleId: '' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().matches({ open: 'form' })).toBe(true);
    expect(sent).toEqual([]);
    expect(actor.getSnapshot().context.errors).toEqual({
      email: expect.stringContaining('is not a valid email address.'),
      roleId: ROLE_REQUIRED_MESSAGE,
    });
  });
});

describe('createUserMachine actions', () => {
  it('storeField: messages follow the typing only after a submit was tried', () => {
    const { actor } = start();
    actor.send({ type: 'dialog.open' });
    actor.send({ type: 'field.change', field: 'email', value: 'x' });
    expect(actor.getSnapshot().context.errors).toEqual({});
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().context.errors.email).toBeDefined();
    actor.send({ type: 'field.change', field: 'email', value: 'nia@example.org' });
    expect(actor.getSnapshot().context.errors.email).toBeUndefined();
    expect(actor.getSnapshot().context.errors.username).toBeDefined();
  });

  it('a created user is announced, reported to the parent, and the form is emptied', async () => {
    const { actor, notices, sent, reported } = start();
    actor.send({ type: 'dialog.open' });
    fill(actor, { username: ' Nia Novak ', email: 'nia@example.org', roleId: '1' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(sent).toEqual([{ username: 'Nia Novak', email: 'nia@example.org', roleId: 1 }]);
    expect(notices).toEqual([{ message: 'User Nia Novak successfully created.', tone: 'success' }]);
    expect(reported).toEqual([{ type: 'user.created', user: created }]);
    expect(actor.getSnapshot().context).toEqual({
      values: { username: '', email: '', roleId: '' },
      errors: {},
      validated: false,
    });
  });

  it('a refusal alerts the reason and keeps what was typed', async () => {
    const { actor, notices, reported } = start(() =>
      Promise.reject(new ApiError(400, 'invalid', 'Email already taken', '')),
    );
    actor.send({ type: 'dialog.open' });
    fill(actor, { username: 'Nia', email: 'nia@example.org', roleId: '4' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches({ open: { form: 'failed' } }));
    expect(notices).toEqual([{ message: 'Email already taken', tone: 'error' }]);
    expect(reported).toEqual([]);
    expect(actor.getSnapshot().context.values.email).toBe('nia@example.org');
  });

  it('resetForm: cancelling forgets what was typed', () => {
    const { actor } = start();
    actor.send({ type: 'dialog.open' });
    actor.send({ type: 'field.change', field: 'username', value: 'Nia' });
    actor.send({ type: 'dialog.cancel' });
    expect(actor.getSnapshot().context.values.username).toBe('');
  });
});
