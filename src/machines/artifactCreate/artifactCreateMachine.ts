/**
 * Create New Artifact of My Portfolios, invoked by `portfolioBrowser` while it is creating: a new
 * artifact is made in the chosen portfolio and its edit page opens, or the user is told why not.
 *
 * creating ─(created: its edit page opens)→ created
 *    └─(failed: the user is told)→ failed
 */
import { fromPromise, setup } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import { createArtifact } from '../../services/artifactService.ts';
import { toUiError } from '../../services/errors.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export interface ArtifactCreateInput {
  /** The portfolio the artifact is made in. */
  portfolioId: number;
}

export const artifactCreateMachine = setup({
  types: {
    context: {} as ArtifactCreateInput,
    input: {} as ArtifactCreateInput,
  },
  actors: {
    createArtifact: fromPromise<Artifact, { portfolioId: number }>(({ input, signal }) =>
      createArtifact(input.portfolioId, signal),
    ),
  },
  actions: {
    /** Opens the edit page of the new artifact (provided by the app). */
    openArtifactEditor: effect<{ portfolioId: number; artifactId: number }>('openArtifactEditor'),
    /** Tells the user something (provided by the app). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'artifactCreate',
  context: ({ input }) => ({ portfolioId: input.portfolioId }),
  initial: 'creating',
  states: {
    creating: {
      invoke: {
        id: 'createArtifact',
        src: 'createArtifact',
        input: ({ context }) => ({ portfolioId: context.portfolioId }),
        onDone: {
          target: 'created',
          actions: {
            type: 'openArtifactEditor',
            params: ({ context, event }) => ({ portfolioId: context.portfolioId, artifactId: event.output.id }),
          },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'notify',
            params: ({ event }): Notice => ({ message: toUiError(event.error).message, tone: 'error' }),
          },
        },
      },
    },
    created: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type ArtifactCreateMachine = typeof artifactCreateMachine;
