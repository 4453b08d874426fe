/**
 * Saving the answers of a shared artifact without silently overwriting someone else's save
 * (spec §4, reference §5.1, architecture §4). The edit page's `artifactLifecycle` invokes it
 * once the form is valid; it ends with an outcome the page acts on.
 *
 * checking ─(ok)→ saving ─(saved)→ saved
 *    ├─(warning)→ confirming ─(overwrite.confirm)→ saving
 *    │                 └─(overwrite.cancel)→ cancelled
 *    └─(error | failed)→ stopped (the message is alerted)
 * saving ─(409: someone saved in between)→ rechecking ─(newest version)→ confirming
 *    └─(failed)→ stopped (alert)                 └─(error | failed)→ stopped (alert)
 *
 * Happy path: the gate check with the version the editor loaded says ok, and the PUT carries
 * that version. On a conflict the dialog asks whether to overwrite; YES sends the PUT with the
 * version the gate check returned, which the server accepts unless someone saved again in the
 * meantime. Then it answers 409 and changes nothing: a fresh gate check learns the newest version
 * and the question is asked again, so YES can still succeed. The question names who saved in
 * between and when (the gate check's `saved_by` and `updated_at`); the server's message stands in
 * when the answer does not tell.
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { GateCheckResponse } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
import type { Responses } from '../../schemas/structure.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { gateCheck, updateSharedArtifact } from '../../services/sharedService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

/** The question of the Edit Conflict dialog, after the server's message (reference §5.1). */
export const OVERWRITE_QUESTION = 'Are you sure you want to overwrite their changes?';

export interface SharedArtifactSaveInput {
  portfolioId: number;
  artifactId: number;
  /** The cleaned answers to save. */
  responses: Responses;
  /** The `updated_at` of the version the editor loaded. */
  updatedAt: string;
}

export interface SharedArtifactSaveContext extends SharedArtifactSaveInput {
  /** The `updated_at` the PUT carries: the loaded one, or after a conflict the stored one. */
  version: string;
  /** Why the dialog asks (the gate check's or the server's message). */
  conflictMessage: string | null;
  /** The save that came in between: when, and who made it (when the server knows). */
  conflictSave: ConflictingSave | null;
  /** Why the save stopped. */
  error: UiError | null;
  /** The artifact as saved. */
  artifact: SharedArtifact | null;
}

/** Someone's save after the editor loaded the artifact. */
export interface ConflictingSave {
  /** When it was saved (ISO). */
  at: string;
  /** Who saved it; `null`: not known. */
  by: { id: number; username: string } | null;
}

/** The save a warning tells of; `null` when the answer does not say who saved (then the server's message is shown). */
const conflictingSave = (answer: GateCheckResponse): ConflictingSave | null =>
  answer.type === 'warning' && answer.updated_at && answer.saved_by !== undefined
    ? { at: answer.updated_at, by: answer.saved_by }
    : null;

export type SharedArtifactSaveEvent = { type: 'overwrite.confirm' } | { type: 'overwrite.cancel' };

/** How a save ended: saved, declined at the Edit Conflict question, or stopped (already alerted). */
export type SharedSaveOutcome =
  { outcome: 'saved'; artifact: SharedArtifact } | { outcome: 'cancelled' } | { outcome: 'stopped'; error: UiError };

/** What the gate check is asked. */
export interface GateCheckInput {
  portfolioId: number;
  artifactId: number;
  updatedAt: string;
}

/** What the PUT sends. */
export interface SharedUpdateInput {
  artifactId: number;
  responses: Responses;
  updatedAt: string;
}

const gateCheckInput = ({ context }: { context: SharedArtifactSaveContext }): GateCheckInput => ({
  portfolioId: context.portfolioId,
  artifactId: context.artifactId,
  // Always the loaded version: the answer then tells whether anyone saved since, and which version is stored.
  updatedAt: context.updatedAt,
});

export const sharedArtifactSaveMachine = setup({
  types: {
    context: {} as SharedArtifactSaveContext,
    events: {} as SharedArtifactSaveEvent,
    input: {} as SharedArtifactSaveInput,
    output: {} as SharedSaveOutcome,
    tags: {} as 'busy',
  },
  actors: {
    gateCheck: fromPromise<GateCheckResponse, GateCheckInput>(({ input, signal }) =>
      gateCheck(input.portfolioId, input.artifactId, input.updatedAt, signal),
    ),
    updateSharedArtifact: fromPromise<SharedArtifact, SharedUpdateInput>(({ input, signal }) =>
      updateSharedArtifact(input.artifactId, input.responses, input.updatedAt, signal),
    ),
  },
  guards: {
    isOk: (_, params: { answer: GateCheckResponse }) => params.answer.type === 'ok',
    isConflict: (_, params: { answer: GateCheckResponse }) => params.answer.type === 'warning',
    isRefusal: (_, params: { answer: GateCheckResponse }) => params.answer.type === 'error',
    isStaleVersion: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 409,
  },
  actions: {
    storeConflict: assign((_, params: { message: string; answer: GateCheckResponse }) => ({
      conflictMessage: params.message,
      conflictSave: conflictingSave(params.answer),
      ...(params.answer.updated_at ? { version: params.answer.updated_at } : {}),
    })),
    storeConflictMessage: assign({ conflictMessage: (_, params: { message: string }) => params.message }),
    storeRefusal: assign({
      error: (_, params: { message: string }): UiError => ({ kind: 'invalid', status: null, message: params.message }),
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeSaved: assign({ artifact: (_, params: { artifact: SharedArtifact }) => params.artifact }),
    /** Alerts why the save stopped (provided by the app). */
    notify: effect<Notice<'error'>>('notify'),
  },
}).createMachine({
  id: 'sharedArtifactSave',
  context: ({ input }) => ({
    ...input,
    version: input.updatedAt,
    conflictMessage: null,
    conflictSave: null,
    error: null,
    artifact: null,
  }),
  initial: 'checking',
  output: ({ context }): SharedSaveOutcome => {
    if (context.artifact) return { outcome: 'saved', artifact: context.artifact };
    if (context.error) return { outcome: 'stopped', error: context.error };
    return { outcome: 'cancelled' };
  },
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'gateCheck',
        src: 'gateCheck',
        input: gateCheckInput,
        onDone: [
          { guard: { type: 'isOk', params: ({ event }) => ({ answer: event.output }) }, target: 'saving' },
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ answer: event.output }) },
            target: 'confirming',
            actions: {
              type: 'storeConflict',
              params: ({ event }) => ({ message: event.output.message, answer: event.output }),
            },
          },
          {
            target: 'stopped',
            actions: [
              { type: 'storeRefusal', params: ({ event }) => ({ message: event.output.message }) },
              { type: 'notify', params: ({ event }) => ({ message: event.output.message, tone: 'error' }) },
            ],
          },
        ],
        onError: {
          target: 'stopped',
          actions: [
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'notify', params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }) },
          ],
        },
      },
    },
    confirming: {
      on: {
        'overwrite.confirm': 'saving',
        'overwrite.cancel': 'cancelled',
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'updateSharedArtifact',
        src: 'updateSharedArtifact',
        input: ({ context }) => ({
          artifactId: context.artifactId,
          responses: context.responses,
          updatedAt: context.version,
        }),
        onDone: {
          target: 'saved',
          actions: { type: 'storeSaved', params: ({ event }) => ({ artifact: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isStaleVersion', params: ({ event }) => ({ error: event.error }) },
            target: 'rechecking',
            actions: {
              type: 'storeConflictMessage',
              params: ({ event }) => ({ message: toUiError(event.error).message }),
            },
          },
          {
            target: 'stopped',
            actions: [
              { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              { type: 'notify', params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }) },
            ],
          },
        ],
      },
    },
    rechecking: {
      tags: ['busy'],
      invoke: {
        id: 'gateCheck',
        src: 'gateCheck',
        input: gateCheckInput,
        onDone: [
          {
            guard: { type: 'isRefusal', params: ({ event }) => ({ answer: event.output }) },
            target: 'stopped',
            actions: [
              { type: 'storeRefusal', params: ({ event }) => ({ message: event.output.message }) },
              { type: 'notify', params: ({ event }) => ({ message: event.output.message, tone: 'error' }) },
            ],
          },
          {
            // The question keeps the server's message; the gate check only tells the stored version.
            target: 'confirming',
            actions: {
              type: 'storeConflict',
              params: ({ context, event }) => ({
                message: context.conflictMessage ?? event.output.message,
                answer: event.output,
              }),
            },
          },
        ],
        onError: {
          target: 'stopped',
          actions: [
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'notify', params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }) },
          ],
        },
      },
    },
    saved: { type: 'final' },
    cancelled: { type: 'final' },
    stopped: { type: 'final' },
  },
});

export type SharedArtifactSaveMachine = typeof sharedArtifactSaveMachine;
export type SharedArtifactSaveRef = ActorRefFrom<typeof sharedArtifactSaveMachine>;
