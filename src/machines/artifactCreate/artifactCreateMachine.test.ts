import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import { ApiError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import { artifactCreateMachine } from './artifactCreateMachine.ts';

/** Creates an artifact in portfolio 41 with the call answered as given; resolves with the effects seen. */
async function run(answer: () => Promise<Artifact>) {
  const asked: unknown[] = [];
  const openArtifactEditor = vi.fn<(portfolioId: number, artifactId: number) => void>();
  const notify = vi.fn<(notice: Notice) => void>();
  const logic = artifactCreateMachine.provide({
    actors: {
      createArtifact: fromPromise<Artifact, { portfolioId: number }>(async ({ input }) => {
        asked.push(input);
        return answer();
      }),
    },
    actions: {
      openArtifactEditor: (_, p) => openArtifactEditor(p.portfolioId, p.artifactId),
      notify: (_, notice) => notify(notice),
    },
  });
  const actor = createActor(logic, { input: { portfolioId: 41 } }).start();
  await toPromise(actor);
  return { asked, openArtifactEditor, notify, value: actor.getSnapshot().value };
}

describe('artifactCreateMachine actions', () => {
  it('openArtifactEditor: the new artifact of the portfolio opens in its edit page', async () => {
    const result = await run(async () => makeArtifact({ id: 777, portfolio: { id: 41 } }));
    expect(result.asked).toEqual([{ portfolioId: 41 }]);
    expect(result.value).toBe('created');
    expect(result.openArtifactEditor).toHaveBeenCalledWith(41, 777);
    expect(result.notify).not.toHaveBeenCalled();
  });

  it('notify: a failed creation is told as an error, and no editor opens', async () => {
    const result = await run(() =>
      Promise.reject(new ApiError(500, 'internal_error', 'Something went wrong on the server.', '')),
    );
    expect(result.value).toBe('failed');
    expect(result.notify).toHaveBeenCalledWith({ message: 'Something went wrong on the server.', tone: 'error' });
    expect(result.openArtifactEditor).not.toHaveBeenCalled();
  });
});
