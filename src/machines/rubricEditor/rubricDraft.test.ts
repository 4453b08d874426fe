import { describe, expect, it } from 'vitest';
import { NGSS_PRACTICES_TEMPLATE } from '../../schemas/rubricTemplates.ts';
import { RUBRIC_CRITERIA_MAX, RUBRIC_LEVELS_MAX, RubricUpdateBodySchema } from '../../schemas/rubrics.ts';
import {
  addCriterion,
  addLevel,
  bodyOf,
  changeField,
  draftErrors,
  moveCriterion,
  moveLevel,
  removeLevel,
  startDraft,
} from './rubricDraft.ts';

describe('rubric draft', () => {
  it('starts from the NGSS practices as the server takes them', () => {
    const draft = startDraft('ngss');
    expect(draft.criteria).toHaveLength(8);
    expect(draftErrors(draft)).toEqual({});
    expect(RubricUpdateBodySchema.parse(bodyOf(draft))).toEqual(RubricUpdateBodySchema.parse(NGSS_PRACTICES_TEMPLATE));
  });

  it('says what the server would refuse, where it is', () => {
    const empty = startDraft('empty');
    expect(draftErrors(empty)).toEqual({
      name: 'The rubric’s name is required.',
      'criteria.0.label': 'A criterion’s label is required.',
      'criteria.0.levels': 'Two levels of a criterion cannot have the same label.',
      'criteria.0.levels.0.label': 'A level’s label is required.',
      'criteria.0.levels.1.label': 'A level’s label is required.',
    });
    let draft = changeField(empty, { criterion: 0, level: 0, field: 'score' }, '101');
    draft = changeField(draft, { criterion: 0, level: 1, field: 'score' }, '2.5');
    draft = changeField(draft, { criterion: 0, field: 'label' }, 'x'.repeat(161));
    const errors = draftErrors(draft);
    expect(errors['criteria.0.levels.0.score']).toBe('A level’s score must be from 0 to 100.');
    expect(errors['criteria.0.levels.1.score']).toBe('A level’s score must be a whole number.');
    expect(errors['criteria.0.label']).toBe('A criterion’s label can be at most 160 characters.');
    const blank = changeField(empty, { criterion: 0, level: 0, field: 'score' }, ' ');
    expect(draftErrors(blank)['criteria.0.levels.0.score']).toBe('A level’s score must be a whole number.');
  });

  it('refuses too few levels and twin labels as the server does', () => {
    let draft = changeField(
      startDraft('ngss'),
      { criterion: 1, field: 'label' },
      'asking questions and defining problems',
    );
    draft = removeLevel(removeLevel(removeLevel(draft, 0, 3), 0, 2), 0, 1);
    const errors = draftErrors(draft);
    expect(errors['criteria.0.levels']).toBe('A criterion needs at least 2 levels.');
    expect(errors.criteria).toBe('Two criteria of a rubric cannot have the same label.');
  });

  it('adds, moves and stops at the limits', () => {
    let draft = startDraft('empty');
    for (let i = 0; i < RUBRIC_CRITERIA_MAX + 2; i++) draft = addCriterion(draft);
    expect(draft.criteria).toHaveLength(RUBRIC_CRITERIA_MAX);
    for (let i = 0; i < RUBRIC_LEVELS_MAX + 2; i++) draft = addLevel(draft, 0);
    expect(draft.criteria[0]!.levels.map((l) => l.score)).toEqual(['1', '2', '3', '4', '5', '6']);
    const keys = new Set(draft.criteria.flatMap((c) => [c.key, ...c.levels.map((l) => l.key)]));
    expect(keys.size).toBe(RUBRIC_CRITERIA_MAX * 3 + RUBRIC_LEVELS_MAX - 2);
    const first = draft.criteria[0]!;
    expect(moveCriterion(draft, 0, -1).criteria[0]).toBe(first);
    expect(moveCriterion(draft, 0, 1).criteria[1]).toBe(first);
    expect(moveLevel(draft, 0, 5, 1).criteria[0]!.levels[5]).toBe(first.levels[5]);
    expect(moveLevel(draft, 0, 5, -1).criteria[0]!.levels[4]).toBe(first.levels[5]);
  });
});
