/**
 * Deleting one artifact, personal or shared (artifact views and edit pages).
 *
 * idle ─(artifact.delete)→ confirming ─(artifact.confirmDelete)→ deleting ─(deleted)→ deleted
 *                              │                 [shared] └→ deletingShared ─(deleted)→ leaving
 *                              └─(artifact.cancelDelete)→ idle                           └─(after leaveDelay)→ deleted
 * deleting | deletingShared ─(failed)→ idle (alert)
 *
 * Happy path: the user answers YES to 'Do you want to delete <name>?'; the artifact is deleted,
 * 'Successfully deleted artifact' shows, listeners hear `artifact.deleted`, and the user goes to
 * the portfolio. A shared artifact says 'Successfully deleted shared artifact' and its portfolio
 * opens two seconds later (spec §9); the server refuses one with comments or reactions.
 */
import { emit, fromPromise, setup } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
import { deleteArtifact } from '../../services/artifactService.ts';
import { toUiError } from '../../services/errors.ts';
import { deleteSharedArtifact } from '../../services/sharedService.ts';
import type { ArtifactKind } from '../artifactLifecycle/artifactSelectors.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export const DELETED_MESSAGE = 'Successfully deleted artifact';
export const SHARED_DELETED_MESSAGE = 'Successfully deleted shared artifact';
/** How long 'Successfully deleted shared artifact' shows before the shared portfolio opens (spec §9). */
export const SHARED_LEAVE_DELAY_MS = 2000;

export interface ArtifactDeleteInput {
  kind: ArtifactKind;
  artifactId: number;
  /** The portfolio, or for a shared artifact the shared portfolio. */
  portfolioId: number;
  /** The artifact's title, for the question. */
  name: string;
}

export type ArtifactDeleteContext = ArtifactDeleteInput;

export type ArtifactDeleteEvent =
  { type: 'artifact.delete' } | { type: 'artifact.confirmDelete' } | { type: 'artifact.cancelDelete' };

/** A deleted artifact as the server returns it. */
export type DeletedArtifact = Artifact | SharedArtifact;

/** Heard by `actor.on('artifact.deleted', …)` once the server deleted the artifact. */
export type ArtifactDeletedEmitted = { type: 'artifact.deleted'; artifact: DeletedArtifact };

export const artifactDeleteMachine = setup({
  types: {
    context: {} as ArtifactDeleteContext,
    events: {} as ArtifactDeleteEvent,
    input: {} as ArtifactDeleteInput,
    emitted: {} as ArtifactDeletedEmitted,
    tags: {} as 'busy',
  },
  actors: {
    deleteArtifact: fromPromise<Artifact, { artifactId: number }>(({ input, signal }) =>
      deleteArtifact(input.artifactId, signal),
    ),
    deleteSharedArtifact: fromPromise<SharedArtifact, { artifactId: number }>(({ input, signal }) =>
      deleteSharedArtifact(input.artifactId, signal),
    ),
  },
  delays: {
    leaveDelay: SHARED_LEAVE_DELAY_MS,
  },
  guards: {
    isShared: ({ context }) => context.kind === 'shared',
  },
  actions: {
    emitDeleted: emit((_, params: { artifact: DeletedArtifact }) => ({
      type: 'artifact.deleted' as const,
      artifact: params.artifact,
    })),
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
    /** Goes to the portfolio page, or the shared portfolio's (provided by the app). */
    navigateToPortfolio: effect<{ portfolioId: number }>('navigateToPortfolio'),
  },
}).createMachine({
  id: 'artifactDelete',
  context: ({ input }) => input,
  initial: 'idle',
  states: {
    idle: {
      on: { 'artifact.delete': 'confirming' },
    },
    confirming: {
      on: {
        'artifact.confirmDelete': [{ guard: 'isShared', target: 'deletingShared' }, { target: 'deleting' }],
        'artifact.cancelDelete': 'idle',
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteArtifact',
        src: 'deleteArtifact',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: {
          target: 'deleted',
          actions: [
            { type: 'notify', params: { message: DELETED_MESSAGE, tone: 'success' } },
            { type: 'emitDeleted', params: ({ event }) => ({ artifact: event.output }) },
            { type: 'navigateToPortfolio', params: ({ context }) => ({ portfolioId: context.portfolioId }) },
          ],
        },
        onError: {
          target: 'idle',
          actions: {
            type: 'notify',
            params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }),
          },
        },
      },
    },
    deletingShared: {
      tags: ['busy'],
      invoke: {
        id: 'deleteSharedArtifact',
        src: 'deleteSharedArtifact',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: {
          target: 'leaving',
          actions: [
            { type: 'notify', params: { message: SHARED_DELETED_MESSAGE, tone: 'success' } },
            { type: 'emitDeleted', params: ({ event }) => ({ artifact: event.output }) },
          ],
        },
        onError: {
          target: 'idle',
          actions: {
            type: 'notify',
            params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }),
          },
        },
      },
    },
    leaving: {
      tags: ['busy'],
      after: {
        leaveDelay: {
          target: 'deleted',
          actions: { type: 'navigateToPortfolio', params: ({ context }) => ({ portfolioId: context.portfolioId }) },
        },
      },
    },
    deleted: { type: 'final' },
  },
});

export type ArtifactDeleteMachine = typeof artifactDeleteMachine;
