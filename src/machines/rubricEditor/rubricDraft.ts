/**
 * A rubric as the editor holds it (decision 055): texts as typed, scores as typed (checked on
 * save), and a key per criterion and level so that moving one keeps its fields in place. The
 * checks are the server's own schema, so the editor says what the server would say.
 */
import { NGSS_PRACTICES_TEMPLATE } from '../../schemas/rubricTemplates.ts';
import {
  RUBRIC_CRITERIA_MAX,
  RUBRIC_LEVELS_MAX,
  RUBRIC_LEVELS_MIN,
  RubricUpdateBodySchema,
  type RubricUpdateBody,
} from '../../schemas/rubrics.ts';

export interface LevelDraft {
  key: number;
  label: string;
  description: string;
  score: string;
}

export interface CriterionDraft {
  key: number;
  code: string;
  label: string;
  description: string;
  levels: LevelDraft[];
}

export interface RubricDraft {
  name: string;
  description: string;
  criteria: CriterionDraft[];
  /** The next free key. */
  nextKey: number;
}

/** Where a text of the draft is: the rubric's (`criterion` absent), a criterion's, or a level's. */
export type DraftField =
  | { field: 'name' | 'description' }
  | { criterion: number; field: 'code' | 'label' | 'description' }
  | { criterion: number; level: number; field: 'label' | 'description' | 'score' };

/** Messages by place: `name`, `criteria`, `criteria.0.label`, `criteria.0.levels.1.score`, … */
export type DraftErrors = Readonly<Record<string, string>>;

type Source = Pick<RubricUpdateBody, 'name' | 'criteria'> & { description?: string | undefined };

/** A draft of a rubric's fields (a template's, or a saved rubric's). */
export function draftOf(source: Source): RubricDraft {
  let key = 0;
  const criteria = source.criteria.map((c) => ({
    key: key++,
    code: c.code ?? '',
    label: c.label,
    description: c.description ?? '',
    levels: c.levels.map((l) => ({
      key: key++,
      label: l.label,
      description: l.description ?? '',
      score: String(l.score),
    })),
  }));
  return { name: source.name, description: source.description ?? '', criteria, nextKey: key };
}

/** The starting points of a new rubric. */
export type DraftStart = 'ngss' | 'empty';

/** A new rubric's draft: the NGSS practices, or one criterion with two empty levels. */
export function startDraft(from: DraftStart): RubricDraft {
  if (from === 'ngss') return draftOf(NGSS_PRACTICES_TEMPLATE);
  return addCriterion({ name: '', description: '', criteria: [], nextKey: 0 });
}

const emptyLevel = (key: number, score: number): LevelDraft => ({
  key,
  label: '',
  description: '',
  score: String(score),
});

/** Adds an empty criterion with the fewest levels (scored 1, 2, …) at the end, up to the limit. */
export function addCriterion(draft: RubricDraft): RubricDraft {
  if (draft.criteria.length >= RUBRIC_CRITERIA_MAX) return draft;
  const key = draft.nextKey;
  const levels = Array.from({ length: RUBRIC_LEVELS_MIN }, (_, i) => emptyLevel(key + 1 + i, i + 1));
  const criterion = { key, code: '', label: '', description: '', levels };
  return { ...draft, criteria: [...draft.criteria, criterion], nextKey: key + 1 + levels.length };
}

const move = <T>(list: readonly T[], index: number, by: -1 | 1): T[] => {
  const to = index + by;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const copy = [...list];
  [copy[index], copy[to]] = [copy[to]!, copy[index]!];
  return copy;
};

export const removeCriterion = (draft: RubricDraft, index: number): RubricDraft => ({
  ...draft,
  criteria: draft.criteria.filter((_, i) => i !== index),
});

export const moveCriterion = (draft: RubricDraft, index: number, by: -1 | 1): RubricDraft => ({
  ...draft,
  criteria: move(draft.criteria, index, by),
});

const withLevels = (draft: RubricDraft, index: number, change: (levels: LevelDraft[]) => LevelDraft[]) => ({
  ...draft,
  criteria: draft.criteria.map((c, i) => (i === index ? { ...c, levels: change(c.levels) } : c)),
});

/** Adds an empty level above the highest, scored one more, up to the limit. */
export function addLevel(draft: RubricDraft, criterion: number): RubricDraft {
  const levels = draft.criteria[criterion]?.levels;
  if (!levels || levels.length >= RUBRIC_LEVELS_MAX) return draft;
  const top = Math.max(0, ...levels.map((l) => Number(l.score)).filter(Number.isInteger));
  return {
    ...withLevels(draft, criterion, (list) => [...list, emptyLevel(draft.nextKey, top + 1)]),
    nextKey: draft.nextKey + 1,
  };
}

export const removeLevel = (draft: RubricDraft, criterion: number, level: number): RubricDraft =>
  withLevels(draft, criterion, (list) => list.filter((_, i) => i !== level));

export const moveLevel = (draft: RubricDraft, criterion: number, level: number, by: -1 | 1): RubricDraft =>
  withLevels(draft, criterion, (list) => move(list, level, by));

/** The draft with one text changed. */
export function changeField(draft: RubricDraft, at: DraftField, value: string): RubricDraft {
  if (!('criterion' in at)) return { ...draft, [at.field]: value };
  if (!('level' in at))
    return {
      ...draft,
      criteria: draft.criteria.map((c, i) => (i === at.criterion ? { ...c, [at.field]: value } : c)),
    };
  return withLevels(draft, at.criterion, (list) =>
    list.map((l, i) => (i === at.level ? { ...l, [at.field]: value } : l)),
  );
}

/** A score as typed, as the number the server checks (a blank or non-number stays one it refuses). */
const scoreOf = (typed: string): number => (typed.trim() === '' ? Number.NaN : Number(typed));

/** The body the server takes. */
export const bodyOf = (draft: RubricDraft): RubricUpdateBody => ({
  name: draft.name,
  description: draft.description,
  criteria: draft.criteria.map((c) => ({
    code: c.code,
    label: c.label,
    description: c.description,
    levels: c.levels.map((l) => ({ label: l.label, description: l.description, score: scoreOf(l.score) })),
  })),
});

/** What the server would refuse in the draft, by place (empty: it would take it). */
export function draftErrors(draft: RubricDraft): DraftErrors {
  const checked = RubricUpdateBodySchema.safeParse(bodyOf(draft));
  if (checked.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of checked.error.issues) errors[issue.path.join('.') || 'rubric'] ??= issue.message;
  return errors;
}
