import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { artifactDetailsMachine, type WholeArtifactData } from './artifactDetailsMachine.ts';

const artifact = makeArtifact({ id: 12, parkingLot: true });

/** Reads artifact 12 with `answer`; each call takes the next answer. */
function start(...answers: (() => Promise<Artifact>)[]) {
  const asked: number[] = [];
  const actor = createActor(
    artifactDetailsMachine.provide({
      actors: {
        fetchArtifact: fromPromise<WholeArtifactData, { artifactId: number }>(({ input }) => {
          asked.push(input.artifactId);
          return (answers.shift() ?? (async () => artifact))();
        }),
      },
    }),
    { input: { artifactId: 12 } },
  ).start();
  return { actor, asked };
}

describe('artifactDetailsMachine guards', () => {
  it('isNotFound: a 404 means the artifact is missing, with no error kept', async () => {
    const { actor } = start(() => Promise.reject(new ApiError(404, 'not_found', 'Not Found', '')));
    await waitFor(actor, (s) => !s.matches('loading'));
    expect(actor.getSnapshot().value).toBe('missing');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('isNotFound: any other refusal is a failure', async () => {
    const { actor } = start(() => Promise.reject(new ApiError(403, 'forbidden', 'Forbidden', '')));
    await waitFor(actor, (s) => !s.matches('loading'));
    expect(actor.getSnapshot().value).toBe('failed');
  });
});

describe('artifactDetailsMachine actions', () => {
  it('storeArtifact keeps the artifact read for the input id', async () => {
    const { actor, asked } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked).toEqual([12]);
    expect(actor.getSnapshot().context.artifact).toEqual(artifact);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('storeError keeps the failure as shown; a retry that succeeds clears it', async () => {
    const { actor, asked } = start(() => Promise.reject(new NetworkError()));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({
      kind: 'network',
      status: null,
      message: new NetworkError().message,
    });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(asked).toEqual([12, 12]);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(actor.getSnapshot().context.artifact).toEqual(artifact);
  });
});
