/**
 * The shared portfolio form: create (`/shared-portfolios/new`) or edit (`/shared-portfolios/{id}/edit`).
 *
 * starting ─(create, lead or researcher)→ loading.template ──(template)──→ editing
 *    │      ─(edit)→ loading.sharedPortfolio ─(owner or researcher)─┘   │
 *    └─(not allowed / not found)→ unavailable      (failed)→ loadFailed ─(retry)→ loading
 * editing ─(form.valid from the fields)→ creating | updating ─(saved)→ saved (toast, go to the portfolio)
 *    ├─(form.invalid from the fields: messages, summary)→ editing  └─(refused)→ editing (the reason in the summary)
 *    ├─(portfolio.delete, edit only, no artifacts)→ confirmingDelete ─(delete.confirm)→ deleting ─(deleted)→ deleted
 *    ├─(fields.changed: whether the fields now differ from what was loaded)→ editing
 *    ├─(form.cancel)→ cancelled (back to where the user came from; Cancel discards without asking)
 *    ├─(leave.request, unsaved changes)→ confirmingLeave ─(leave.confirm)→ leaving (the app goes on)
 *    │                                         └─(leave.stay)→ editing (the app stays)
 *    └─(leave.request, nothing changed)→ leaving (the app goes on)
 * Anywhere else leave.request lets the app go on at once.
 *
 * A shared portfolio can be deleted only while it has no artifacts (the server refuses otherwise):
 * Delete is not offered then, and the page says why.
 *
 * The fields (the Summary and the Questions table: typing, checking, the body to send) run as the
 * spawned child `fields` (`sharedPortfolioFieldsMachine`); on edit the Edit Participants dialog runs
 * as the spawned child `participants`.
 */
import { and, assign, fromPromise, sendTo, setup, spawnChild } from 'xstate';
import { TEMPLATE_PORTFOLIO_ID } from '../../schemas/catalog.ts';
import type { Portfolio } from '../../schemas/portfolio.ts';
import type { SharedPortfolio, SharedPortfolioBody, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { ApiError, toUiError } from '../../services/errors.ts';
import { getPortfolio } from '../../services/portfolioService.ts';
import {
  createSharedPortfolio,
  deleteSharedPortfolio,
  getSharedPortfolio,
  updateSharedPortfolio,
} from '../../services/sharedService.ts';
import { participantsMachine } from '../participants/participantsMachine.ts';
import { effect } from '../shared/effect.ts';
import { EMPTY_VALUES, rowsForCreate, rowsForEdit, valuesOf } from './sharedForm.ts';
import { sharedPortfolioFieldsMachine } from './sharedPortfolioFieldsMachine.ts';
import type { Notice } from '../shared/notice.ts';
import {
  ACCESS_MESSAGES,
  SAVED_MESSAGES,
  type SharedPortfolioFormContext,
  type SharedPortfolioFormEvent,
  type SharedPortfolioFormInput,
} from './sharedPortfolioFormTypes.ts';

export type { FormMode, SharedPortfolioFormEvent, SharedPortfolioFormInput } from './sharedPortfolioFormTypes.ts';

const is404 = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

export const sharedPortfolioFormMachine = setup({
  types: {
    context: {} as SharedPortfolioFormContext,
    events: {} as SharedPortfolioFormEvent,
    input: {} as SharedPortfolioFormInput,
    tags: {} as 'busy',
  },
  actors: {
    fetchTemplate: fromPromise<Portfolio>(({ signal }) => getPortfolio(TEMPLATE_PORTFOLIO_ID, signal)),
    fetchSharedPortfolio: fromPromise<SharedPortfolio, { id: number }>(({ input, signal }) =>
      getSharedPortfolio(input.id, signal),
    ),
    createSharedPortfolio: fromPromise<SharedPortfolio, { body: SharedPortfolioBody }>(({ input, signal }) =>
      createSharedPortfolio(input.body, signal),
    ),
    updateSharedPortfolio: fromPromise<SharedPortfolio, { id: number; body: SharedPortfolioBody }>(
      ({ input, signal }) => updateSharedPortfolio(input.id, input.body, signal),
    ),
    deleteSharedPortfolio: fromPromise<SharedPortfolioListItem, { id: number }>(({ input, signal }) =>
      deleteSharedPortfolio(input.id, signal),
    ),
    participants: participantsMachine,
    fields: sharedPortfolioFieldsMachine,
  },
  guards: {
    isCreate: ({ context }) => context.mode === 'create',
    isEdit: ({ context }) => context.mode === 'edit',
    canCreate: ({ context }) => context.currentUser?.abilities.createSharedPortfolio === true,
    hasId: ({ context }) => context.sharedPortfolioId !== null,
    canEdit: (_, params: { sharedPortfolio: SharedPortfolio }) => params.sharedPortfolio.abilities?.edit === true,
    isNotFound: (_, params: { error: unknown }) => is404(params.error),
    hasNoArtifacts: ({ context }) =>
      context.sharedPortfolio !== null && context.sharedPortfolio.sharedArtifacts.length === 0,
    hasUnsavedChanges: ({ context }) => context.unsaved,
  },
  actions: {
    storeProblem: assign({ problem: (_, params: { message: string }) => params.message }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeTemplate: assign({
      loaded: (_, params: { template: Portfolio }) => ({
        values: EMPTY_VALUES,
        rows: rowsForCreate(params.template.structure),
      }),
    }),
    storeSharedPortfolio: assign((_, params: { sharedPortfolio: SharedPortfolio }) => ({
      sharedPortfolio: params.sharedPortfolio,
      loaded: { values: valuesOf(params.sharedPortfolio), rows: rowsForEdit(params.sharedPortfolio) },
    })),
    clearError: assign({ error: null }),
    /** The fields, as loaded. */
    spawnFields: spawnChild('fields', { id: 'fields', input: ({ context }) => context.loaded! }),
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
    /** The server's refusal, kept for the form's error summary; the view takes the user there. */
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
    starting: {
      always: [
        { guard: and(['isCreate', 'canCreate']), target: 'loading.template' },
        {
          guard: 'isCreate',
          target: 'unavailable',
          actions: { type: 'storeProblem', params: { message: ACCESS_MESSAGES.noPermission } },
        },
        { guard: 'hasId', target: 'loading.sharedPortfolio' },
        { target: 'unavailable', actions: { type: 'storeProblem', params: { message: ACCESS_MESSAGES.notFound } } },
      ],
    },
    loading: {
      // Entered through `starting`, which picks the sub-state for the form's mode.
      initial: 'template',
      states: {
        template: {
          invoke: {
            id: 'fetchTemplate',
            src: 'fetchTemplate',
            onDone: {
              target: '#sharedPortfolioForm.editing',
              actions: [
                'clearError',
                { type: 'storeTemplate', params: ({ event }) => ({ template: event.output }) },
                'spawnFields',
              ],
            },
            onError: [
              {
                guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
                target: '#sharedPortfolioForm.unavailable',
                actions: { type: 'storeProblem', params: { message: ACCESS_MESSAGES.templateMissing } },
              },
              {
                target: '#sharedPortfolioForm.loadFailed',
                actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        sharedPortfolio: {
          invoke: {
            id: 'fetchSharedPortfolio',
            src: 'fetchSharedPortfolio',
            input: ({ context }) => ({ id: context.sharedPortfolioId! }),
            onDone: [
              {
                guard: { type: 'canEdit', params: ({ event }) => ({ sharedPortfolio: event.output }) },
                target: '#sharedPortfolioForm.editing',
                actions: [
                  { type: 'storeSharedPortfolio', params: ({ event }) => ({ sharedPortfolio: event.output }) },
                  'clearError',
                  'spawnFields',
                  'spawnParticipants',
                ],
              },
              {
                target: '#sharedPortfolioForm.unavailable',
                actions: { type: 'storeProblem', params: { message: ACCESS_MESSAGES.notFound } },
              },
            ],
            onError: [
              {
                guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
                target: '#sharedPortfolioForm.unavailable',
                actions: { type: 'storeProblem', params: { message: ACCESS_MESSAGES.notFound } },
              },
              {
                target: '#sharedPortfolioForm.loadFailed',
                actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
      },
    },
    loadFailed: {
      on: {
        retry: [{ guard: 'isCreate', target: 'loading.template' }, { target: 'loading.sharedPortfolio' }],
      },
    },
    unavailable: {},
    editing: {
      on: {
        'fields.changed': {
          actions: { type: 'storeUnsaved', params: ({ event }) => ({ unsaved: event.unsaved }) },
        },
        'form.invalid': { actions: ['clearSaveError', 'countRefusal'] },
        'form.valid': [
          {
            guard: 'isCreate',
            target: 'creating',
            actions: ['clearSaveError', { type: 'storeBody', params: ({ event }) => ({ body: event.body }) }],
          },
          {
            target: 'updating',
            actions: ['clearSaveError', { type: 'storeBody', params: ({ event }) => ({ body: event.body }) }],
          },
        ],
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
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createSharedPortfolio',
        src: 'createSharedPortfolio',
        input: ({ context }) => ({ body: context.body! }),
        onDone: {
          target: 'saved',
          actions: [
            { type: 'notify', params: { message: SAVED_MESSAGES.created, tone: 'success' } },
            { type: 'navigateToSharedPortfolio', params: ({ event }) => ({ id: event.output.id }) },
          ],
        },
        onError: {
          target: 'editing',
          actions: [{ type: 'storeSaveError', params: ({ event }) => ({ error: event.error }) }, 'reopenFields'],
        },
      },
    },
    updating: {
      tags: ['busy'],
      invoke: {
        id: 'updateSharedPortfolio',
        src: 'updateSharedPortfolio',
        input: ({ context }) => ({ id: context.sharedPortfolioId!, body: context.body! }),
        onDone: {
          target: 'saved',
          actions: [
            { type: 'notify', params: { message: SAVED_MESSAGES.updated, tone: 'success' } },
            { type: 'navigateToSharedPortfolio', params: ({ event }) => ({ id: event.output.id }) },
          ],
        },
        onError: {
          target: 'editing',
          actions: [{ type: 'storeSaveError', params: ({ event }) => ({ error: event.error }) }, 'reopenFields'],
        },
      },
    },
    confirmingDelete: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': 'editing',
      },
    },
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
