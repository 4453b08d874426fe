/**
 * The shared portfolio form as data: the summary values, the question rows (template questions
 * with a switch, then the team's bonus questions), the messages of spec §5 and the body sent to
 * the server. Pure functions only.
 */
import { BONUS_TYPES, type SharedPortfolio, type SharedPortfolioBody } from '../../schemas/sharedPortfolio.ts';
import type { Question, Structure } from '../../schemas/structure.ts';

/** A type a team question may have. */
export type BonusType = (typeof BONUS_TYPES)[number];

/** A question of the template: shown as the template defines it, with a switch (core ones always on). */
export interface TemplateRow {
  kind: 'template';
  key: string;
  question: Question;
  included: boolean;
}

/**
 * A team (bonus) question. `choices` are the stored choices; `choicesText` is what the user typed
 * in the comma-separated box, or `null` while the box was not touched (the stored list is then
 * sent unchanged, so a choice that contains a comma stays one choice).
 */
export interface BonusRow {
  kind: 'bonus';
  key: string;
  text: string;
  type: BonusType | '';
  choices: readonly string[];
  choicesText: string | null;
}

export type QuestionRow = TemplateRow | BonusRow;

/** The summary fields as typed. */
export interface SummaryValues {
  name: string;
  grades: readonly string[];
  subject: string;
  topic: string;
  plcName: string;
  plcGoals: string;
}

/** The summary fields that hold one text. */
export type SummaryField = 'name' | 'subject' | 'topic' | 'plcName' | 'plcGoals';

/** The parts of a team question the user edits. */
export type BonusField = 'text' | 'type' | 'choices';

export interface QuestionErrors {
  text?: string;
  type?: string;
  choices?: string;
}

/** Messages per field; `questions` by question key. */
export interface FormErrors {
  name?: string;
  questions: Readonly<Record<string, QuestionErrors>>;
}

/** The texts of spec §5. */
export const FORM_MESSAGES = {
  nameRequired: 'A name is required.',
  textRequired: 'Question text is required.',
  typeRequired: 'Question type is required.',
  choicesRequired: 'You must enter at least one choice.',
} as const;

/** The summary alert (spec §5), singular for one question. */
export const invalidQuestionsMessage = (n: number): string =>
  `You have ${n} invalid ${n === 1 ? 'question' : 'questions'}. Please add the required info and re-submit.`;

export const EMPTY_VALUES: SummaryValues = { name: '', grades: [], subject: '', topic: '', plcName: '', plcGoals: '' };

/** Whether a team question of this type needs choices. */
export const isChoiceType = (type: string): boolean => type === 'singleSelection' || type === 'multipleResponse';

const isBonusType = (type: string): type is BonusType => (BONUS_TYPES as readonly string[]).includes(type);

/** The choices typed in a comma-separated box: split on commas, trimmed, empty ones dropped. */
export function splitChoices(text: string): string[] {
  return text
    .split(',')
    .map((choice) => choice.trim())
    .filter((choice) => choice !== '');
}

/** The choices a team question will be saved with. */
export function choicesOf(row: BonusRow): string[] {
  return row.choicesText === null ? [...row.choices] : splitChoices(row.choicesText);
}

/** What the comma-separated box shows. */
export function choicesTextOf(row: BonusRow): string {
  return row.choicesText ?? row.choices.join(', ');
}

/** A new, random question key. */
export function newQuestionKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  // randomUUID needs a secure context; build the same kind of id (version 4) by hand otherwise.
  const bytes = c.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An empty team question. */
export function newBonusRow(key: string): BonusRow {
  return { kind: 'bonus', key, text: '', type: '', choices: [], choicesText: null };
}

/** The rows of a new shared portfolio: every template question, switched on. */
export function rowsForCreate(template: Structure): QuestionRow[] {
  return template.map((question) => ({ kind: 'template', key: question.key, question, included: true }));
}

/**
 * The rows of an existing shared portfolio: its template's questions (on when core or when the
 * portfolio still has them), then its team questions as stored.
 */
export function rowsForEdit(sp: Pick<SharedPortfolio, 'structure' | 'templateStructure'>): QuestionRow[] {
  const templateKeys = new Set(sp.templateStructure.map((q) => q.key));
  const present = new Set(sp.structure.map((q) => q.key));
  const template: QuestionRow[] = sp.templateStructure.map((question) => ({
    kind: 'template',
    key: question.key,
    question,
    included: Boolean(question.core) || present.has(question.key),
  }));
  const bonus: QuestionRow[] = sp.structure
    .filter((q) => q.bonus || !templateKeys.has(q.key))
    .map((q) => ({
      kind: 'bonus',
      key: q.key,
      text: q.text,
      type: isBonusType(q.type) ? q.type : '',
      choices: isChoiceType(q.type) ? [...(q.choices ?? [])] : [],
      choicesText: null,
    }));
  return [...template, ...bonus];
}

/** The summary values of an existing shared portfolio. */
export function valuesOf(
  sp: Pick<SharedPortfolio, 'name' | 'grades' | 'subject' | 'topic' | 'plcName' | 'plcGoals'>,
): SummaryValues {
  return {
    name: sp.name,
    grades: [...sp.grades],
    subject: sp.subject ?? '',
    topic: sp.topic ?? '',
    plcName: sp.plcName ?? '',
    plcGoals: sp.plcGoals ?? '',
  };
}

/** Whether a template question may be switched (core questions cannot). */
export const isLocked = (row: TemplateRow): boolean => Boolean(row.question.core);

/** The messages of one team question (empty when it is fine). */
export function checkBonusRow(row: BonusRow): QuestionErrors {
  const errors: QuestionErrors = {};
  if (row.text.trim() === '') errors.text = FORM_MESSAGES.textRequired;
  if (row.type === '') errors.type = FORM_MESSAGES.typeRequired;
  else if (isChoiceType(row.type) && choicesOf(row).length === 0) errors.choices = FORM_MESSAGES.choicesRequired;
  return errors;
}

/** Every message of the form, and how many questions are invalid. */
export function checkForm(
  values: SummaryValues,
  rows: readonly QuestionRow[],
): { errors: FormErrors; invalidQuestions: number } {
  const questions: Record<string, QuestionErrors> = {};
  for (const row of rows) {
    if (row.kind !== 'bonus') continue;
    const errors = checkBonusRow(row);
    if (Object.keys(errors).length > 0) questions[row.key] = errors;
  }
  const errors: FormErrors = { questions };
  if (values.name.trim() === '') errors.name = FORM_MESSAGES.nameRequired;
  return { errors, invalidQuestions: Object.keys(questions).length };
}

/** Whether a set of messages holds any. */
export const hasErrors = (errors: FormErrors): boolean =>
  errors.name !== undefined || Object.keys(errors.questions).length > 0;

const optional = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/**
 * The body to send: the name trimmed; the template questions that are on, exactly as the template
 * defines them; the team questions with their choices (choice types only) or min 1, max 1, step 1
 * (numbers).
 */
export function buildBody(values: SummaryValues, rows: readonly QuestionRow[]): SharedPortfolioBody {
  const structure: SharedPortfolioBody['structure'] = [];
  for (const row of rows) {
    if (row.kind === 'template') {
      if (row.included || isLocked(row)) structure.push(row.question);
      continue;
    }
    const question: SharedPortfolioBody['structure'][number] = {
      key: row.key,
      text: row.text.trim(),
      type: row.type,
      bonus: true,
    };
    if (isChoiceType(row.type)) question.choices = choicesOf(row);
    else if (row.type === 'number') Object.assign(question, { min: 1, max: 1, step: 1 });
    structure.push(question);
  }
  return {
    name: values.name.trim(),
    grades: [...values.grades] as SharedPortfolioBody['grades'],
    subject: (optional(values.subject) as SharedPortfolioBody['subject']) ?? null,
    topic: optional(values.topic),
    plcName: optional(values.plcName),
    plcGoals: optional(values.plcGoals),
    structure,
  };
}

/** Changes one part of a team question. */
export function changeBonusRow(row: BonusRow, field: BonusField, value: string): BonusRow {
  if (field === 'text') return { ...row, text: value };
  if (field === 'choices') return { ...row, choicesText: value };
  return { ...row, type: isBonusType(value) ? value : '' };
}

/** The form's content as text: compared with the content as loaded to tell unsaved changes, and kept as a local draft. */
export const formState = (values: SummaryValues, rows: readonly QuestionRow[]): string =>
  JSON.stringify({ values, rows });

/** Whether the form holds changes not saved yet (`initial`: its content as loaded). */
export function hasUnsavedFormChanges(context: {
  values: SummaryValues;
  rows: readonly QuestionRow[];
  initial: string | null;
}): boolean {
  return context.initial !== null && formState(context.values, context.rows) !== context.initial;
}

/** The form as a local draft kept it. */
export interface FormDraft {
  values: SummaryValues;
  rows: QuestionRow[];
}

const isText = (value: unknown): value is string => typeof value === 'string';

function draftBonusRow(row: Record<string, unknown>): BonusRow | null {
  const { key, text, type, choices, choicesText } = row;
  if (!isText(key) || !isText(text) || !isText(type) || !Array.isArray(choices) || !choices.every(isText)) return null;
  if (!(choicesText === null || isText(choicesText))) return null;
  return { kind: 'bonus', key, text, type: isBonusType(type) ? type : '', choices: [...choices], choicesText };
}

/** The form a local draft kept (as `formState` wrote it); `null` for anything else. */
export function parseFormDraft(text: string): FormDraft | null {
  try {
    const { values, rows } = JSON.parse(text) as { values?: Record<string, unknown>; rows?: unknown };
    if (!values || typeof values !== 'object' || !Array.isArray(rows)) return null;
    const { name, grades, subject, topic, plcName, plcGoals } = values;
    if (![name, subject, topic, plcName, plcGoals].every(isText) || !Array.isArray(grades) || !grades.every(isText))
      return null;
    const restored: QuestionRow[] = [];
    for (const row of rows as Record<string, unknown>[]) {
      if (
        row?.kind === 'template' &&
        isText(row.key) &&
        typeof row.included === 'boolean' &&
        typeof row.question === 'object' &&
        row.question !== null
      ) {
        restored.push({ kind: 'template', key: row.key, question: row.question as Question, included: row.included });
      } else if (row?.kind === 'bonus') {
        const bonus = draftBonusRow(row);
        if (bonus) restored.push(bonus);
      }
    }
    return {
      values: { name, grades: [...grades], subject, topic, plcName, plcGoals } as SummaryValues,
      rows: restored,
    };
  } catch {
    return null;
  }
}

/**
 * The rows after a draft is put back: the template questions stay as the form loaded them (only
 * their switches come from the draft; core ones stay on), the team questions are the draft's.
 */
export function restoredRows(current: readonly QuestionRow[], draft: readonly QuestionRow[]): QuestionRow[] {
  const switches = new Map(draft.flatMap((row) => (row.kind === 'template' ? [[row.key, row.included] as const] : [])));
  const template = current.flatMap((row): QuestionRow[] =>
    row.kind === 'template'
      ? [{ ...row, included: isLocked(row) ? row.included : (switches.get(row.key) ?? row.included) }]
      : [],
  );
  return [...template, ...draft.filter((row) => row.kind === 'bonus')];
}
