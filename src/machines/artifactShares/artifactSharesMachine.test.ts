import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ArtifactShare } from '../../schemas/notifications.ts';
import { ApiError } from '../../services/errors.ts';
import { artifactSharesMachine } from './artifactSharesMachine.ts';

const share: ArtifactShare = {
  sharedPortfolio: { id: 4, name: 'Science circle' },
  sharedArtifact: { id: 70, title: 'Ramp races' },
  shared_at: '2026-11-01T10:00:00.000Z',
  commentCount: 1,
  latestComments: [
    { id: 9, text: 'Lovely', owner: { id: 2, username: 'theo' }, created_at: '2026-11-02T10:00:00.000Z' },
  ],
};

function start(...answers: (() => Promise<ArtifactShare[]>)[]) {
  const asked: number[] = [];
  const actor = createActor(
    artifactSharesMachine.provide({
      actors: {
        getArtifactShares: fromPromise<ArtifactShare[], { artifactId: number }>(({ input }) => {
          asked.push(input.artifactId);
          return (answers.shift() ?? (async () => [share]))();
        }),
      },
    }),
    { input: { artifactId: 12 } },
  ).start();
  return { actor, asked };
}

describe('artifactSharesMachine actions', () => {
  it('keeps the shares of the input artifact', async () => {
    const { actor, asked } = start();
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(asked).toEqual([12]);
    expect(actor.getSnapshot().context.shares).toEqual([share]);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('keeps the failure as shown, and a successful retry clears it', async () => {
    const { actor } = start(() => Promise.reject(new ApiError(500, 'internal_error', 'Boom', '')));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'unexpected', status: 500, message: 'Boom' });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(actor.getSnapshot().context.shares).toHaveLength(1);
  });
});
