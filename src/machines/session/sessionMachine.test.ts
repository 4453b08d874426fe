import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Me } from '../../schemas/user.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeUser } from '../../test/renderApp.tsx';
import { sessionMachine } from './sessionMachine.ts';

const teacher = makeUser('teacher', { id: 3 });

const OFFER = { label: 'District ADFS', url: 'https://adfs.district.example/adfs/ls/?SAMLRequest=x' };

function start(
  hasToken: boolean,
  answer: () => Promise<Me> = async () => teacher,
  logout: () => Promise<typeof OFFER | null> = async () => null,
) {
  const done: string[] = [];
  const asked: string[] = [];
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        fetchMe: fromPromise<Me>(() => {
          asked.push('me');
          return answer();
        }),
        endServerSession: fromPromise(() => {
          done.push('endServerSession');
          return logout();
        }),
      },
      actions: {
        signIn: (_, params) => done.push(`signIn ${params.user.id}`),
        signOut: () => done.push('signOut'),
        offerProviderLogout: (_, params) => done.push(`offer ${params.offer.label}`),
        forgetDrafts: () => done.push('forgetDrafts'),
        markAnonymous: () => done.push('markAnonymous'),
        reloadHome: (_, params) => done.push(`reload ${params.path}`),
      },
    }),
    { input: { hasToken } },
  ).start();
  return { actor, done, asked };
}

describe('sessionMachine guards', () => {
  it('hasToken: without a stored token nobody is asked and the visitor is anonymous', () => {
    const { actor, done, asked } = start(false);
    expect(actor.getSnapshot().value).toBe('anonymous');
    expect(asked).toEqual([]);
    expect(done).toEqual(['markAnonymous']);
  });

  it('isUnauthorized: a 401 signs out; any other failure keeps the token and offers a retry', async () => {
    const refused = start(true, () => Promise.reject(new ApiError(401, 'unauthorized', 'Sign in.', '')));
    await waitFor(refused.actor, (s) => s.matches('anonymous'));
    expect(refused.done).toEqual(['signOut', 'markAnonymous']);

    let fail = true;
    const offline = start(true, () => (fail ? Promise.reject(new NetworkError()) : Promise.resolve(teacher)));
    await waitFor(offline.actor, (s) => s.matches('unreachable'));
    expect(offline.done).toEqual([]);
    expect(offline.actor.getSnapshot().context.error).toMatchObject({ kind: 'network', status: null });
    fail = false;
    offline.actor.send({ type: 'retry' });
    await waitFor(offline.actor, (s) => s.matches('authenticated'));
    expect(offline.done).toEqual(['signIn 3']);
  });
});

describe('sessionMachine actions', () => {
  it('a stored token for a known user signs that user in', async () => {
    const { actor, done } = start(true);
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(done).toEqual(['signIn 3']);
  });

  it('logging out forgets the drafts, ends the server session, signs out and reloads, in that order', async () => {
    const { actor, done } = start(true);
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(done).toEqual(['signIn 3', 'forgetDrafts', 'endServerSession', 'signOut', 'reload /']);
  });

  it('offersProviderLogout: a provider’s sign-out offered by the server is kept for the login page', async () => {
    const { actor, done } = start(true, undefined, async () => OFFER);
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('providerLogoutOffered');
    expect(done).toEqual([
      'signIn 3',
      'forgetDrafts',
      'endServerSession',
      'offer District ADFS',
      'signOut',
      'reload /login',
    ]);
  });

  it('a logout that fails all the same still signs out here', async () => {
    const { actor, done } = start(true, undefined, () => Promise.reject(new NetworkError()));
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(done.slice(-2)).toEqual(['signOut', 'reload /']);
  });

  it('an expired session signs out and keeps the drafts; signing in again works', async () => {
    const { actor, done } = start(true);
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'session.expired' });
    expect(actor.getSnapshot().value).toBe('anonymous');
    actor.send({ type: 'session.loggedIn', user: makeUser('researcher', { id: 8 }) });
    expect(actor.getSnapshot().value).toBe('authenticated');
    expect(done).toEqual(['signIn 3', 'signOut', 'markAnonymous', 'signIn 8']);
  });
});
