/**
 * The three-way merge of a shared artifact's answers: the version an edit was based on (base), the
 * edit (mine) and the version stored since (theirs). Every answer is a field of its own (the title,
 * each question, the standards tags) and so are the files, taken as a set of file ids.
 *
 * A field only one side changed takes that side's value; both sides changing it to the same value
 * is no conflict; both changing it differently is a conflict the person resolves (theirs, mine, or
 * their own text). Files never conflict: the additions and removals of both sides are applied.
 * An empty answer ('' or no choice) counts as no answer, and choices compare in any order.
 */
import type { ResponseValue, Responses } from '../../schemas/structure.ts';

/** One side of a merge: its answers and the ids of its files. */
export interface MergeSide {
  responses: Responses;
  files: readonly number[];
}

/** The field name the files go by in `fromTheirs`. */
export const FILES_FIELD = 'files';

/** A question both sides answered differently; `undefined`: no answer on that side. */
export interface FieldConflict {
  key: string;
  base: ResponseValue | undefined;
  mine: ResponseValue | undefined;
  theirs: ResponseValue | undefined;
}

/** What a merge yields. */
export interface MergeResult {
  /** The answers: merged fields, and for each conflict the edit's own value until it is resolved. */
  responses: Responses;
  files: number[];
  /** The fields taken from theirs (question keys, and `FILES_FIELD`), in the order met. */
  fromTheirs: string[];
  conflicts: FieldConflict[];
}

/** How a conflict is resolved: their answer, mine, or a text the person wrote. */
export type FieldChoice = { pick: 'theirs' } | { pick: 'mine' } | { pick: 'edit'; value: string };

/** `undefined` for an empty answer; otherwise the value. */
function present(value: ResponseValue | undefined): ResponseValue | undefined {
  if (value === undefined || value === '') return undefined;
  if (Array.isArray(value) && value.length === 0) return undefined;
  return value;
}

/** Whether two answers say the same (choices in any order). */
export function sameAnswer(a: ResponseValue | undefined, b: ResponseValue | undefined): boolean {
  const x = present(a);
  const y = present(b);
  if (Array.isArray(x) && Array.isArray(y)) {
    if (x.length !== y.length) return false;
    const sorted = [...y].sort();
    return [...x].sort().every((item, i) => item === sorted[i]);
  }
  return x === y;
}

function setAnswer(target: Responses, key: string, value: ResponseValue | undefined): void {
  const kept = present(value);
  if (kept === undefined) delete target[key];
  else target[key] = kept;
}

/** Base's files with the additions and removals of both sides (in base order, then mine added, then theirs). */
function mergeFiles(base: readonly number[], mine: readonly number[], theirs: readonly number[]): number[] {
  const removed = new Set([...base.filter((id) => !mine.includes(id)), ...base.filter((id) => !theirs.includes(id))]);
  const added = [...mine, ...theirs].filter((id) => !base.includes(id));
  return [...new Set([...base.filter((id) => !removed.has(id)), ...added])];
}

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** Merges `mine` and `theirs`, both made from `base`. */
export function mergeThreeWay(base: MergeSide, mine: MergeSide, theirs: MergeSide): MergeResult {
  const responses: Responses = {};
  const fromTheirs: string[] = [];
  const conflicts: FieldConflict[] = [];
  const keys = new Set([
    ...Object.keys(base.responses),
    ...Object.keys(theirs.responses),
    ...Object.keys(mine.responses),
  ]);
  for (const key of keys) {
    const b = base.responses[key];
    const m = mine.responses[key];
    const t = theirs.responses[key];
    const mineChanged = !sameAnswer(b, m);
    const theirsChanged = !sameAnswer(b, t);
    if (theirsChanged && !mineChanged) {
      setAnswer(responses, key, t);
      fromTheirs.push(key);
    } else {
      setAnswer(responses, key, m);
      if (mineChanged && theirsChanged && !sameAnswer(m, t))
        conflicts.push({ key, base: present(b), mine: present(m), theirs: present(t) });
    }
  }
  if (!sameSet(base.files, theirs.files) && !sameSet(mine.files, theirs.files)) fromTheirs.push(FILES_FIELD);
  return { responses, files: mergeFiles(base.files, mine.files, theirs.files), fromTheirs, conflicts };
}

/** The answers once every conflict has its choice; a conflict without one keeps the edit's value. */
export function resolveConflicts(result: MergeResult, choices: Readonly<Record<string, FieldChoice>>): Responses {
  const responses: Responses = { ...result.responses };
  for (const conflict of result.conflicts) {
    const choice = choices[conflict.key];
    if (!choice || choice.pick === 'mine') setAnswer(responses, conflict.key, conflict.mine);
    else if (choice.pick === 'theirs') setAnswer(responses, conflict.key, conflict.theirs);
    else setAnswer(responses, conflict.key, choice.value);
  }
  return responses;
}

/** Whether every conflict has a choice (an edit may be empty: the answer is then removed). */
export const everyConflictChosen = (result: MergeResult, choices: Readonly<Record<string, FieldChoice>>): boolean =>
  result.conflicts.every((c) => choices[c.key] !== undefined);
