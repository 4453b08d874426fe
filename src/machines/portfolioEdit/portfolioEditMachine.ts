/**
 * Edit portfolio (`/my-portfolios/{id}/edit`): name, grades, subject and topic; Delete only while
 * the portfolio has no artifacts, after a confirmation.
 *
 * loading ─(portfolio)→ editing ─(form.submit, valid)→ saving ─(saved)→ saved (the app shows the portfolio)
 *    ├─(404)→ notFound     │  └─(invalid: messages)      └─(failed)→ editing
 *    └─(failed)→ loadFailed ─(retry)→ loading
 * editing ─(delete.request, no artifacts)→ confirmingDelete ─(delete.confirm)→ deleting ─(deleted)→ deleted (back to the list)
 *                                              └─(delete.cancel)→ editing        └─(failed)→ editing
 * editing ─(form.cancel)→ leaving (the app shows the portfolio; Cancel is an explicit "discard")
 * editing ─(leave.request, unsaved changes)→ confirmingLeave ─(leave.confirm)→ leaving (the app goes on)
 *                │                                  └─(leave.stay)→ editing (the app stays)
 *                └─(leave.request, nothing changed)→ leaving (the app goes on)
 * Anywhere else `leave.request` lets the app go on at once.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Portfolio, PortfolioListItem, PortfolioUpdateBody } from '../../schemas/portfolio.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { deletePortfolio, getPortfolio, updatePortfolio } from '../../services/portfolioService.ts';
import { effect } from '../shared/effect.ts';
import {
  checkPortfolioForm,
  hasUnsavedPortfolioChanges,
  valuesOf,
  type PortfolioFormErrors,
  type PortfolioFormValues,
  type PortfolioTextField,
} from './portfolioForm.ts';
import type { Notice } from '../shared/notice.ts';

export interface PortfolioEditInput {
  portfolioId: number;
}

export interface PortfolioEditContext {
  portfolioId: number;
  portfolio: Portfolio | null;
  values: PortfolioFormValues;
  /** Messages per field, shown once the user tried to save. */
  errors: PortfolioFormErrors;
  /** How many times the user tried to save. */
  attempts: number;
  error: UiError | null;
}

export type PortfolioEditEvent =
  | { type: 'field.change'; field: PortfolioTextField; value: string }
  | { type: 'grades.change'; grades: readonly string[] }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'delete.request' }
  | { type: 'delete.cancel' }
  | { type: 'delete.confirm' }
  /** The user is about to leave the page (a link, Back): the machine allows it or asks first. */
  | { type: 'leave.request' }
  | { type: 'leave.confirm' }
  | { type: 'leave.stay' }
  | { type: 'retry' };

/** The toasts of this page. */
export const PORTFOLIO_SAVED = 'Successfully edited portfolio';
export const PORTFOLIO_DELETED = 'Successfully deleted portfolio';

const EMPTY_VALUES: PortfolioFormValues = { name: '', grades: [], subject: '', topic: '' };

export const portfolioEditMachine = setup({
  types: {
    context: {} as PortfolioEditContext,
    events: {} as PortfolioEditEvent,
    input: {} as PortfolioEditInput,
    tags: {} as 'busy',
  },
  actors: {
    getPortfolio: fromPromise<Portfolio, { portfolioId: number }>(({ input, signal }) =>
      getPortfolio(input.portfolioId, signal),
    ),
    updatePortfolio: fromPromise<Portfolio, { portfolioId: number; body: PortfolioUpdateBody }>(({ input, signal }) =>
      updatePortfolio(input.portfolioId, input.body, signal),
    ),
    deletePortfolio: fromPromise<PortfolioListItem, { portfolioId: number }>(({ input, signal }) =>
      deletePortfolio(input.portfolioId, signal),
    ),
  },
  guards: {
    isNotFound: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 404,
    isFormValid: ({ context }) => checkPortfolioForm(context.values).errors === null,
    hasNoArtifacts: ({ context }) => context.portfolio !== null && context.portfolio.artifacts.length === 0,
    hasUnsavedChanges: ({ context }) => hasUnsavedPortfolioChanges(context),
  },
  actions: {
    storePortfolio: assign((_, params: { portfolio: Portfolio }) => ({
      portfolio: params.portfolio,
      values: valuesOf(params.portfolio),
      errors: {},
      attempts: 0,
      error: null,
    })),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeField: assign(
      ({ context }, params: { field: keyof PortfolioFormValues; value: string | readonly string[] }) => {
        const values = { ...context.values, [params.field]: params.value };
        // Once messages are on screen they follow what is typed.
        return { values, errors: context.attempts > 0 ? (checkPortfolioForm(values).errors ?? {}) : {} };
      },
    ),
    showErrors: assign(({ context }) => ({
      errors: checkPortfolioForm(context.values).errors ?? {},
      attempts: context.attempts + 1,
    })),
    clearErrors: assign({ errors: {} }),
    /** Shows the portfolio (provided by the app). */
    showPortfolio: effect<{ portfolioId: number }>('showPortfolio'),
    /** Goes back to My Portfolios (provided by the app). */
    showPortfolioList: effect('showPortfolioList'),
    /** Tells the user something (provided by the app). */
    notify: effect<Notice>('notify'),
    /** Lets the navigation the user asked for happen (provided by the app). */
    allowLeave: effect('allowLeave'),
    /** Drops the navigation the user asked for (provided by the app). */
    stayHere: effect('stayHere'),
  },
}).createMachine({
  id: 'portfolioEdit',
  context: ({ input }) => ({
    portfolioId: input.portfolioId,
    portfolio: null,
    values: EMPTY_VALUES,
    errors: {},
    attempts: 0,
    error: null,
  }),
  initial: 'loading',
  // Outside the form (loading, saving, a finished save or delete) nothing typed can be lost.
  on: { 'leave.request': { actions: 'allowLeave' } },
  states: {
    loading: {
      invoke: {
        id: 'getPortfolio',
        src: 'getPortfolio',
        input: ({ context }) => ({ portfolioId: context.portfolioId }),
        onDone: {
          target: 'editing',
          actions: { type: 'storePortfolio', params: ({ event }) => ({ portfolio: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'notFound',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'loadFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    notFound: {},
    loadFailed: {
      on: { retry: 'loading' },
    },
    editing: {
      on: {
        'field.change': { actions: { type: 'storeField', params: ({ event }) => event } },
        'grades.change': {
          actions: { type: 'storeField', params: ({ event }) => ({ field: 'grades', value: event.grades }) },
        },
        'form.submit': [{ guard: 'isFormValid', target: 'saving', actions: 'clearErrors' }, { actions: 'showErrors' }],
        'form.cancel': {
          target: 'leaving',
          actions: { type: 'showPortfolio', params: ({ context }) => ({ portfolioId: context.portfolioId }) },
        },
        'delete.request': { guard: 'hasNoArtifacts', target: 'confirmingDelete' },
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
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'updatePortfolio',
        src: 'updatePortfolio',
        input: ({ context }) => {
          const { body } = checkPortfolioForm(context.values);
          if (!body) throw new Error('The form was checked before saving.');
          return { portfolioId: context.portfolioId, body };
        },
        onDone: {
          target: 'saved',
          actions: [
            { type: 'notify', params: { message: PORTFOLIO_SAVED, tone: 'success' } },
            { type: 'showPortfolio', params: ({ context }) => ({ portfolioId: context.portfolioId }) },
          ],
        },
        onError: {
          target: 'editing',
          actions: {
            type: 'notify',
            params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }),
          },
        },
      },
    },
    saved: { tags: ['busy'] },
    confirmingDelete: {
      on: {
        'delete.cancel': 'editing',
        'delete.confirm': 'deleting',
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deletePortfolio',
        src: 'deletePortfolio',
        input: ({ context }) => ({ portfolioId: context.portfolioId }),
        onDone: {
          target: 'deleted',
          actions: [{ type: 'notify', params: { message: PORTFOLIO_DELETED, tone: 'success' } }, 'showPortfolioList'],
        },
        onError: {
          target: 'editing',
          actions: {
            type: 'notify',
            params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }),
          },
        },
      },
    },
    deleted: { tags: ['busy'] },
  },
});

export type PortfolioEditMachine = typeof portfolioEditMachine;

/** Whether leaving the page now (reload, closing the tab) would lose typed changes. */
export function portfolioEditHasUnsavedChanges(snapshot: {
  matches: (state: 'editing' | 'confirmingLeave') => boolean;
  context: PortfolioEditContext;
}): boolean {
  return (
    (snapshot.matches('editing') || snapshot.matches('confirmingLeave')) && hasUnsavedPortfolioChanges(snapshot.context)
  );
}
