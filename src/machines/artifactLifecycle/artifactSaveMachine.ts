/**
 * The save of the edit page's checked answers, invoked by `artifactLifecycle` while it is saving:
 * a personal artifact's PUT, or for a shared artifact the invoked `sharedArtifactSave` (gate
 * check, a merge with a save in between and its conflict dialog). It tells the user how it went ('Successfully edited artifact', or the
 * server's message as an alert) and ends with its outcome; the page goes on from there.
 *
 * choosing ─[shared]→ savingShared ─(saved)→ saved
 *    │                     ├─(stopped: the shared save already alerted why)→ stopped
 *    │                     ├─(Cancel in the conflict dialog: nothing sent)→ declined
 *    │                     └─(failed)→ failed
 *    └→ saving ─(saved)→ saved
 *          └─(refused / failed)→ failed
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { Artifact, ArtifactUpdateBody } from '../../schemas/artifact.ts';
import type { Responses, Structure } from '../../schemas/structure.ts';
import { updateArtifact } from '../../services/artifactService.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { sharedArtifactSaveMachine, type SharedSaveOutcome } from '../sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { ArtifactKind } from './artifactSelectors.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';
import { saveBody, savedMessage, type SaveIntent } from './artifactLifecycleTypes.ts';

export interface ArtifactSaveInput {
  kind: ArtifactKind;
  portfolioId: number;
  artifactId: number;
  intent: SaveIntent;
  /** The cleaned responses to send. */
  responses: Responses;
  /** The version the page loaded (a shared artifact's gate check compares it). */
  updatedAt: string;
  /** A shared artifact's version number the page loaded (a merge starts from it; `0` for a personal artifact). */
  version: number;
  /** The artifact's questions. */
  questions: Structure;
}

/** How the save ended: a personal save answers with the artifact; a shared one's page reloads it. */
export type ArtifactSaveOutput =
  | { outcome: 'saved'; artifact: Artifact | null }
  | { outcome: 'stopped'; error: UiError }
  | { outcome: 'failed'; error: UiError }
  | { outcome: 'declined' };

/** The save of what the edit page holds: its checked responses and the version it loaded. */
export function saveInputOf(page: {
  kind: ArtifactKind;
  portfolioId: number;
  artifactId: number;
  intent: SaveIntent | null;
  responses: Responses;
  artifact: { updated_at: string; structure: Structure; version?: number } | null;
}): ArtifactSaveInput {
  const { kind, portfolioId, artifactId, intent, responses, artifact } = page;
  return {
    kind,
    portfolioId,
    artifactId,
    intent: intent ?? 'save',
    responses,
    updatedAt: artifact?.updated_at ?? '',
    version: artifact?.version ?? 0,
    questions: artifact?.structure ?? [],
  };
}

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
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
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
          version: context.version,
          questions: context.questions,
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
    saved: {
      type: 'final',
      entry: { type: 'notify', params: ({ context }) => ({ message: savedMessage(context.kind), tone: 'success' }) },
    },
    stopped: { type: 'final' },
    declined: { type: 'final' },
    // The server refused or could not be reached: its message is alerted, the page keeps the answers.
    failed: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({
          message: context.output.outcome === 'failed' ? context.output.error.message : '',
          tone: 'error',
        }),
      },
    },
  },
});

export type ArtifactSaveRef = ActorRefFrom<typeof artifactSaveMachine>;
