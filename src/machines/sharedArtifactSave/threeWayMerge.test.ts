import { describe, expect, it } from 'vitest';
import {
  everyConflictChosen,
  FILES_FIELD,
  mergeThreeWay,
  resolveConflicts,
  sameAnswer,
  type MergeSide,
} from './threeWayMerge.ts';

const side = (responses: MergeSide['responses'], files: number[] = [1, 2]): MergeSide => ({ responses, files });
const base = side({ artifactName: 'Ramp race', learningGoal: 'Forces', studentThinking: 'Heavier is faster' });

describe('sameAnswer', () => {
  it('reads an empty answer as none, and choices in any order', () => {
    expect(sameAnswer('', undefined)).toBe(true);
    expect(sameAnswer([], undefined)).toBe(true);
    expect(sameAnswer(['b', 'a'], ['a', 'b'])).toBe(true);
    expect(sameAnswer(['a'], ['a', 'b'])).toBe(false);
    expect(sameAnswer(3, 3)).toBe(true);
    expect(sameAnswer(3, '3')).toBe(false);
    expect(sameAnswer('a', ['a'])).toBe(false);
  });
});

describe('mergeThreeWay', () => {
  it('combines fields only one side changed and names those that came from theirs', () => {
    const mine = side({ ...base.responses, learningGoal: 'Forces and motion' });
    const theirs = side({ ...base.responses, studentThinking: 'Mass does not matter', wonderings: 'Friction?' });
    const result = mergeThreeWay(base, mine, theirs);
    expect(result.conflicts).toEqual([]);
    expect(result.responses).toEqual({
      artifactName: 'Ramp race',
      learningGoal: 'Forces and motion',
      studentThinking: 'Mass does not matter',
      wonderings: 'Friction?',
    });
    expect(result.fromTheirs).toEqual(['studentThinking', 'wonderings']);
  });

  it('a field both changed the same way is no conflict and not theirs', () => {
    const same = side({ ...base.responses, learningGoal: 'Motion' });
    const result = mergeThreeWay(base, same, same);
    expect(result.conflicts).toEqual([]);
    expect(result.fromTheirs).toEqual([]);
    expect(result.responses['learningGoal']).toBe('Motion');
  });

  it('a field both changed differently is a conflict with the three values; the edit holds it until resolved', () => {
    const mine = side({ ...base.responses, studentThinking: 'Mine' });
    const theirs = side({ ...base.responses, studentThinking: 'Theirs' });
    const result = mergeThreeWay(base, mine, theirs);
    expect(result.conflicts).toEqual([
      { key: 'studentThinking', base: 'Heavier is faster', mine: 'Mine', theirs: 'Theirs' },
    ]);
    expect(result.responses['studentThinking']).toBe('Mine');
    expect(result.fromTheirs).toEqual([]);
  });

  it('a removal is a change: theirs removed, mine kept → removed; removed on one side, changed on the other → conflict', () => {
    const { studentThinking: _gone, ...rest } = base.responses;
    const removed = mergeThreeWay(base, base, side(rest));
    expect(removed.responses).toEqual(rest);
    expect(removed.fromTheirs).toEqual(['studentThinking']);
    const clash = mergeThreeWay(base, side({ ...base.responses, studentThinking: 'Longer' }), side(rest));
    expect(clash.conflicts).toEqual([
      { key: 'studentThinking', base: 'Heavier is faster', mine: 'Longer', theirs: undefined },
    ]);
  });

  it('choices (standards tags) are fields like any other: one side changed → taken, both differently → conflict', () => {
    const tagged = side({ ...base.responses, standardFrameworkTags: ['NGSS 1'] });
    const theirs = side({ ...base.responses, standardFrameworkTags: ['NGSS 2', 'NGSS 1'] });
    expect(mergeThreeWay(tagged, tagged, theirs).responses['standardFrameworkTags']).toEqual(['NGSS 2', 'NGSS 1']);
    const mine = side({ ...base.responses, standardFrameworkTags: ['NGSS 3'] });
    expect(mergeThreeWay(tagged, mine, theirs).conflicts.map((c) => c.key)).toEqual(['standardFrameworkTags']);
  });

  it('files: the additions and removals of both sides, never a conflict; theirs named when they changed them', () => {
    const result = mergeThreeWay(side({}, [1, 2, 3]), side({}, [1, 2, 3, 7]), side({}, [2, 3, 9]));
    expect(result.files).toEqual([2, 3, 7, 9]);
    expect(result.fromTheirs).toEqual([FILES_FIELD]);
    expect(result.conflicts).toEqual([]);
    const mineOnly = mergeThreeWay(side({}, [1]), side({}, [1, 4]), side({}, [1]));
    expect(mineOnly.files).toEqual([1, 4]);
    expect(mineOnly.fromTheirs).toEqual([]);
  });

  it('an empty base (no version yet): everything both wrote differently conflicts', () => {
    const result = mergeThreeWay(side({}, []), side({ a: 'x' }, []), side({ a: 'y', b: 'z' }, []));
    expect(result.conflicts.map((c) => c.key)).toEqual(['a']);
    expect(result.responses).toEqual({ a: 'x', b: 'z' });
  });
});

describe('resolveConflicts', () => {
  const mine = side({ ...base.responses, studentThinking: 'Mine', learningGoal: 'Mine too' });
  const theirs = side({ ...base.responses, studentThinking: 'Theirs', learningGoal: 'Theirs too' });
  const result = mergeThreeWay(base, mine, theirs);

  it('takes theirs, mine or the written text per field', () => {
    expect(everyConflictChosen(result, { studentThinking: { pick: 'theirs' } })).toBe(false);
    const choices = { studentThinking: { pick: 'theirs' }, learningGoal: { pick: 'edit', value: 'Both' } } as const;
    expect(everyConflictChosen(result, choices)).toBe(true);
    expect(resolveConflicts(result, choices)).toEqual({
      artifactName: 'Ramp race',
      studentThinking: 'Theirs',
      learningGoal: 'Both',
    });
    expect(resolveConflicts(result, { studentThinking: { pick: 'mine' }, learningGoal: { pick: 'mine' } })).toEqual(
      mine.responses,
    );
  });

  it('an empty written text or an absent answer chosen removes the answer', () => {
    const choices = { studentThinking: { pick: 'edit', value: '' }, learningGoal: { pick: 'theirs' } } as const;
    const removed = mergeThreeWay(base, mine, side({ artifactName: 'Ramp race', studentThinking: 'T' }));
    expect(resolveConflicts(removed, choices)).toEqual({ artifactName: 'Ramp race' });
  });
});
