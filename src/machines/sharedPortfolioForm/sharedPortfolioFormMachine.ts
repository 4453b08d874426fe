/**
 * The shared portfolio form: create (`/shared-portfolios/new`) or edit (`/shared-portfolios/{id}/edit`).
 *
 * starting ─(create, lead or researcher)→ loading.template ──(template)──→ editing
 *    │      ─(edit)→ loading.sharedPortfolio ─(owner or researcher)─┘   │
 *    └─(not allowed / not found)→ unavailable      (failed)→ loadFailed ─(retry)→ loading
 * editing ─(form.submit)→ validating ─(valid)→ creating | updating ─(saved)→ saved (toast, go to the portfolio)
 *    │                        └─(invalid: messages, summary)→ editing     └─(refused)→ editing (the reason in the summary)
 *    ├─(portfolio.delete, edit only, no artifacts)→ confirmingDelete ─(delete.confirm)→ deleting ─(deleted)→ deleted
 *    ├─(form.restore: a local draft put back)→ editing
 *    ├─(form.cancel)→ cancelled (back to where the user came from; Cancel discards without asking)
 *    ├─(leave.request, unsaved changes)→ confirmingLeave ─(leave.confirm)→ leaving (the app goes on)
 *    │                                         └─(leave.stay)→ editing (the app stays)
 *    └─(leave.request, nothing changed)→ leaving (the app goes on)
 * Anywhere else leave.request lets the app go on at once.
 *
 * A shared portfolio can be deleted only while it has no artifacts (the server refuses otherwise):
 * Delete is not offered then, and the page says why.
 *
 * On edit the Edit Participants dialog runs as the spawned child `participants`.
 */
import { and, assign, fromPromise, setup, spawnChild } from 'xstate';
import { TEMPLATE_PORTFOLIO_ID } from '../../schemas/catalog.ts';
import type { Portfolio } from '../../schemas/portfolio.ts';
import type { SharedPortfolio, SharedPortfolioBody, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import type { Me } from '../../schemas/user.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { getPortfolio } from '../../services/portfolioService.ts';
import {
  createSharedPortfolio,
  deleteSharedPortfolio,
  getSharedPortfolio,
  updateSharedPortfolio,
} from '../../services/sharedService.ts';
import { participantsMachine } from '../participants/participantsMachine.ts';
import { effect } from '../shared/effect.ts';
import {
  buildBody,
  changeBonusRow,
  checkForm,
  EMPTY_VALUES,
  formState,
  hasErrors,
  hasUnsavedFormChanges,
  isLocked,
  newBonusRow,
  newQuestionKey,
  restoredRows,
  rowsForCreate,
  rowsForEdit,
  valuesOf,
  type BonusField,
  type FormDraft,
  type FormErrors,
  type QuestionRow,
  type SummaryField,
  type SummaryValues,
} from './sharedForm.ts';
import type { Notice } from '../shared/notice.ts';

/** Why the page cannot be shown (spec §5, page access). */
export const ACCESS_MESSAGES = {
  noPermission: 'You do not have permission to access this page.',
  notFound: 'Shared portfolio not found.',
  templateMissing: 'Portfolio template not found.',
} as const;

export const SAVED_MESSAGES = {
  created: 'Successfully created shared portfolio',
  updated: 'Successfully edited shared portfolio',
  deleted: 'Successfully deleted shared portfolio',
} as const;

export type FormMode = 'create' | 'edit';

export interface SharedPortfolioFormInput {
  mode: FormMode;
  /** The portfolio to edit; `null` when the address holds no valid id (ignored on create). */
  sharedPortfolioId: number | null;
  /** The signed-in user (the server's abilities say whether they may create one). */
  currentUser: Pick<Me, 'id' | 'abilities'> | null;
}

export interface SharedPortfolioFormContext {
  mode: FormMode;
  sharedPortfolioId: number | null;
  currentUser: Pick<Me, 'id' | 'abilities'> | null;
  values: SummaryValues;
  rows: QuestionRow[];
  /** Messages; shown once the user tried to save, then they follow the typing. */
  errors: FormErrors;
  validated: boolean;
  /** How many saves the form refused (the view takes the user to the first message after each). */
  refusals: number;
  /** The portfolio being edited, as loaded. */
  sharedPortfolio: SharedPortfolio | null;
  /** Why the page cannot be shown. */
  problem: string | null;
  /** Why loading failed. */
  error: UiError | null;
  /** The form as loaded (values and questions), to tell whether anything changed. */
  initial: string | null;
  /** Why the server refused the last save or delete (shown at the top of the form, not as a toast). */
  saveError: string | null;
}

export type SharedPortfolioFormEvent =
  | { type: 'field.change'; field: SummaryField; value: string }
  | { type: 'grades.change'; grades: readonly string[] }
  | { type: 'question.toggle'; key: string; included: boolean }
  | { type: 'question.add' }
  | { type: 'question.remove'; key: string }
  | { type: 'question.change'; key: string; field: BonusField; value: string }
  /** A local draft of the form (left by a crash or a reload) put back in place of what the form holds. */
  | { type: 'form.restore'; draft: FormDraft }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'portfolio.delete' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  /** The user is about to leave the page (a link, Back): the machine allows it or asks first. */
  | { type: 'leave.request' }
  | { type: 'leave.confirm' }
  | { type: 'leave.stay' }
  | { type: 'retry' };

const NO_ERRORS: FormErrors = { questions: {} };

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
  },
  guards: {
    isCreate: ({ context }) => context.mode === 'create',
    isEdit: ({ context }) => context.mode === 'edit',
    canCreate: ({ context }) => context.currentUser?.abilities.createSharedPortfolio === true,
    hasId: ({ context }) => context.sharedPortfolioId !== null,
    canEdit: (_, params: { sharedPortfolio: SharedPortfolio }) => params.sharedPortfolio.abilities?.edit === true,
    isNotFound: (_, params: { error: unknown }) => is404(params.error),
    isToggleable: ({ context }, params: { key: string }) =>
      context.rows.some((row) => row.kind === 'template' && row.key === params.key && !isLocked(row)),
    isBonusQuestion: ({ context }, params: { key: string }) =>
      context.rows.some((row) => row.kind === 'bonus' && row.key === params.key),
    hasErrors: ({ context }) => hasErrors(checkForm(context.values, context.rows).errors),
    hasNoArtifacts: ({ context }) =>
      context.sharedPortfolio !== null && context.sharedPortfolio.sharedArtifacts.length === 0,
    hasUnsavedChanges: ({ context }) => hasUnsavedFormChanges(context),
  },
  actions: {
    storeProblem: assign({ problem: (_, params: { message: string }) => params.message }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeTemplate: assign((_, params: { template: Portfolio }) => {
      const rows = rowsForCreate(params.template.structure);
      return { rows, values: EMPTY_VALUES, error: null, initial: formState(EMPTY_VALUES, rows) };
    }),
    storeSharedPortfolio: assign((_, params: { sharedPortfolio: SharedPortfolio }) => {
      const values = valuesOf(params.sharedPortfolio);
      const rows = rowsForEdit(params.sharedPortfolio);
      return { sharedPortfolio: params.sharedPortfolio, values, rows, error: null, initial: formState(values, rows) };
    }),
    spawnParticipants: spawnChild('participants', {
      id: 'participants',
      input: ({ context }) => {
        const sp = context.sharedPortfolio!;
        return { sharedPortfolioId: sp.id, owner: sp.owner, members: sp.members };
      },
    }),
    /** Applies a change, re-checking the form when its messages are on screen. */
    storeValues: assign(({ context }, params: { values?: SummaryValues; rows?: QuestionRow[] }) => {
      const values = params.values ?? context.values;
      const rows = params.rows ?? context.rows;
      return { values, rows, errors: context.validated ? checkForm(values, rows).errors : NO_ERRORS };
    }),
    showErrors: assign(({ context }) => ({
      errors: checkForm(context.values, context.rows).errors,
      validated: true,
      refusals: context.refusals + 1,
    })),
    /** The server's refusal, kept for the form's error summary; the view takes the user there. */
    storeSaveError: assign(({ context }, params: { error: unknown }) => ({
      saveError: toUiError(params.error).message,
      refusals: context.refusals + 1,
    })),
    clearSaveError: assign({ saveError: null }),
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
    values: EMPTY_VALUES,
    rows: [],
    errors: NO_ERRORS,
    validated: false,
    refusals: 0,
    sharedPortfolio: null,
    problem: null,
    error: null,
    initial: null,
    saveError: null,
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
              actions: { type: 'storeTemplate', params: ({ event }) => ({ template: event.output }) },
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
        'field.change': {
          actions: {
            type: 'storeValues',
            params: ({ context, event }) => ({ values: { ...context.values, [event.field]: event.value } }),
          },
        },
        'grades.change': {
          actions: {
            type: 'storeValues',
            params: ({ context, event }) => ({ values: { ...context.values, grades: [...event.grades] } }),
          },
        },
        'question.toggle': {
          guard: { type: 'isToggleable', params: ({ event }) => ({ key: event.key }) },
          actions: {
            type: 'storeValues',
            params: ({ context, event }) => ({
              rows: context.rows.map((row) =>
                row.kind === 'template' && row.key === event.key ? { ...row, included: event.included } : row,
              ),
            }),
          },
        },
        'question.add': {
          actions: {
            type: 'storeValues',
            params: ({ context }) => ({ rows: [...context.rows, newBonusRow(newQuestionKey())] }),
          },
        },
        'question.remove': {
          guard: { type: 'isBonusQuestion', params: ({ event }) => ({ key: event.key }) },
          actions: {
            type: 'storeValues',
            params: ({ context, event }) => ({ rows: context.rows.filter((row) => row.key !== event.key) }),
          },
        },
        'question.change': {
          guard: { type: 'isBonusQuestion', params: ({ event }) => ({ key: event.key }) },
          actions: {
            type: 'storeValues',
            params: ({ context, event }) => ({
              rows: context.rows.map((row) =>
                row.kind === 'bonus' && row.key === event.key ? changeBonusRow(row, event.field, event.value) : row,
              ),
            }),
          },
        },
        'form.restore': {
          actions: {
            type: 'storeValues',
            params: ({ context, event }) => ({
              values: event.draft.values,
              rows: restoredRows(context.rows, event.draft.rows),
            }),
          },
        },
        'form.submit': 'validating',
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
    validating: {
      entry: 'clearSaveError',
      always: [
        { guard: 'hasErrors', target: 'editing', actions: 'showErrors' },
        { guard: 'isCreate', target: 'creating' },
        { target: 'updating' },
      ],
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createSharedPortfolio',
        src: 'createSharedPortfolio',
        input: ({ context }) => ({ body: buildBody(context.values, context.rows) }),
        onDone: {
          target: 'saved',
          actions: [
            { type: 'notify', params: { message: SAVED_MESSAGES.created, tone: 'success' } },
            { type: 'navigateToSharedPortfolio', params: ({ event }) => ({ id: event.output.id }) },
          ],
        },
        onError: {
          target: 'editing',
          actions: { type: 'storeSaveError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    updating: {
      tags: ['busy'],
      invoke: {
        id: 'updateSharedPortfolio',
        src: 'updateSharedPortfolio',
        input: ({ context }) => ({ id: context.sharedPortfolioId!, body: buildBody(context.values, context.rows) }),
        onDone: {
          target: 'saved',
          actions: [
            { type: 'notify', params: { message: SAVED_MESSAGES.updated, tone: 'success' } },
            { type: 'navigateToSharedPortfolio', params: ({ event }) => ({ id: event.output.id }) },
          ],
        },
        onError: {
          target: 'editing',
          actions: { type: 'storeSaveError', params: ({ event }) => ({ error: event.error }) },
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
  return (
    (snapshot.matches('editing') || snapshot.matches('confirmingLeave')) && hasUnsavedFormChanges(snapshot.context)
  );
}
