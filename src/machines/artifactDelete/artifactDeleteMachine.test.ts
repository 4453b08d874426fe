import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { makeSharedArtifact } from '../../test/sharedFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import {
  artifactDeleteMachine,
  DELETED_MESSAGE,
  SHARED_DELETED_MESSAGE,
  SHARED_LEAVE_DELAY_MS,
  type DeletedArtifact,
} from './artifactDeleteMachine.ts';

const artifact = makeArtifact({ id: 12 });
const shared = makeSharedArtifact({ id: 12 });
const refusal = new ApiError(409, 'conflict', 'The artifact has comments.', '');

function start(kind: 'personal' | 'shared', refuse = false) {
  const notices: Notice[] = [];
  const went: number[] = [];
  const deleted: DeletedArtifact[] = [];
  const asked: string[] = [];
  const actor = createActor(
    artifactDeleteMachine.provide({
      actors: {
        deleteArtifact: fromPromise<Artifact, { artifactId: number }>(({ input }) => {
          asked.push(`personal ${input.artifactId}`);
          return refuse ? Promise.reject(refusal) : Promise.resolve(artifact);
        }),
        deleteSharedArtifact: fromPromise<SharedArtifact, { artifactId: number }>(({ input }) => {
          asked.push(`shared ${input.artifactId}`);
          return refuse ? Promise.reject(refusal) : Promise.resolve(shared);
        }),
      },
      actions: {
        notify: (_, notice) => notices.push(notice),
        navigateToPortfolio: (_, params) => went.push(params.portfolioId),
      },
    }),
    { input: { kind, artifactId: 12, portfolioId: 3, name: 'Ramp races' } },
  ).start();
  actor.on('artifact.deleted', (e) => deleted.push(e.artifact));
  return { actor, notices, went, deleted, asked };
}

describe('artifactDeleteMachine guards', () => {
  it('isShared: a personal artifact is deleted through the artifact service', async () => {
    const { actor, asked } = start('personal');
    actor.send({ type: 'artifact.delete' });
    actor.send({ type: 'artifact.confirmDelete' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(asked).toEqual(['personal 12']);
  });

  it('isShared: a shared artifact is deleted through the shared service', async () => {
    const { actor, asked } = start('shared');
    actor.send({ type: 'artifact.delete' });
    actor.send({ type: 'artifact.confirmDelete' });
    await waitFor(actor, (s) => s.matches('leaving'));
    expect(asked).toEqual(['shared 12']);
  });
});

describe('artifactDeleteMachine actions', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('cancelling the question deletes nothing', () => {
    const { actor, asked } = start('personal');
    actor.send({ type: 'artifact.delete' });
    actor.send({ type: 'artifact.cancelDelete' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(asked).toEqual([]);
  });

  it('a personal delete notifies, emits the artifact and opens the portfolio at once', async () => {
    const { actor, notices, went, deleted } = start('personal');
    actor.send({ type: 'artifact.delete' });
    actor.send({ type: 'artifact.confirmDelete' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(notices).toEqual([{ message: DELETED_MESSAGE, tone: 'success' }]);
    expect(deleted).toEqual([artifact]);
    expect(went).toEqual([3]);
  });

  it('a shared delete opens the shared portfolio only after the leave delay', async () => {
    const { actor, notices, went, deleted } = start('shared');
    actor.send({ type: 'artifact.delete' });
    actor.send({ type: 'artifact.confirmDelete' });
    await waitFor(actor, (s) => s.matches('leaving'));
    expect(notices).toEqual([{ message: SHARED_DELETED_MESSAGE, tone: 'success' }]);
    expect(deleted).toEqual([shared]);
    vi.advanceTimersByTime(SHARED_LEAVE_DELAY_MS - 1);
    expect(went).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(went).toEqual([3]);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('a refusal shows the server message as an alert and goes back to idle', async () => {
    const { actor, notices, went, deleted } = start('shared', true);
    actor.send({ type: 'artifact.delete' });
    actor.send({ type: 'artifact.confirmDelete' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(notices).toEqual([{ message: 'The artifact has comments.', tone: 'error' }]);
    expect(deleted).toEqual([]);
    expect(went).toEqual([]);
  });
});
