/** The answers of the artifact form as the inputs hold them, and back. */
import { isEmptyValue, numberIssue, type ResponseIssue } from '../../schemas/responses.ts';
import { STANDARDS_ALIASES } from '../../schemas/standards.ts';
import type { Question, Responses, Structure } from '../../schemas/structure.ts';
import { isFileQuestion } from './artifactSelectors.ts';

/** One answer as an input holds it: text (numbers as typed) or the ticked choices. */
export type DraftValue = string | string[];
/** The form's answers, by question key. */
export type Draft = Record<string, DraftValue>;

/** Whether a question is answered with a list of choices. */
export const isListQuestion = (q: Question): boolean =>
  q.type === 'multipleResponse' || q.type === 'expansionPanelChoices';

/** The keys the form edits: every question except the files (uploads are not responses). */
export function editableKeys(structure: Structure): ReadonlySet<string> {
  return new Set(structure.filter((q) => !isFileQuestion(q)).map((q) => q.key));
}

/** The form's starting answers: every editable question, empty when unanswered. */
export function draftFromResponses(structure: Structure, responses: Responses): Draft {
  const draft: Draft = {};
  for (const q of structure) {
    if (isFileQuestion(q)) continue;
    const value = responses[q.key];
    if (isListQuestion(q)) {
      const list = Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? [value] : [];
      // The mobile apps spell a few standards differently; the form ticks the web's label.
      draft[q.key] =
        q.type === 'expansionPanelChoices' ? [...new Set(list.map((v) => STANDARDS_ALIASES[v] ?? v))] : [...list];
    } else draft[q.key] = value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return draft;
}

/** The first problem of each question, by key. */
export function firstIssues(issues: readonly ResponseIssue[]): Record<string, string> {
  const byKey: Record<string, string> = {};
  for (const issue of issues) byKey[issue.key] ??= issue.message;
  return byKey;
}

/**
 * The problems after one answer changed: a number is checked as it is typed (whole, within the
 * question's bounds: the server's rule), any other answer's problem goes until the next save.
 */
export function typedIssues(
  structure: Structure,
  issues: Record<string, string>,
  key: string,
  value: DraftValue,
): Record<string, string> {
  const q = structure.find((question) => question.key === key);
  const issue = q?.type === 'number' && !isEmptyValue(value) ? numberIssue(q, value) : null;
  if (issue) return issues[key] === issue ? issues : { ...issues, [key]: issue };
  if (!(key in issues)) return issues;
  const { [key]: _, ...rest } = issues;
  return rest;
}
