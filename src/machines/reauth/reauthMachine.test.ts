import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Me } from '../../schemas/user.ts';
import { ApiError } from '../../services/errors.ts';
import { makeUser } from '../../test/renderApp.tsx';
import { LOGIN_FAILED_MESSAGE } from '../login/loginMachine.ts';
import { OTHER_ACCOUNT_MESSAGE, reauthMachine } from './reauthMachine.ts';

const teacher = makeUser('teacher', { id: 3, email: 'teacher@example.org' });
const other = makeUser('teacher', { id: 4, email: 'other@example.org' });
const wrongPassword = new ApiError(401, 'unauthorized', 'Invalid credentials.', '');
const throttled = new ApiError(429, 'too_many', 'Too many attempts. Try again in a minute.', '');

function start(answer: () => Promise<Me> = async () => teacher) {
  const sent: { identifier: string; password: string }[] = [];
  const back: Me[] = [];
  const gaveUp: string[] = [];
  const actor = createActor(
    reauthMachine.provide({
      actors: {
        signInWithPassword: fromPromise<Me, { identifier: string; password: string }>(({ input }) => {
          sent.push(input);
          return answer();
        }),
      },
      actions: {
        signedInAgain: (_, params) => back.push(params.user),
        gaveUp: () => gaveUp.push('gave up'),
      },
    }),
    { input: { email: 'teacher@example.org', userId: 3 } },
  ).start();
  actor.send({ type: 'reauth.needed' });
  return { actor, sent, back, gaveUp };
}

describe('reauthMachine guards', () => {
  it('hasPassword: an empty password is not sent', () => {
    const { actor, sent } = start();
    actor.send({ type: 'reauth.submit', method: 'password' });
    expect(actor.getSnapshot().value).toBe('asking');
    expect(sent).toEqual([]);
  });

  it('isSameAccount: signing in as another account is refused with its message', async () => {
    const { actor, back } = start(async () => other);
    actor.send({ type: 'field.change', value: 'secret' });
    actor.send({ type: 'reauth.submit', method: 'password' });
    await waitFor(actor, (s) => s.matches('asking') && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ error: OTHER_ACCOUNT_MESSAGE, password: '' });
    expect(back).toEqual([]);
  });
});

describe('reauthMachine actions', () => {
  it('signs in as the account that was signed in, forgets the password and hands the user back', async () => {
    const { actor, sent, back } = start();
    actor.send({ type: 'field.change', value: 'secret' });
    actor.send({ type: 'reauth.submit', method: 'password' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(sent).toEqual([{ identifier: 'teacher@example.org', password: 'secret' }]);
    expect(back).toEqual([teacher]);
    expect(actor.getSnapshot().context).toMatchObject({ password: '', error: null });
  });

  it('a wrong password gets the generic message; a throttle gets the server message; typing clears it', async () => {
    let failure = wrongPassword;
    const { actor } = start(() => Promise.reject(failure));
    actor.send({ type: 'field.change', value: 'wrong' });
    actor.send({ type: 'reauth.submit', method: 'password' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ error: LOGIN_FAILED_MESSAGE, password: '' });
    failure = throttled;
    actor.send({ type: 'field.change', value: 'again' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'reauth.submit', method: 'password' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Too many attempts. Try again in a minute.');
  });

  it('giving up forgets the password and ends the dialog', () => {
    const { actor, gaveUp } = start();
    actor.send({ type: 'field.change', value: 'half typed' });
    actor.send({ type: 'reauth.giveUp' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.password).toBe('');
    expect(gaveUp).toEqual(['gave up']);
  });
});
