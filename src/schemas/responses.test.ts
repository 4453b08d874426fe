import { describe, expect, it } from 'vitest';
import { NUMBER_MAX, numberBounds, numberIssue, validateResponses } from './responses.ts';
import type { Question } from './structure.ts';

const UNIT_DAY: Question = { key: 'unitDay', text: 'Day of the unit', type: 'number', min: 0, max: 200, step: 1 };
/** A team number question as the shared-portfolio form writes it (the mobile apps' placeholder bounds). */
const TEAM_NUMBER: Question = {
  key: 'team1',
  text: 'Lessons taught',
  type: 'number',
  bonus: true,
  min: 1,
  max: 1,
  step: 1,
};

describe('number answers within their question’s bounds (one rule for the form as typed and the server)', () => {
  it('takes the template question’s min, max and step; a team question’s placeholder is no range', () => {
    expect(numberBounds(UNIT_DAY)).toEqual({ min: 0, max: 200, step: 1 });
    expect(numberBounds(TEAM_NUMBER)).toEqual({ min: 0, max: NUMBER_MAX, step: 1 });
    expect(numberBounds({ min: -5, max: 5e9, step: 5 })).toEqual({ min: 0, max: NUMBER_MAX, step: 5 });
  });

  it('says what is wrong with a number as typed or as sent', () => {
    expect(numberIssue(UNIT_DAY, '250')).toBe('Field Day of the unit must be between 0 and 200.');
    expect(numberIssue(UNIT_DAY, 250)).toBe('Field Day of the unit must be between 0 and 200.');
    expect(numberIssue(UNIT_DAY, '-1')).toBe('Field Day of the unit must be between 0 and 200.');
    expect(numberIssue(UNIT_DAY, '2.5')).toBe('Field Day of the unit must be an integer.');
    expect(numberIssue(UNIT_DAY, 2.5)).toBe('Field Day of the unit must be an integer.');
    expect(numberIssue(UNIT_DAY, 'three')).toBe('Field Day of the unit must be an integer.');
    for (const fine of ['0', '200', 12, ' 7 ']) expect(numberIssue(UNIT_DAY, fine)).toBeNull();
    expect(numberIssue(TEAM_NUMBER, 5000)).toBeNull();
    expect(numberIssue({ ...UNIT_DAY, step: 5 }, 12)).toBe('Field Day of the unit must be 0 plus a multiple of 5.');
  });

  it('refuses a number out of bounds when answers are saved, and keeps one within them as an integer', () => {
    expect(validateResponses([UNIT_DAY], { unitDay: 250 }, { requireCore: false }).issues).toEqual([
      { key: 'unitDay', message: 'Field Day of the unit must be between 0 and 200.' },
    ]);
    expect(validateResponses([UNIT_DAY], { unitDay: '200' }, { requireCore: false })).toEqual({
      value: { unitDay: 200 },
      issues: [],
    });
    expect(validateResponses([TEAM_NUMBER], { team1: 40 }, { requireCore: false }).issues).toEqual([]);
  });
});
