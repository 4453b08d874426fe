/**
 * The shared portfolio form: create (`/shared-portfolios/new`) or edit (`/shared-portfolios/{id}/edit`).
 *
 * starting ─(create: a lead or researcher; edit: an id in the address)→ loading ─(loaded)→ editing
 *    └─(not allowed / no id)→ unavailable   loading ─(template missing; not found, not theirs)→ unavailable
 *                                           loading ─(failed)→ loadFailed ─(retry)→ loading
 * editing ─(form.valid from the fields)→ saving ─(saved)→ saved (toast, go to the portfolio)
 *    │                                       └─(refused)→ editing (the reason in the summary)
 *    ├─(form.invalid from the fields: messages, summary)→ editing
 *    ├─(portfolio.delete, edit only, no artifacts)→ confirmingDelete ─(delete.confirm)→ deleting ─(deleted)→ deleted
 *    ├─(fields.changed: whether the fields now differ from what was loaded)→ editing
 *    ├─(form.cancel)→ cancelled (back to where the user came from; Cancel discards without asking)
 *    ├─(leave.request, unsaved changes)→ confirmingLeave ─(leave.confirm)→ leaving (the app goes on)
 *    │                                         └─(leave.stay)→ editing (the app stays)
 *    └─(leave.request, nothing changed)→ leaving (the app goes on)
 * Anywhere else leave.request lets the app go on at once.
 *
 * Loading runs as the invoked child `sharedPortfolioLoad` (the template's questions, or the
 * portfolio to edit), saving as the invoked child `sharedPortfolioSave` (create or update); each
 * ends with an output the form stores.
 *
 * A shared portfolio can be deleted only while it has no artifacts (the server refuses otherwise):
 * Delete is not offered then, and the page says why.
 *
 * The fields (the Summary and the Questions table: typing, checking, the body to send) run as the
 * spawned child `fields` (`sharedPortfolioFieldsMachine`); on edit the Edit Participants dialog (the
 * invitations it sends) runs as the spawned child `participants`.
 */
import { and, assign, fromPromise, sendTo, setup, spawnChild } from 'xstate';
import type { SharedPortfolioBody, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { toUiError } from '../../services/errors.ts';
import { deleteSharedPortfolio } from '../../services/sharedService.ts';
import { participantsMachine } from '../participants/participantsMachine.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';
import {
  sharedPortfolioLoadMachine,
  type SharedPortfolioLoadOutput,
} from '../sharedPortfolioLoad/sharedPortfolioLoadMachine.ts';
import {
  savedId,
  sharedPortfolioSaveMachine,
  type SharedPortfolioSaveOutput,
} from '../sharedPortfolioSave/sharedPortfolioSaveMachine.ts';
import { sharedPortfolioFieldsMachine } from './sharedPortfolioFieldsMachine.ts';
import {
  ACCESS_MESSAGES,
  SAVED_MESSAGES,
  type SharedPortfolioFormContext,
  type SharedPortfolioFormEvent,
  type SharedPortfolioFormInput,
} from './sharedPortfolioFormTypes.ts';

export type { FormMode, SharedPortfolioFormEvent, SharedPortfolioFormInput } from './sharedPortfolioFormTypes.ts';

export const sharedPortfolioFormMachine = setup({
  types: {
    context: {} as SharedPortfolioFormContext,
    events: {} as SharedPortfolioFormEvent,
    input: {} as SharedPortfolioFormInput,
    tags: {} as 'busy',
  },
  actors: {
    sharedPortfolioLoad: sharedPortfolioLoadMachine,
    sharedPortfolioSave: sharedPortfolioSaveMachine,
    deleteSharedPortfolio: fromPromise<SharedPortfolioListItem, { id: number }>(({ input, signal }) =>
      deleteSharedPortfolio(input.id, signal),
    ),
    participants: participantsMachine,
    fields: sharedPortfolioFieldsMachine,
  },
  guards: {
    isCreate: ({ context }) => context.mode === 'create',
    isEdit: ({ context }) => context.mode === 'edit',
    /** A new one only for a user the server lets create one; an edit only with an id in the address. */
    mayOpen: ({ context }) =>
      context.mode === 'create'
        ? context.currentUser?.abilities.createSharedPortfolio === true
        : context.sharedPortfolioId !== null,
    isLoaded: (_, params: { output: SharedPortfolioLoadOutput }) => params.output.kind === 'loaded',
    isLoadedForEdit: (_, { output }: { output: SharedPortfolioLoadOutput }) =>
      output.kind === 'loaded' && output.sharedPortfolio !== null,
    hasLoadFailed: (_, params: { output: SharedPortfolioLoadOutput }) => params.output.kind === 'failed',
    isSaved: (_, params: { output: SharedPortfolioSaveOutput }) => params.output.kind === 'saved',
    hasNoArtifacts: ({ context }) =>
      context.sharedPortfolio !== null && context.sharedPortfolio.sharedArtifacts.length === 0,
    hasUnsavedChanges: ({ context }) => context.unsaved,
  },
  actions: {
    storeAccessProblem: assign({
      problem: ({ context }) => (context.mode === 'create' ? ACCESS_MESSAGES.noPermission : ACCESS_MESSAGES.notFound),
    }),
    /** What loading ended with: the fields as loaded (and the portfolio), why the page cannot be shown, or why it failed. */
    storeLoad: assign((_, { output }: { output: SharedPortfolioLoadOutput }) => {
      if (output.kind === 'loaded')
        return { loaded: output.fields, sharedPortfolio: output.sharedPortfolio, error: null };
      return output.kind === 'failed' ? { error: output.error } : { problem: output.problem };
    }),
    /** The fields, as loaded. */
    spawnFields: spawnChild('fields', { id: 'fields', input: ({ context }) => context.loaded! }),
    /** On edit, the Edit Participants dialog of the loaded portfolio. */
    spawnParticipants: spawnChild('participants', {
      id: 'participants',
      input: ({ context }) => {
        const sp = context.sharedPortfolio!;
        return { sharedPortfolioId: sp.id, owner: sp.owner, members: sp.members };
      },
    }),
    storeBody: assign({ body: (_, params: { body: SharedPortfolioBody }) => params.body }),
    storeUnsaved: assign({ unsaved: (_, params: { unsaved: boolean }) => params.unsaved }),
    /** The form's checks refused the save: the fields show why. */
    countRefusal: assign({ refusals: ({ context }) => context.refusals + 1 }),
    /** The server refused the save: its reason, kept for the form's error summary; the view takes the user there. */
    storeRefusal: assign(({ context }, { output }: { output: SharedPortfolioSaveOutput }) => ({
      saveError: output.kind === 'refused' ? output.message : null,
      refusals: context.refusals + 1,
    })),
    /** The server refused the delete: its reason, as a refused save's. */
    storeSaveError: assign(({ context }, params: { error: unknown }) => ({
      saveError: toUiError(params.error).message,
      refusals: context.refusals + 1,
    })),
    clearSaveError: assign({ saveError: null }),
    /** The save was refused: the fields can be changed again. */
    reopenFields: sendTo('fields', { type: 'form.reopen' }),
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
    /** Goes to a shared portfolio's page (provided by the app). */
    navigateToSharedPortfolio: effect<{ id: number }>('navigateToSharedPortfolio'),
    /** Goes to the Shared Portfolios page (provided by the app). */
    navigateToSharedPortfolios: effect('navigateToSharedPortfolios'),
    /** Lets the navigation the user asked for happen (provided by the app). */
    allowLeave: effect('allowLeave'),
    /** Drops the navigation the user asked for (provided by the app). */
    stayHere: effect('stayHere'),
  },
}).createMachine({
  id: 'sharedPortfolioForm',
  context: ({ input }) => ({
    mode: input.mode,
    sharedPortfolioId: input.mode === 'edit' ? input.sharedPortfolioId : null,
    currentUser: input.currentUser,
    refusals: 0,
    unsaved: false,
    sharedPortfolio: null,
    problem: null,
    error: null,
    saveError: null,
    body: null,
    loaded: null,
  }),
  initial: 'starting',
  // Outside the form (loading, saving, after a save, a delete or Cancel) nothing typed can be lost.
  on: { 'leave.request': { actions: 'allowLeave' } },
  states: {
    // Who may open the form is known at once; what it shows is loaded by the invoked `sharedPortfolioLoad`.
    starting: {
      always: [
        { guard: 'mayOpen', target: 'loading' },
        { target: 'unavailable', actions: 'storeAccessProblem' },
      ],
    },
    loading: {
      invoke: {
        id: 'sharedPortfolioLoad',
        src: 'sharedPortfolioLoad',
        input: ({ context }) => ({ mode: context.mode, sharedPortfolioId: context.sharedPortfolioId }),
        onDone: [
          {
            guard: { type: 'isLoadedForEdit', params: ({ event }) => ({ output: event.output }) },
            target: 'editing',
            actions: [
              { type: 'storeLoad', params: ({ event }) => ({ output: event.output }) },
              'spawnFields',
              'spawnParticipants',
            ],
          },
          {
            guard: { type: 'isLoaded', params: ({ event }) => ({ output: event.output }) },
            target: 'editing',
            actions: [{ type: 'storeLoad', params: ({ event }) => ({ output: event.output }) }, 'spawnFields'],
          },
          {
            guard: { type: 'hasLoadFailed', params: ({ event }) => ({ output: event.output }) },
            target: 'loadFailed',
            actions: { type: 'storeLoad', params: ({ event }) => ({ output: event.output }) },
          },
          { target: 'unavailable', actions: { type: 'storeLoad', params: ({ event }) => ({ output: event.output }) } },
        ],
      },
    },
    loadFailed: { on: { retry: 'loading' } },
    unavailable: {},
    editing: {
      on: {
        'fields.changed': { actions: { type: 'storeUnsaved', params: ({ event }) => ({ unsaved: event.unsaved }) } },
        'form.invalid': { actions: ['clearSaveError', 'countRefusal'] },
        'form.valid': {
          target: 'saving',
          actions: ['clearSaveError', { type: 'storeBody', params: ({ event }) => ({ body: event.body }) }],
        },
        'form.cancel': [
          { guard: 'isCreate', target: 'cancelled', actions: 'navigateToSharedPortfolios' },
          {
            target: 'cancelled',
            actions: {
              type: 'navigateToSharedPortfolio',
              params: ({ context }) => ({ id: context.sharedPortfolioId! }),
            },
          },
        ],
        'portfolio.delete': { guard: and(['isEdit', 'hasNoArtifacts']), target: 'confirmingDelete' },
        'leave.request': [
          { guard: 'hasUnsavedChanges', target: 'confirmingLeave' },
          { target: 'leaving', actions: 'allowLeave' },
        ],
      },
    },
    confirmingLeave: {
      on: {
        'leave.stay': { target: 'editing', actions: 'stayHere' },
        'leave.confirm': { target: 'leaving', actions: 'allowLeave' },
      },
    },
    // The app is leaving the page; nothing more happens here.
    leaving: { tags: ['busy'] },
    // The invoked `sharedPortfolioSave` creates or updates the portfolio.
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'sharedPortfolioSave',
        src: 'sharedPortfolioSave',
        input: ({ context }) => ({
          mode: context.mode,
          sharedPortfolioId: context.sharedPortfolioId,
          body: context.body!,
        }),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => ({ output: event.output }) },
            target: 'saved',
            actions: [
              {
                type: 'notify',
                params: ({ context }) => ({
                  message: context.mode === 'create' ? SAVED_MESSAGES.created : SAVED_MESSAGES.updated,
                  tone: 'success',
                }),
              },
              { type: 'navigateToSharedPortfolio', params: ({ event }) => ({ id: savedId(event.output) }) },
            ],
          },
          {
            target: 'editing',
            actions: [{ type: 'storeRefusal', params: ({ event }) => ({ output: event.output }) }, 'reopenFields'],
          },
        ],
      },
    },
    confirmingDelete: { on: { 'delete.confirm': 'deleting', 'delete.cancel': 'editing' } },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteSharedPortfolio',
        src: 'deleteSharedPortfolio',
        input: ({ context }) => ({ id: context.sharedPortfolioId! }),
        onDone: {
          target: 'deleted',
          actions: [
            { type: 'notify', params: { message: SAVED_MESSAGES.deleted, tone: 'success' } },
            'navigateToSharedPortfolios',
          ],
        },
        onError: {
          target: 'editing',
          actions: { type: 'storeSaveError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    saved: { tags: ['busy'] },
    deleted: { tags: ['busy'] },
    cancelled: { tags: ['busy'] },
  },
});

export type SharedPortfolioFormMachine = typeof sharedPortfolioFormMachine;

/** Whether reloading or closing the tab now would lose typed changes. */
export function sharedFormHasUnsavedChanges(snapshot: {
  matches: (state: 'editing' | 'confirmingLeave') => boolean;
  context: SharedPortfolioFormContext;
}): boolean {
  return (snapshot.matches('editing') || snapshot.matches('confirmingLeave')) && snapshot.context.unsaved;
}
