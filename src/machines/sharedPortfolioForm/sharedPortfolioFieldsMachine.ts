/**
 * The fields of the shared portfolio form (the Summary and the Questions table), spawned by the
 * form (`sharedPortfolioFormMachine`) once the template or the portfolio is loaded.
 *
 * editing ─(a field, a grade, a question switched, added, removed or changed; a draft put back)→ editing
 *    │        (the parent hears whether the form now differs from what was loaded: fields.changed)
 *    └─(form.submit)→ validating ─(invalid: messages)→ editing (the parent hears form.invalid)
 *                                 └─(valid)→ submitted (the parent hears form.valid with the body to send)
 * submitted: nothing changes while the form saves ─(form.reopen: the server refused the save)→ editing
 *
 * Messages show once the user tried to save, then they follow the typing.
 */
import { assign, sendParent, setup } from 'xstate';
import type { SharedPortfolioBody } from '../../schemas/sharedPortfolio.ts';
import {
  buildBody,
  changeBonusRow,
  checkForm,
  formState,
  hasErrors,
  hasUnsavedFormChanges,
  isLocked,
  newBonusRow,
  newQuestionKey,
  restoredRows,
  type BonusField,
  type FormDraft,
  type FormErrors,
  type QuestionRow,
  type SummaryField,
  type SummaryValues,
} from './sharedForm.ts';

export interface SharedPortfolioFieldsInput {
  /** The form as loaded. */
  values: SummaryValues;
  rows: QuestionRow[];
}

export interface SharedPortfolioFieldsContext {
  values: SummaryValues;
  rows: QuestionRow[];
  /** Messages; shown once the user tried to save, then they follow the typing. */
  errors: FormErrors;
  validated: boolean;
  /** The form as loaded (values and questions), to tell whether anything changed. */
  initial: string;
}

export type SharedPortfolioFieldsEvent =
  | { type: 'field.change'; field: SummaryField; value: string }
  | { type: 'grades.change'; grades: readonly string[] }
  | { type: 'question.toggle'; key: string; included: boolean }
  | { type: 'question.add' }
  | { type: 'question.remove'; key: string }
  | { type: 'question.change'; key: string; field: BonusField; value: string }
  /** A local draft of the form (left by a crash or a reload) put back in place of what the form holds. */
  | { type: 'form.restore'; draft: FormDraft }
  | { type: 'form.submit' }
  /** The parent's save was refused: the fields can be changed again. */
  | { type: 'form.reopen' };

/** What the fields tell the form. */
export type SharedPortfolioFieldsReport =
  | { type: 'fields.changed'; unsaved: boolean }
  | { type: 'form.invalid' }
  | { type: 'form.valid'; body: SharedPortfolioBody };

export const NO_ERRORS: FormErrors = { questions: {} };

export const sharedPortfolioFieldsMachine = setup({
  types: {
    context: {} as SharedPortfolioFieldsContext,
    events: {} as SharedPortfolioFieldsEvent,
    input: {} as SharedPortfolioFieldsInput,
  },
  guards: {
    isToggleable: ({ context }, params: { key: string }) =>
      context.rows.some((row) => row.kind === 'template' && row.key === params.key && !isLocked(row)),
    isBonusQuestion: ({ context }, params: { key: string }) =>
      context.rows.some((row) => row.kind === 'bonus' && row.key === params.key),
    hasErrors: ({ context }) => hasErrors(checkForm(context.values, context.rows).errors),
  },
  actions: {
    /** Applies a change, re-checking the form when its messages are on screen. */
    storeValues: assign(({ context }, params: { values?: SummaryValues; rows?: QuestionRow[] }) => {
      const values = params.values ?? context.values;
      const rows = params.rows ?? context.rows;
      return { values, rows, errors: context.validated ? checkForm(values, rows).errors : NO_ERRORS };
    }),
    showErrors: assign(({ context }) => ({ errors: checkForm(context.values, context.rows).errors, validated: true })),
    /** Tells the form whether it now holds changes not saved yet. */
    reportChange: sendParent(({ context }): SharedPortfolioFieldsReport => ({
      type: 'fields.changed',
      unsaved: hasUnsavedFormChanges(context),
    })),
    reportInvalid: sendParent({ type: 'form.invalid' } satisfies SharedPortfolioFieldsReport),
    /** Hands the form the body to send. */
    reportValid: sendParent(({ context }): SharedPortfolioFieldsReport => ({
      type: 'form.valid',
      body: buildBody(context.values, context.rows),
    })),
  },
}).createMachine({
  id: 'sharedPortfolioFields',
  context: ({ input }) => ({
    values: input.values,
    rows: input.rows,
    errors: NO_ERRORS,
    validated: false,
    initial: formState(input.values, input.rows),
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: [
            {
              type: 'storeValues',
              params: ({ context, event }) => ({ values: { ...context.values, [event.field]: event.value } }),
            },
            'reportChange',
          ],
        },
        'grades.change': {
          actions: [
            {
              type: 'storeValues',
              params: ({ context, event }) => ({ values: { ...context.values, grades: [...event.grades] } }),
            },
            'reportChange',
          ],
        },
        'question.toggle': {
          guard: { type: 'isToggleable', params: ({ event }) => ({ key: event.key }) },
          actions: [
            {
              type: 'storeValues',
              params: ({ context, event }) => ({
                rows: context.rows.map((row) =>
                  row.kind === 'template' && row.key === event.key ? { ...row, included: event.included } : row,
                ),
              }),
            },
            'reportChange',
          ],
        },
        'question.add': {
          actions: [
            {
              type: 'storeValues',
              params: ({ context }) => ({ rows: [...context.rows, newBonusRow(newQuestionKey())] }),
            },
            'reportChange',
          ],
        },
        'question.remove': {
          guard: { type: 'isBonusQuestion', params: ({ event }) => ({ key: event.key }) },
          actions: [
            {
              type: 'storeValues',
              params: ({ context, event }) => ({ rows: context.rows.filter((row) => row.key !== event.key) }),
            },
            'reportChange',
          ],
        },
        'question.change': {
          guard: { type: 'isBonusQuestion', params: ({ event }) => ({ key: event.key }) },
          actions: [
            {
              type: 'storeValues',
              params: ({ context, event }) => ({
                rows: context.rows.map((row) =>
                  row.kind === 'bonus' && row.key === event.key ? changeBonusRow(row, event.field, event.value) : row,
                ),
              }),
            },
            'reportChange',
          ],
        },
        'form.restore': {
          actions: [
            {
              type: 'storeValues',
              params: ({ context, event }) => ({
                values: event.draft.values,
                rows: restoredRows(context.rows, event.draft.rows),
              }),
            },
            'reportChange',
          ],
        },
        'form.submit': 'validating',
      },
    },
    validating: {
      always: [
        { guard: 'hasErrors', target: 'editing', actions: ['showErrors', 'reportInvalid'] },
        { target: 'submitted', actions: 'reportValid' },
      ],
    },
    submitted: {
      on: { 'form.reopen': 'editing' },
    },
  },
});

export type SharedPortfolioFieldsMachine = typeof sharedPortfolioFieldsMachine;
