/**
 * Loading the shared portfolio form's data, invoked by `sharedPortfolioForm` while it is loading
 * (once the form knows the user may open it): the template's questions for a new shared portfolio,
 * or the portfolio to edit. It ends with the fields as loaded, or with why the page cannot be shown,
 * or with why loading failed (the form then offers Try again, which loads afresh).
 *
 * choosing ─[create]→ template ─(template)→ loaded
 *    │                    ├─(not found)→ unavailable (the template is missing)
 *    │                    └─(failed)→ failed
 *    └─[edit]→ sharedPortfolio ─(owner or researcher)→ loaded
 *                   ├─(not theirs to edit, or not found)→ unavailable (not found)
 *                   └─(failed)→ failed
 */
import { assign, fromPromise, setup } from 'xstate';
import { TEMPLATE_PORTFOLIO_ID } from '../../schemas/catalog.ts';
import type { Portfolio } from '../../schemas/portfolio.ts';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { getPortfolio } from '../../services/portfolioService.ts';
import { getSharedPortfolio } from '../../services/sharedService.ts';
import { EMPTY_VALUES, rowsForCreate, rowsForEdit, valuesOf } from '../sharedPortfolioForm/sharedForm.ts';
import type { SharedPortfolioFieldsInput } from '../sharedPortfolioForm/sharedPortfolioFieldsMachine.ts';
import { ACCESS_MESSAGES, type FormMode } from '../sharedPortfolioForm/sharedPortfolioFormTypes.ts';

export interface SharedPortfolioLoadInput {
  mode: FormMode;
  /** The portfolio to edit (ignored on create). */
  sharedPortfolioId: number | null;
}

/** The fields as loaded (and on edit the portfolio), or why the page cannot be shown, or why loading failed. */
export type SharedPortfolioLoadOutput =
  | { kind: 'loaded'; fields: SharedPortfolioFieldsInput; sharedPortfolio: SharedPortfolio | null }
  | { kind: 'unavailable'; problem: string }
  | { kind: 'failed'; error: UiError };

interface SharedPortfolioLoadContext extends SharedPortfolioLoadInput {
  output: SharedPortfolioLoadOutput | null;
}

const is404 = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

export const sharedPortfolioLoadMachine = setup({
  types: {
    context: {} as SharedPortfolioLoadContext,
    input: {} as SharedPortfolioLoadInput,
    output: {} as SharedPortfolioLoadOutput,
  },
  actors: {
    fetchTemplate: fromPromise<Portfolio>(({ signal }) => getPortfolio(TEMPLATE_PORTFOLIO_ID, signal)),
    fetchSharedPortfolio: fromPromise<SharedPortfolio, { id: number }>(({ input, signal }) =>
      getSharedPortfolio(input.id, signal),
    ),
  },
  guards: {
    isCreate: ({ context }) => context.mode === 'create',
    canEdit: (_, params: { sharedPortfolio: SharedPortfolio }) => params.sharedPortfolio.abilities?.edit === true,
    isNotFound: (_, params: { error: unknown }) => is404(params.error),
  },
  actions: {
    /** A new shared portfolio: the template's questions, every one on, and empty summary fields. */
    storeTemplate: assign({
      output: (_, params: { template: Portfolio }): SharedPortfolioLoadOutput => ({
        kind: 'loaded',
        fields: { values: EMPTY_VALUES, rows: rowsForCreate(params.template.structure) },
        sharedPortfolio: null,
      }),
    }),
    /** The portfolio to edit, and its fields as it holds them. */
    storeSharedPortfolio: assign({
      output: (_, params: { sharedPortfolio: SharedPortfolio }): SharedPortfolioLoadOutput => ({
        kind: 'loaded',
        fields: { values: valuesOf(params.sharedPortfolio), rows: rowsForEdit(params.sharedPortfolio) },
        sharedPortfolio: params.sharedPortfolio,
      }),
    }),
    storeProblem: assign({
      output: (_, params: { problem: string }): SharedPortfolioLoadOutput => ({
        kind: 'unavailable',
        problem: params.problem,
      }),
    }),
    storeError: assign({
      output: (_, params: { error: unknown }): SharedPortfolioLoadOutput => ({
        kind: 'failed',
        error: toUiError(params.error),
      }),
    }),
  },
}).createMachine({
  id: 'sharedPortfolioLoad',
  context: ({ input }) => ({ ...input, output: null }),
  output: ({ context }) => context.output!,
  initial: 'choosing',
  states: {
    choosing: { always: [{ guard: 'isCreate', target: 'template' }, { target: 'sharedPortfolio' }] },
    template: {
      invoke: {
        id: 'fetchTemplate',
        src: 'fetchTemplate',
        onDone: {
          target: 'loaded',
          actions: { type: 'storeTemplate', params: ({ event }) => ({ template: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'unavailable',
            actions: { type: 'storeProblem', params: { problem: ACCESS_MESSAGES.templateMissing } },
          },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
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
            target: 'loaded',
            actions: { type: 'storeSharedPortfolio', params: ({ event }) => ({ sharedPortfolio: event.output }) },
          },
          {
            target: 'unavailable',
            actions: { type: 'storeProblem', params: { problem: ACCESS_MESSAGES.notFound } },
          },
        ],
        onError: [
          {
            guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
            target: 'unavailable',
            actions: { type: 'storeProblem', params: { problem: ACCESS_MESSAGES.notFound } },
          },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    loaded: { type: 'final' },
    unavailable: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type SharedPortfolioLoadMachine = typeof sharedPortfolioLoadMachine;
