/**
 * "Shared to" on a personal artifact (the feedback loop): where it was shared, and how its copies
 * are discussed.
 *
 *   loading ─(done)→ loaded
 *      └─(failed)→ failed ─(retry)→ loading
 */
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ArtifactShare } from '../../schemas/notifications.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { getArtifactShares } from '../../services/notificationService.ts';

export interface ArtifactSharesInput {
  artifactId: number;
}

export interface ArtifactSharesContext {
  artifactId: number;
  shares: readonly ArtifactShare[];
  error: UiError | null;
}

export type ArtifactSharesEvent = { type: 'retry' };

export const artifactSharesMachine = setup({
  types: {
    context: {} as ArtifactSharesContext,
    events: {} as ArtifactSharesEvent,
    input: {} as ArtifactSharesInput,
  },
  actors: {
    getArtifactShares: fromPromise<ArtifactShare[], { artifactId: number }>(({ input, signal }) =>
      getArtifactShares(input.artifactId, signal),
    ),
  },
}).createMachine({
  id: 'artifactShares',
  context: ({ input }) => ({ artifactId: input.artifactId, shares: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'getArtifactShares',
        src: 'getArtifactShares',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: { target: 'loaded', actions: assign({ shares: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toUiError(event.error) }) },
      },
    },
    failed: {
      on: { retry: 'loading' },
    },
    loaded: {},
  },
});

export type ArtifactSharesRef = ActorRefFrom<typeof artifactSharesMachine>;
export type ArtifactSharesSnapshot = SnapshotFrom<typeof artifactSharesMachine>;
