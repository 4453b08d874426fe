import { STANDARDS_ALIASES, STANDARDS_ITEMS } from './standards.ts';
import type { Question, Responses, Structure } from './structure.ts';

/** Longest answer to a short-text question. */
export const SHORT_TEXT_MAX = 500;
/** Longest answer to a long-text question. */
export const LONG_TEXT_MAX = 20_000;
/** Largest number answer. */
export const NUMBER_MAX = 1_000_000;

/** One problem with one answer. */
export interface ResponseIssue {
  key: string;
  message: string;
}

/** The web's 57 labels and the mobile apps' spellings of the same items. */
const STANDARDS = new Set([...STANDARDS_ITEMS, ...Object.keys(STANDARDS_ALIASES)]);

/** Whether an answer counts as empty (null, blank text, empty list). */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function label(q: Question): string {
  return q.text.trim() || q.key;
}

/**
 * The range a number question takes: its own `min`, `max` and `step` (the template's Day of the
 * unit: 0 to 200), within 0 to {@link NUMBER_MAX}. A team question's `min 1, max 1, step 1` is the
 * placeholder the shared-portfolio form writes for the mobile apps (reference §13), not a range:
 * such a question takes any whole number.
 */
export function numberBounds(q: Pick<Question, 'min' | 'max' | 'step' | 'bonus'>): {
  min: number;
  max: number;
  step: number;
} {
  const own = !q.bonus && q.min !== undefined && q.max !== undefined && q.min < q.max;
  const min = own ? Math.max(0, Math.ceil(q.min!)) : 0;
  const max = own ? Math.min(NUMBER_MAX, Math.floor(q.max!)) : NUMBER_MAX;
  const step = own && q.step !== undefined && Number.isInteger(q.step) && q.step > 1 ? q.step : 1;
  return { min, max, step };
}

/**
 * What is wrong with a number answer, or `null`: a whole number within the question's bounds.
 * The same rule for the form as it is typed (`value` the text of the field) and for the server.
 */
export function numberIssue(q: Question, value: unknown): string | null {
  const name = label(q);
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) return `Field ${name} must be an integer.`;
  const { min, max, step } = numberBounds(q);
  if (n < min || n > max) return `Field ${name} must be between ${min} and ${max}.`;
  if ((n - min) % step !== 0) return `Field ${name} must be ${min} plus a multiple of ${step}.`;
  return null;
}

function checkValue(q: Question, value: unknown): { value: unknown; message: string | null } {
  const name = label(q);
  switch (q.type) {
    case 'shortText':
    case 'longText': {
      if (typeof value !== 'string') return { value, message: `Field ${name} must be text.` };
      const max = q.type === 'shortText' ? SHORT_TEXT_MAX : LONG_TEXT_MAX;
      if (value.length > max) return { value, message: `Field ${name} must be at most ${max} characters.` };
      return { value, message: null };
    }
    case 'singleSelection': {
      if (typeof value !== 'string') return { value, message: `Field ${name} must be one of its choices.` };
      if (q.choices && !q.choices.includes(value)) return { value, message: `Field ${name} has no choice "${value}".` };
      return { value, message: null };
    }
    case 'multipleResponse':
    case 'expansionPanelChoices': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
        return { value, message: `Field ${name} must be a list of its choices.` };
      }
      // Standards are stored exactly as sent: the mobile apps spell a few of the 57 labels their own way.
      const list = value as string[];
      const allowed = (v: string) =>
        q.type === 'expansionPanelChoices'
          ? STANDARDS.has(v) || (q.choices?.includes(v) ?? false)
          : !q.choices || q.choices.includes(v);
      const unknown = list.find((v) => !allowed(v));
      if (unknown !== undefined) return { value, message: `Field ${name} has no choice "${unknown}".` };
      return { value: [...new Set(list)], message: null };
    }
    case 'number': {
      const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
      return { value: n, message: numberIssue(q, n) };
    }
    case 'fileUpload':
      return { value, message: `Field ${name} takes files, which are uploaded separately.` };
  }
}

/**
 * Checks answers against a structure and returns them cleaned: empty values dropped, numbers
 * as integers, standards labels of the mobile apps mapped to the web's. With `requireCore`,
 * every core question must be answered (spec §5 messages).
 */
export function validateResponses(
  structure: Structure,
  responses: Responses,
  options: { requireCore: boolean; allowUnknownKeys?: boolean },
): { value: Responses; issues: ResponseIssue[] } {
  const byKey = new Map(structure.map((q) => [q.key, q]));
  const issues: ResponseIssue[] = [];
  const value: Responses = {};
  for (const [key, raw] of Object.entries(responses)) {
    const q = byKey.get(key);
    if (!q) {
      if (options.allowUnknownKeys) {
        if (!isEmptyValue(raw)) value[key] = raw;
      } else {
        issues.push({ key, message: `There is no question "${key}" in this artifact.` });
      }
      continue;
    }
    if (isEmptyValue(raw)) continue;
    const checked = checkValue(q, raw);
    if (checked.message) issues.push({ key, message: checked.message });
    else value[key] = checked.value as Responses[string];
  }
  if (options.requireCore) {
    for (const q of structure) {
      if (!q.core || q.type === 'fileUpload' || issues.some((i) => i.key === q.key)) continue;
      if (value[q.key] === undefined) issues.push({ key: q.key, message: requiredMessage(q) });
    }
  }
  return { value, issues };
}

/** The spec's message for an unanswered required question. */
export function requiredMessage(q: Question): string {
  return q.type === 'multipleResponse' || q.type === 'expansionPanelChoices'
    ? `Field ${label(q)} requires at least one selection.`
    : `Field ${label(q)} is required.`;
}

/** The message shown above a form with errors (spec §5). */
export const FORM_ERROR_MESSAGE = 'There were errors in your form, please review and resubmit';
