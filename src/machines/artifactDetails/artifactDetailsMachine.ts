/**
 * An artifact read whole when it is opened in an artifact browser (the detail pane, a side of the
 * comparison): the table holds artifacts in brief (`GET /portfolios/{id}/summary`), so the
 * structure, the files and the rest come from `GET /artifacts/{id}`. The shared portfolios' pages
 * provide `fetchArtifact` reading `GET /shared-artifacts/{id}` (their tables hold shared artifacts
 * in brief: `GET /shared-portfolios/{id}/summary`).
 *
 * loading ─(artifact)→ ready
 *    ├─(404)→ missing
 *    └─(failed)→ failed ─(retry)→ loading
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import { getArtifact } from '../../services/artifactService.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';

/** An artifact read whole: a personal one, or a shared one (with its discussion). */
export type WholeArtifactData = Artifact | SharedArtifactDetail;

/** Whether an artifact read whole is a shared one. */
export const isSharedWhole = (artifact: WholeArtifactData): artifact is SharedArtifactDetail =>
  'sharedPortfolio' in artifact;

export interface ArtifactDetailsContext {
  artifactId: number;
  /** The artifact, once read. */
  artifact: WholeArtifactData | null;
  error: UiError | null;
}

export const artifactDetailsMachine = setup({
  types: {
    context: {} as ArtifactDetailsContext,
    events: {} as { type: 'retry' },
    input: {} as { artifactId: number },
  },
  actors: {
    fetchArtifact: fromPromise<WholeArtifactData, { artifactId: number }>(({ input, signal }) =>
      getArtifact(input.artifactId, signal),
    ),
  },
  guards: {
    isNotFound: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 404,
  },
  actions: {
    storeArtifact: assign({ artifact: (_, params: { artifact: WholeArtifactData }) => params.artifact, error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
  },
}).createMachine({
  id: 'artifactDetails',
  context: ({ input }) => ({ artifactId: input.artifactId, artifact: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchArtifact',
        src: 'fetchArtifact',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: {
          target: 'ready',
          actions: { type: 'storeArtifact', params: ({ event }) => ({ artifact: event.output }) },
        },
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'missing' },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    ready: {},
    missing: {},
    failed: {
      on: { retry: 'loading' },
    },
  },
});

export type ArtifactDetailsMachine = typeof artifactDetailsMachine;
