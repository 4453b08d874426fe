/**
 * Saving the answers of a shared artifact without overwriting anyone else's save: a save meeting a
 * later one is merged three ways, field by field (spec §4, decision 051). The edit page's
 * `artifactLifecycle` invokes it once the form is valid; it ends with an outcome the page acts on.
 *
 * checking ─(ok)→ saving ─(saved)→ saved
 *    ├─(warning: a later version is stored)→ merging
 *    └─(error | failed)→ stopped (the message is alerted)
 * saving ─(409: someone saved in between)→ merging
 *    └─(failed)→ stopped (alert)
 * merging ─(no field changed on both sides)→ saving (against the newest version)
 *    ├─(fields both sides changed)→ resolving ─(merge.choose)→ resolving
 *    │                                  ├─(merge.save, every conflict chosen)→ saving
 *    │                                  └─(merge.cancel)→ cancelled (the edits stay in the form)
 *    └─(failed)→ stopped (alert)
 *
 * Happy path: the gate check with the version the editor loaded says ok, and the PUT carries that
 * version. When someone saved in between (the gate check's warning, or the PUT's 409 when they saved
 * after it), the version the edit was based on (B) and the newest (C) are read through the versions
 * API and merged: fields only one side changed are combined and saved against C, and once saved the
 * person is told whose changes to which fields the save kept; fields both changed wait in the
 * conflict dialog for a choice each (theirs, mine, or an edit), then the result is saved against C.
 * A save arriving meanwhile makes that PUT 409 too: the merge runs again with C as the base and the
 * resolved answers as the edit, so nothing chosen is lost. The server stays the judge of every save.
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { GateCheckResponse } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
import type { Responses, Structure } from '../../schemas/structure.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { gateCheck, updateSharedArtifact } from '../../services/sharedService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';
import {
  loadMergeSources,
  mergedMessage,
  type MergeSources,
  type MergeSourcesInput,
  type VersionSnapshot,
} from './mergeSources.ts';
import {
  everyConflictChosen,
  mergeThreeWay,
  resolveConflicts,
  type FieldChoice,
  type MergeResult,
} from './threeWayMerge.ts';

export interface SharedArtifactSaveInput {
  portfolioId: number;
  artifactId: number;
  /** The cleaned answers to save. */
  responses: Responses;
  /** The `updated_at` of the version the editor loaded. */
  updatedAt: string;
  /** The number of the version the editor loaded (`0`: none). */
  version: number;
  /** The artifact's questions (their titles name the merged fields). */
  questions: Structure;
}

/** A merge waiting for the person's choices. */
export interface PendingMerge {
  result: MergeResult;
  /** The base and the newest version it was made from. */
  base: VersionSnapshot;
  current: VersionSnapshot;
  /** The stored `updated_at` the resolved answers are saved against. */
  updatedAt: string;
  /** Who saved since the base. */
  people: (string | null)[];
}

export interface SharedArtifactSaveContext extends SharedArtifactSaveInput {
  /** The answers the PUT sends: the edit, then the merged answers. */
  mine: Responses;
  /** The version `mine` is based on. */
  basedOn: number;
  /** The `updated_at` the PUT carries: the loaded one, then the newest one merged with. */
  savingAt: string;
  /** The merge in the conflict dialog. */
  merge: PendingMerge | null;
  /** The choice made for each conflicting field (by question key). */
  choices: Record<string, FieldChoice>;
  /** The fields the saved answers took from others, and who those others were. */
  fromOthers: string[];
  others: (string | null)[];
  /** Why the save stopped. */
  error: UiError | null;
  /** The artifact as saved. */
  artifact: SharedArtifact | null;
}

export type SharedArtifactSaveEvent =
  { type: 'merge.choose'; key: string; choice: FieldChoice } | { type: 'merge.save' } | { type: 'merge.cancel' };

/** How a save ended: saved, cancelled in the conflict dialog, or stopped (already alerted). */
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

/** The context after a merge is taken: the answers to save against the newest version, and whose fields they kept. */
function taken(context: SharedArtifactSaveContext, merge: PendingMerge, responses: Responses) {
  return {
    mine: responses,
    basedOn: merge.current.number,
    savingAt: merge.updatedAt,
    merge: null,
    choices: {},
    fromOthers: [...new Set([...context.fromOthers, ...merge.result.fromTheirs])],
    others: merge.result.fromTheirs.length > 0 ? [...new Set([...context.others, ...merge.people])] : context.others,
  };
}

/** The merge of the edit with what was stored since its base (the edit sends no files: its side keeps the base's). */
function merged(context: SharedArtifactSaveContext, sources: MergeSources): PendingMerge {
  const mine = { responses: context.mine, files: sources.base.files };
  const result = mergeThreeWay(sources.base, mine, sources.current);
  return { result, base: sources.base, current: sources.current, updatedAt: sources.updatedAt, people: sources.people };
}

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
    loadMergeSources: fromPromise<MergeSources, MergeSourcesInput>(({ input, signal }) =>
      loadMergeSources(input, signal),
    ),
  },
  guards: {
    isOk: (_, params: { answer: GateCheckResponse }) => params.answer.type === 'ok',
    isConflict: (_, params: { answer: GateCheckResponse }) => params.answer.type === 'warning',
    isStaleVersion: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 409,
    hasConflicts: ({ context }, params: { sources: MergeSources }) =>
      merged(context, params.sources).result.conflicts.length > 0,
    isConflictField: ({ context }, params: { key: string }) =>
      context.merge?.result.conflicts.some((c) => c.key === params.key) ?? false,
    everyConflictChosen: ({ context }) =>
      context.merge !== null && everyConflictChosen(context.merge.result, context.choices),
    keptOthersFields: ({ context }) => context.fromOthers.length > 0,
  },
  actions: {
    storeRefusal: assign({
      error: (_, params: { message: string }): UiError => ({ kind: 'invalid', status: null, message: params.message }),
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeSaved: assign({ artifact: (_, params: { artifact: SharedArtifact }) => params.artifact }),
    storeMerge: assign({
      merge: ({ context }, params: { sources: MergeSources }) => merged(context, params.sources),
      choices: () => ({}),
    }),
    takeMerge: assign(({ context }, params: { sources: MergeSources }) => {
      const merge = merged(context, params.sources);
      return taken(context, merge, merge.result.responses);
    }),
    storeChoice: assign({
      choices: ({ context }, params: { key: string; choice: FieldChoice }) => ({
        ...context.choices,
        [params.key]: params.choice,
      }),
    }),
    takeResolution: assign(({ context }) =>
      context.merge ? taken(context, context.merge, resolveConflicts(context.merge.result, context.choices)) : {},
    ),
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'sharedArtifactSave',
  context: ({ input }) => ({
    ...input,
    mine: input.responses,
    basedOn: input.version,
    savingAt: input.updatedAt,
    merge: null,
    choices: {},
    fromOthers: [],
    others: [],
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
        input: ({ context }) => ({
          portfolioId: context.portfolioId,
          artifactId: context.artifactId,
          updatedAt: context.updatedAt,
        }),
        onDone: [
          { guard: { type: 'isOk', params: ({ event }) => ({ answer: event.output }) }, target: 'saving' },
          { guard: { type: 'isConflict', params: ({ event }) => ({ answer: event.output }) }, target: 'merging' },
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
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'updateSharedArtifact',
        src: 'updateSharedArtifact',
        input: ({ context }) => ({
          artifactId: context.artifactId,
          responses: context.mine,
          updatedAt: context.savingAt,
        }),
        onDone: [
          {
            guard: 'keptOthersFields',
            target: 'saved',
            actions: [
              { type: 'storeSaved', params: ({ event }) => ({ artifact: event.output }) },
              {
                type: 'notify',
                params: ({ context }) => ({
                  message: mergedMessage(context.others, context.fromOthers, context.questions),
                  tone: 'success',
                }),
              },
            ],
          },
          { target: 'saved', actions: { type: 'storeSaved', params: ({ event }) => ({ artifact: event.output }) } },
        ],
        onError: [
          { guard: { type: 'isStaleVersion', params: ({ event }) => ({ error: event.error }) }, target: 'merging' },
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
    merging: {
      tags: ['busy'],
      invoke: {
        id: 'loadMergeSources',
        src: 'loadMergeSources',
        input: ({ context }) => ({ artifactId: context.artifactId, basedOn: context.basedOn }),
        onDone: [
          {
            guard: { type: 'hasConflicts', params: ({ event }) => ({ sources: event.output }) },
            target: 'resolving',
            actions: { type: 'storeMerge', params: ({ event }) => ({ sources: event.output }) },
          },
          { target: 'saving', actions: { type: 'takeMerge', params: ({ event }) => ({ sources: event.output }) } },
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
    resolving: {
      on: {
        'merge.choose': {
          guard: { type: 'isConflictField', params: ({ event }) => ({ key: event.key }) },
          actions: { type: 'storeChoice', params: ({ event }) => ({ key: event.key, choice: event.choice }) },
        },
        'merge.save': { guard: 'everyConflictChosen', target: 'saving', actions: 'takeResolution' },
        'merge.cancel': 'cancelled',
      },
    },
    saved: { type: 'final' },
    cancelled: { type: 'final' },
    stopped: { type: 'final' },
  },
});

export type SharedArtifactSaveMachine = typeof sharedArtifactSaveMachine;
export type SharedArtifactSaveRef = ActorRefFrom<typeof sharedArtifactSaveMachine>;
