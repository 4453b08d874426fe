import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LinkedIdentity, SignInMethodList } from '../../schemas/sso.ts';
import { signInMethodsMachine } from './signInMethodsMachine.ts';

const school: LinkedIdentity = {
  id: 3,
  provider: 'school',
  label: 'Springfield Schools',
  email: 'tess@springfield.example',
  linked_at: '2026-11-02T09:30:00.000Z',
};

function start(methods: SignInMethodList) {
  const asked: number[] = [];
  const actor = createActor(
    signInMethodsMachine.provide({
      actions: { notify: () => undefined },
      actors: {
        listSignInMethods: fromPromise<SignInMethodList, { userId: number }>(async ({ input }) => {
          asked.push(input.userId);
          return methods;
        }),
        unlinkIdentity: fromPromise<SignInMethodList, { userId: number; identityId: number }>(async () => ({
          ...methods,
          identities: [],
        })),
      },
    }),
  ).start();
  actor.send({ type: 'methods.open', account: { id: 8, username: 'Tess' } });
  return { actor, asked };
}

describe('signInMethodsMachine guards', () => {
  it('isListed: only an identity the server listed for the account is asked about', async () => {
    const { actor } = start({ password: true, identities: [school] });
    await waitFor(actor, (s) => s.matches({ open: 'shown' }));
    actor.send({ type: 'identity.unlink', identity: { ...school, id: 99 } });
    expect(actor.getSnapshot().matches({ open: 'shown' })).toBe(true);
    actor.send({ type: 'identity.unlink', identity: school });
    expect(actor.getSnapshot().context.pending).toEqual(school);
  });

  it('canClose: closing waits for an unlink under way, and is allowed otherwise', async () => {
    const { actor } = start({ password: true, identities: [school] });
    await waitFor(actor, (s) => s.matches({ open: 'shown' }));
    actor.send({ type: 'identity.unlink', identity: school });
    actor.send({ type: 'identity.confirm' });
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ open: 'unlinking' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ open: 'shown' }));
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });
});

describe('signInMethodsMachine actions', () => {
  it('storeAccount / reset: each opening starts from nothing and loads that account', async () => {
    const { actor, asked } = start({ password: false, identities: [school] });
    await waitFor(actor, (s) => s.matches({ open: 'shown' }));
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().context).toEqual({
      account: null,
      methods: null,
      pending: null,
      loadError: null,
      refusal: null,
    });
    actor.send({ type: 'methods.open', account: { id: 9, username: 'Theo' } });
    expect(actor.getSnapshot().context.methods).toBeNull();
    await waitFor(actor, (s) => s.matches({ open: 'shown' }));
    expect(asked).toEqual([8, 9]);
  });
});
