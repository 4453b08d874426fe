/**
 * The save of the edit page's checked answers, invoked by `artifactLifecycle` while it is saving:
 * a personal artifact's PUT, or for a shared artifact the invoked `sharedArtifactSave` (gate
 * check, Edit Conflict question). It ends with its outcome; the page tells the user and goes on.
 *
 * choosing ─[shared]→ savingShared ─(saved)→ saved
 *    │                     ├─(stopped: the save already alerted why)→ stopped
 *    │                     ├─(NO at the Edit Conflict question: nothing sent)→ declined
 *    │                     └─(failed)→ failed
 *    └→ saving ─(saved)→ saved
 *          └─(refused / failed)→ failed
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { Artifact, ArtifactUpdateBody } from '../../schemas/artifact.ts';
import type { Responses } from '../../schemas/structure.ts';
import { updateArtifact } from '../../services/artifactService.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { sharedArtifactSaveMachine, type SharedSaveOutcome } from '../sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { ArtifactKind } from './artifactSelectors.ts';
import { saveBody, type SaveIntent } from './artifactLifecycleTypes.ts';

export interface ArtifactSaveInput {
  kind: ArtifactKind;
  portfolioId: number;
  artifactId: number;
  intent: SaveIntent;
  /** The cleaned responses to send. */
  responses: Responses;
  /** The version the page loaded (a shared artifact's gate check compares it). */
  updatedAt: string;
}

/** How the save ended: a personal save answers with the artifact; a shared one's page reloads it. */
export type ArtifactSaveOutput =
  | { outcome: 'saved'; artifact: Artifact | null }
  | { outcome: 'stopped'; error: UiError }
  | { outcome: 'failed'; error: UiError }
  | { outcome: 'declined' };

interface ArtifactSaveContext extends ArtifactSaveInput {
  output: ArtifactSaveOutput;
}

export const artifactSaveMachine = setup({
  types: {
    context: {} as ArtifactSaveContext,
    input: {} as ArtifactSaveInput,
    output: {} as ArtifactSaveOutput,
  },
  actors: {
    updateArtifact: fromPromise<Artifact, { artifactId: number; body: ArtifactUpdateBody }>(({ input, signal }) =>
      updateArtifact(input.artifactId, input.body, signal),
    ),
    sharedArtifactSave: sharedArtifactSaveMachine,
  },
  guards: {
    isShared: ({ context }) => context.kind === 'shared',
    isSaved: (_, params: { outcome: SharedSaveOutcome }) => params.outcome.outcome === 'saved',
    isStopped: (_, params: { outcome: SharedSaveOutcome }) => params.outcome.outcome === 'stopped',
  },
  actions: {
    storeSaved: assign({
      output: (_, params: { artifact: Artifact | null }) => ({ outcome: 'saved' as const, artifact: params.artifact }),
    }),
    storeStopped: assign({
      output: ({ context }, params: { outcome: SharedSaveOutcome }) =>
        params.outcome.outcome === 'stopped'
          ? { outcome: 'stopped' as const, error: params.outcome.error }
          : context.output,
    }),
    storeFailed: assign({
      output: (_, params: { error: unknown }) => ({ outcome: 'failed' as const, error: toUiError(params.error) }),
    }),
  },
}).createMachine({
  id: 'artifactSave',
  context: ({ input }) => ({ ...input, output: { outcome: 'declined' } }),
  output: ({ context }) => context.output,
  initial: 'choosing',
  states: {
    choosing: {
      always: [{ guard: 'isShared', target: 'savingShared' }, { target: 'saving' }],
    },
    saving: {
      invoke: {
        id: 'updateArtifact',
        src: 'updateArtifact',
        input: ({ context }) => ({ artifactId: context.artifactId, body: saveBody(context.intent, context.responses) }),
        onDone: {
          target: 'saved',
          actions: { type: 'storeSaved', params: ({ event }) => ({ artifact: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: { type: 'storeFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    savingShared: {
      invoke: {
        id: 'sharedArtifactSave',
        src: 'sharedArtifactSave',
        input: ({ context }) => ({
          portfolioId: context.portfolioId,
          artifactId: context.artifactId,
          responses: context.responses,
          updatedAt: context.updatedAt,
        }),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => ({ outcome: event.output }) },
            target: 'saved',
            actions: { type: 'storeSaved', params: { artifact: null } },
          },
          {
            guard: { type: 'isStopped', params: ({ event }) => ({ outcome: event.output }) },
            target: 'stopped',
            actions: { type: 'storeStopped', params: ({ event }) => ({ outcome: event.output }) },
          },
          { target: 'declined' },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    saved: { type: 'final' },
    stopped: { type: 'final' },
    declined: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type ArtifactSaveRef = ActorRefFrom<typeof artifactSaveMachine>;
