/**
 * Add Portfolio: the inline row of the dashboard's My Portfolios table (spec §4).
 *
 * closed ─(create.open)→ editing ─(form.submit, valid)→ saving ─(created)→ closed (row added, toast)
 *                          │  ↑                                   └─(failed)→ editing (server's message alerted)
 *                          │  └─(name typed)─ invalid ←─(form.submit, no name)─┘ 'A name is required.'
 *                          └─(form.cancel)→ closed (what was typed is discarded)
 *
 * The row is checked with the shared contract before sending (the name is trimmed). A new
 * portfolio is reported to the parent (`portfolio.added`) so the table shows it at once.
 */
import { assign, fromPromise, sendParent, setup } from 'xstate';
import type { Portfolio, PortfolioCreateBody } from '../../schemas/portfolio.ts';
import { toUiError } from '../../services/errors.ts';
import { createPortfolio } from '../../services/portfolioService.ts';
import { effect } from '../shared/effect.ts';
import {
  checkNewPortfolio,
  EMPTY_NEW_PORTFOLIO,
  type NewPortfolioErrors,
  type NewPortfolioTextField,
  type NewPortfolioValues,
} from './newPortfolioForm.ts';
import type { Notice } from '../shared/notice.ts';

export interface PortfolioCreateContext {
  values: NewPortfolioValues;
  /** Messages per field, shown after a refused Save. */
  errors: NewPortfolioErrors;
  /** How many times Save was refused since the row opened (each one moves the focus to the name). */
  refusals: number;
}

export type PortfolioCreateEvent =
  | { type: 'create.open' }
  | { type: 'form.cancel' }
  | { type: 'field.change'; field: NewPortfolioTextField; value: string }
  | { type: 'grades.change'; grades: readonly string[] }
  | { type: 'form.submit' };

/** What the row tells its parent when a portfolio was created. */
export type PortfolioAddedEvent = { type: 'portfolio.added'; portfolio: Portfolio };

/** The toast after a portfolio was created. */
export const PORTFOLIO_CREATED = 'Successfully created portfolio';

export const portfolioCreateMachine = setup({
  types: {
    context: {} as PortfolioCreateContext,
    events: {} as PortfolioCreateEvent,
    tags: {} as 'busy',
  },
  actors: {
    createPortfolio: fromPromise<Portfolio, PortfolioCreateBody>(({ input, signal }) => createPortfolio(input, signal)),
  },
  guards: {
    isFormValid: ({ context }) => checkNewPortfolio(context.values).errors === null,
    isNameChange: (_, params: { field: NewPortfolioTextField }) => params.field === 'name',
  },
  actions: {
    resetForm: assign({ values: EMPTY_NEW_PORTFOLIO, errors: {}, refusals: 0 }),
    storeField: assign({
      values: ({ context }, params: { field: NewPortfolioTextField; value: string }) => ({
        ...context.values,
        [params.field]: params.value,
      }),
    }),
    storeGrades: assign({
      values: ({ context }, params: { grades: readonly string[] }) => ({ ...context.values, grades: params.grades }),
    }),
    showErrors: assign(({ context }) => ({
      errors: checkNewPortfolio(context.values).errors ?? {},
      refusals: context.refusals + 1,
    })),
    clearErrors: assign({ errors: {} }),
    reportAdded: sendParent((_, params: { portfolio: Portfolio }): PortfolioAddedEvent => ({
      type: 'portfolio.added',
      portfolio: params.portfolio,
    })),
    /** Tells the user something (provided by the app: a toast). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'portfolioCreate',
  context: { values: EMPTY_NEW_PORTFOLIO, errors: {}, refusals: 0 },
  initial: 'closed',
  states: {
    closed: {
      entry: 'resetForm',
      on: { 'create.open': 'editing' },
    },
    editing: {
      on: {
        'field.change': { actions: { type: 'storeField', params: ({ event }) => event } },
        'grades.change': { actions: { type: 'storeGrades', params: ({ event }) => event } },
        'form.submit': [
          { guard: 'isFormValid', target: 'saving' },
          { target: 'invalid', actions: 'showErrors' },
        ],
        'form.cancel': 'closed',
      },
    },
    invalid: {
      on: {
        'field.change': [
          {
            guard: { type: 'isNameChange', params: ({ event }) => event },
            target: 'editing',
            actions: [{ type: 'storeField', params: ({ event }) => event }, 'clearErrors'],
          },
          { actions: { type: 'storeField', params: ({ event }) => event } },
        ],
        'grades.change': { actions: { type: 'storeGrades', params: ({ event }) => event } },
        'form.submit': { actions: 'showErrors' },
        'form.cancel': 'closed',
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'createPortfolio',
        src: 'createPortfolio',
        input: ({ context }) => {
          const { body } = checkNewPortfolio(context.values);
          if (!body) throw new Error('The row was checked before saving.');
          return body;
        },
        onDone: {
          target: 'closed',
          actions: [
            { type: 'notify', params: { message: PORTFOLIO_CREATED, tone: 'success' } },
            { type: 'reportAdded', params: ({ event }) => ({ portfolio: event.output }) },
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
  },
});

export type PortfolioCreateMachine = typeof portfolioCreateMachine;
