import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { UnsubscribeResponse } from '../../schemas/notifications.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { NO_TOKEN, unsubscribeMachine } from './unsubscribeMachine.ts';

const result: UnsubscribeResponse = { kind: 'all', email: 'tess@example.org' };

function start(token: string, ...answers: (() => Promise<UnsubscribeResponse>)[]) {
  const sent: string[] = [];
  const actor = createActor(
    unsubscribeMachine.provide({
      actors: {
        unsubscribe: fromPromise<UnsubscribeResponse, { token: string }>(({ input }) => {
          sent.push(input.token);
          return (answers.shift() ?? (async () => result))();
        }),
      },
    }),
    { input: { token } },
  ).start();
  return { actor, sent };
}

describe('unsubscribeMachine guards', () => {
  it('hasToken: a blank token sends nothing and says why', () => {
    const { actor, sent } = start('   ');
    expect(actor.getSnapshot().value).toBe('noToken');
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'invalid', status: null, message: NO_TOKEN });
    expect(sent).toEqual([]);
  });

  it('hasToken: a token (trimmed) is sent, and the answer kept', async () => {
    const { actor, sent } = start(' t0ken ');
    await waitFor(actor, (s) => s.matches('done'));
    expect(sent).toEqual(['t0ken']);
    expect(actor.getSnapshot().context.result).toEqual(result);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('canRetry: a refused link cannot be tried again', async () => {
    const { actor } = start('t0ken', () => Promise.reject(new ApiError(400, 'invalid_token', 'Link expired.', '')));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'invalid', status: 400, message: 'Link expired.' });
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(false);
  });

  it('canRetry: after a network failure it can, and the retry clears the failure', async () => {
    const { actor, sent } = start('t0ken', () => Promise.reject(new NetworkError()));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(sent).toEqual(['t0ken', 't0ken']);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
