/**
 * The edit page of an artifact: a personal one, or a shared one (`kind`).
 *
 * starting ─(read-only user)→ denied
 *    ├─(address without ids)→ notFound
 *    └→ loading ─(artifact of this portfolio)→ ready.editing
 *          ├─(404 / another portfolio's)→ notFound
 *          └─(failed)→ loadFailed ─(retry)→ loading
 * ready.editing ─(artifact.saveToLot | artifact.submit  [parking lot])→ validating
 *               ─(artifact.save                          [completed])→ validating
 * validating ─(problems)→ editing (messages, page scrolled to the top)
 *            └→ saving (the invoked `artifactSave`) ─(saved)→ saved ─(after redirectDelay)→ left (the artifact view)
 *                  └─(refused / failed / shared: stopped, or cancelled in the conflict dialog)→ editing
 * (the save itself tells the user how it went: the success toast, or the server's message as an alert)
 * ready ─(artifact.deleted)→ ready.deleted (the form stays locked until the app leaves)
 *
 * Leaving (a link, Back, Forward: the app asks with leave.request; Cancel):
 * ready.editing ─(leave.request, unsaved work)→ confirmingLeave ─(leave.confirm)→ leaving (the app goes on)
 *       │                                            └─(leave.stay)→ editing (the app stays)
 *       ├─(leave.request, nothing unsaved)→ leaving (the app goes on)
 *       └─(artifact.cancel)→ left (the artifact view; Cancel discards without asking)
 * A never-saved artifact (new, before its first save) is removed on the way out:
 *   editing | confirmingLeave ─→ discarding ─(deleted, or failed: housekeeping removes it)→ leaving
 *   (after Cancel the app shows the portfolio; otherwise the app goes on where the user was going).
 * Anywhere else leave.request lets the app go on at once.
 *
 * Happy path: a parking-lot artifact is completed with 'Submit to Portfolio': the core questions
 * are answered, the responses (empty ones left out) are saved with `parkingLot: false`,
 * 'Successfully edited artifact' shows, and two seconds later the artifact view opens.
 * 'Save to Parking Lot' checks the answers' types but not the core questions: the lot is for
 * unfinished work. A completed artifact can only be saved (it never returns to the lot).
 * Shared artifacts are always complete; `artifactSave` then runs `sharedArtifactSave` (gate
 * check, a merge with a save in between), after which 'Successfully edited shared artifact' shows and the
 * shared artifact view opens.
 * The uploads area is a spawned `uploadQueue` actor that lives as long as the page.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import { validateResponses } from '../../schemas/responses.ts';
import type { Responses } from '../../schemas/structure.ts';
import { deleteArtifact, getArtifact } from '../../services/artifactService.ts';
import { ApiError, toUiError } from '../../services/errors.ts';
import { effect } from '../shared/effect.ts';
import { uploadQueueMachine } from '../upload/uploadQueueMachine.ts';
import { artifactSaveMachine, saveInputOf, type ArtifactSaveOutput } from './artifactSaveMachine.ts';
import { portfolioIdOf, type EditableArtifact } from './artifactSelectors.ts';
import { draftFromResponses, editableKeys, firstIssues, typedIssues, type DraftValue } from './draft.ts';
import { hasUnsavedWork, isNeverSaved } from './unsaved.ts';
import {
  ARTIFACT_NOT_FOUND,
  isId,
  notFoundText,
  PORTFOLIO_NOT_FOUND,
  REDIRECT_DELAY_MS,
  type ArtifactLifecycleContext,
  type ArtifactLifecycleEvent,
  type ArtifactLifecycleInput,
  type SaveIntent,
} from './artifactLifecycleTypes.ts';

export { artifactEditHasUnsavedChanges } from './unsaved.ts';
export {
  REDIRECT_DELAY_MS,
  SAVED_MESSAGE,
  SHARED_ARTIFACT_NOT_FOUND,
  SHARED_SAVED_MESSAGE,
} from './artifactLifecycleTypes.ts';
export type {
  ArtifactLifecycleContext,
  ArtifactLifecycleEvent,
  ArtifactLifecycleInput,
  SaveIntent,
} from './artifactLifecycleTypes.ts';

/** After a never-saved artifact was removed (or not: housekeeping removes it later), the page is left. */
const afterDiscard = [
  {
    guard: 'isCancelling',
    target: 'leaving',
    actions: {
      type: 'navigateToPortfolio',
      params: ({ context }: { context: ArtifactLifecycleContext }) => ({ portfolioId: context.portfolioId }),
    },
  },
  { target: 'leaving', actions: 'allowLeave' },
] as const;

/** The page is done: the artifact view opens (Cancel of a saved artifact, or after a save). */
const toArtifactView = {
  target: 'left',
  actions: {
    type: 'navigateToArtifact',
    params: ({ context }: { context: ArtifactLifecycleContext }) => ({
      portfolioId: context.portfolioId,
      artifactId: context.artifactId,
    }),
  },
} as const;

export const artifactLifecycleMachine = setup({
  types: {
    context: {} as ArtifactLifecycleContext,
    events: {} as ArtifactLifecycleEvent,
    input: {} as ArtifactLifecycleInput,
    tags: {} as 'busy',
  },
  actors: {
    // Personal artifacts; the shared edit page provides `getSharedArtifact`.
    fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(({ input, signal }) =>
      getArtifact(input.artifactId, signal),
    ),
    artifactSave: artifactSaveMachine,
    uploadQueue: uploadQueueMachine,
    // Removes a never-saved artifact (and its files) when its page is left.
    discardArtifact: fromPromise<Artifact, { artifactId: number }>(({ input, signal }) =>
      deleteArtifact(input.artifactId, signal),
    ),
  },
  delays: {
    // The shared artifact view opens at once (spec §4 sets no delay; §9 only the personal one).
    redirectDelay: ({ context }) => (context.kind === 'shared' ? 0 : REDIRECT_DELAY_MS),
  },
  guards: {
    isReadOnly: ({ context }) => context.readOnly,
    hasBadAddress: ({ context }) => !isId(context.portfolioId) || !isId(context.artifactId),
    isInThisPortfolio: ({ context }, params: { artifact: EditableArtifact }) =>
      portfolioIdOf(params.artifact) === context.portfolioId,
    isNotFound: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 404,
    isInParkingLot: ({ context }) => context.artifact?.parkingLot === true,
    isCompleted: ({ context }) => context.artifact?.parkingLot === false,
    hasIssues: ({ context }) => Object.keys(context.issues).length > 0,
    isSaved: (_, params: { output: ArtifactSaveOutput }) => params.output.outcome === 'saved',
    hasUnsavedChanges: ({ context }) => hasUnsavedWork(context),
    isNeverSaved: ({ context }) => isNeverSaved(context.artifact),
    isCancelling: ({ context }) => context.leaveBy === 'cancel',
  },
  actions: {
    storeBadAddress: assign({
      notFoundMessage: ({ context }) =>
        notFoundText(context.kind, isId(context.portfolioId) ? ARTIFACT_NOT_FOUND : PORTFOLIO_NOT_FOUND),
    }),
    storeArtifact: assign((_, params: { artifact: EditableArtifact }) => ({
      artifact: params.artifact,
      draft: draftFromResponses(params.artifact.structure, params.artifact.responses),
      issues: {},
      error: null,
    })),
    // A personal save answers with the artifact; a shared one's page is left without it.
    storeSaved: assign(({ context }, params: { output: ArtifactSaveOutput }) =>
      params.output.outcome === 'saved' && params.output.artifact
        ? { artifact: params.output.artifact, error: null }
        : { artifact: context.artifact, error: context.error },
    ),
    storeNotFound: assign({
      notFoundMessage: ({ context }, params: { message?: string }) => notFoundText(context.kind, params.message),
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    // Why a save failed or stopped (a declined one changes nothing).
    storeOutcomeError: assign({
      error: ({ context }, params: { output: ArtifactSaveOutput }) =>
        'error' in params.output ? params.output.error : context.error,
    }),
    storeField: assign({
      draft: ({ context }, params: { key: string; value: DraftValue }) =>
        editableKeys(context.artifact?.structure ?? []).has(params.key)
          ? { ...context.draft, [params.key]: params.value }
          : context.draft,
      issues: ({ context }, params: { key: string; value: DraftValue }) =>
        typedIssues(context.artifact?.structure ?? [], context.issues, params.key, params.value),
    }),
    storeIntent: assign({ intent: (_, params: { intent: SaveIntent }) => params.intent }),
    validateDraft: assign(({ context }) => {
      const structure = context.artifact?.structure ?? [];
      const keys = editableKeys(structure);
      const answers: Responses = {};
      for (const [key, value] of Object.entries(context.draft)) if (keys.has(key)) answers[key] = value;
      const { value, issues } = validateResponses(structure, answers, { requireCore: context.intent !== 'saveToLot' });
      return { responses: value, issues: firstIssues(issues) };
    }),
    spawnUploads: assign({
      uploads: ({ context, spawn }) =>
        context.uploads ??
        spawn('uploadQueue', {
          id: 'uploadQueue',
          input: {
            portfolioId: context.portfolioId,
            artifactId: context.artifactId,
            shared: context.kind === 'shared',
            media: {
              images: [...(context.artifact?.images ?? [])],
              videos: [...(context.artifact?.videos ?? [])],
              documents: [...(context.artifact?.documents ?? [])],
            },
          },
        }),
    }),
    /** Brings the top of the page (and its error summary) into view (provided by the app). */
    scrollToTop: effect('scrollToTop'),
    /** Opens the artifact view (provided by the app). */
    navigateToArtifact: effect<{ portfolioId: number; artifactId: number }>('navigateToArtifact'),
    /** Opens the portfolio (provided by the app): where Cancel goes when the new artifact is removed. */
    navigateToPortfolio: effect<{ portfolioId: number }>('navigateToPortfolio'),
    storeLeaveBy: assign({ leaveBy: (_, params: { by: 'cancel' | 'navigation' }) => params.by }),
    /** Lets the navigation the user asked for happen (provided by the app). */
    allowLeave: effect('allowLeave'),
    /** Drops the navigation the user asked for (provided by the app). */
    stayHere: effect('stayHere'),
  },
}).createMachine({
  id: 'artifactLifecycle',
  context: ({ input }) => ({
    ...input,
    artifact: null,
    draft: {},
    issues: {},
    responses: {},
    intent: null,
    error: null,
    notFoundMessage: null,
    uploads: null,
    leaveBy: 'navigation',
  }),
  initial: 'starting',
  // Outside the form (loading, saving, after a save or a delete) nothing typed can be lost.
  on: { 'leave.request': { actions: 'allowLeave' } },
  states: {
    starting: {
      always: [
        { guard: 'isReadOnly', target: 'denied' },
        { guard: 'hasBadAddress', target: 'notFound', actions: 'storeBadAddress' },
        { target: 'loading' },
      ],
    },
    denied: {},
    notFound: {},
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchArtifact',
        src: 'fetchArtifact',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: [
          {
            guard: { type: 'isInThisPortfolio', params: ({ event }) => ({ artifact: event.output }) },
            target: 'ready',
            actions: { type: 'storeArtifact', params: ({ event }) => ({ artifact: event.output }) },
          },
          { target: 'notFound', actions: { type: 'storeNotFound', params: {} } },
        ],
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'notFound',
            actions: { type: 'storeNotFound', params: ({ event }) => ({ message: toUiError(event.error).message }) },
          },
          { target: 'loadFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    loadFailed: { on: { retry: 'loading' } },
    ready: {
      entry: 'spawnUploads',
      on: { 'artifact.deleted': '.deleted' },
      initial: 'editing',
      states: {
        editing: {
          on: {
            'field.change': {
              actions: { type: 'storeField', params: ({ event }) => ({ key: event.key, value: event.value }) },
            },
            'artifact.saveToLot': {
              guard: 'isInParkingLot',
              target: 'validating',
              actions: { type: 'storeIntent', params: { intent: 'saveToLot' } },
            },
            'artifact.submit': {
              guard: 'isInParkingLot',
              target: 'validating',
              actions: { type: 'storeIntent', params: { intent: 'submit' } },
            },
            'artifact.save': {
              guard: 'isCompleted',
              target: 'validating',
              actions: { type: 'storeIntent', params: { intent: 'save' } },
            },
            'artifact.cancel': [
              {
                guard: 'isNeverSaved',
                target: 'discarding',
                actions: { type: 'storeLeaveBy', params: { by: 'cancel' } },
              },
              toArtifactView,
            ],
            'leave.request': [
              { guard: 'hasUnsavedChanges', target: 'confirmingLeave' },
              { guard: 'isNeverSaved', target: 'discarding' },
              { target: 'leaving', actions: 'allowLeave' },
            ],
          },
        },
        confirmingLeave: {
          on: {
            'leave.stay': { target: 'editing', actions: 'stayHere' },
            'leave.confirm': [
              { guard: 'isNeverSaved', target: 'discarding' },
              { target: 'leaving', actions: 'allowLeave' },
            ],
          },
        },
        discarding: {
          tags: ['busy'],
          invoke: {
            id: 'discardArtifact',
            src: 'discardArtifact',
            input: ({ context }) => ({ artifactId: context.artifactId }),
            // Either way the page is left: a new artifact that could not be removed now is listed
            // nowhere and housekeeping removes it later.
            onDone: afterDiscard,
            onError: afterDiscard,
          },
        },
        // The app is leaving the page; nothing more happens here.
        leaving: { tags: ['busy'] },
        validating: {
          entry: 'validateDraft',
          always: [{ guard: 'hasIssues', target: 'editing', actions: 'scrollToTop' }, { target: 'saving' }],
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'artifactSave',
            src: 'artifactSave',
            input: ({ context }) => saveInputOf(context),
            onDone: [
              {
                guard: { type: 'isSaved', params: ({ event }) => ({ output: event.output }) },
                target: 'saved',
                actions: { type: 'storeSaved', params: ({ event }) => ({ output: event.output }) },
              },
              // Refused, failed (the save alerted the server's message), stopped or NO at the Edit Conflict question.
              {
                target: 'editing',
                actions: { type: 'storeOutcomeError', params: ({ event }) => ({ output: event.output }) },
              },
            ],
          },
        },
        saved: { tags: ['busy'], after: { redirectDelay: toArtifactView } },
        left: { type: 'final', tags: ['busy'] },
        deleted: { tags: ['busy'] },
      },
    },
  },
});

export type ArtifactLifecycleMachine = typeof artifactLifecycleMachine;
