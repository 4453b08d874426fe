import { describe, expect, it } from 'vitest';
import { BASIC_STRUCTURE, makeMedia } from '../../test/artifactFixtures.ts';
import type { Responses } from '../../schemas/structure.ts';
import { diffArtifacts, isUnchanged, wordParts, type DiffSide } from './versionDiff.ts';

const side = (responses: Responses, files: Partial<Omit<DiffSide, 'responses'>> = {}): DiffSide => ({
  responses,
  images: [],
  videos: [],
  documents: [],
  ...files,
});

const base: Responses = {
  artifactName: 'Ramp races',
  unitTiming: 'Beginning of unit',
  unitDay: 3,
  artifactCategory: ['Student work', 'Assessment'],
  learningGoal: 'Students compare how far cars roll from ramps of different heights.',
  standardFrameworkTags: ['PS2.A', 'Planning and carrying out investigations'],
};

describe('wordParts', () => {
  it('marks the words added and removed, keeping the rest as it was', () => {
    expect(wordParts('The cars rolled far.', 'The small cars rolled very far.')).toEqual([
      { change: 'same', text: 'The ' },
      { change: 'added', text: 'small ' },
      { change: 'same', text: 'cars rolled ' },
      { change: 'added', text: 'very ' },
      { change: 'same', text: 'far.' },
    ]);
  });

  it('marks a replaced word as removed then added', () => {
    const parts = wordParts('Ramps of two heights.', 'Ramps of three heights.');
    expect(parts).toEqual([
      { change: 'same', text: 'Ramps of ' },
      { change: 'removed', text: 'two' },
      { change: 'added', text: 'three' },
      { change: 'same', text: ' heights.' },
    ]);
  });

  it('rebuilds the newer text exactly, and the older one’s words, from the parts', () => {
    const before = 'One line.\nAnd a second, with   spaces.';
    const after = 'One new line.\nAnd a second with spaces!\nA third.';
    const parts = wordParts(before, after);
    expect(
      parts
        .filter((p) => p.change !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe(after);
    // The older text's spaces may be told apart less exactly (the diff is by words).
    const ink = (text: string) => text.replace(/\s+/g, '');
    expect(
      ink(
        parts
          .filter((p) => p.change !== 'added')
          .map((p) => p.text)
          .join(''),
      ),
    ).toBe(ink(before));
  });

  it('keeps a replaced phrase together, not split around the space inside it', () => {
    expect(wordParts('Students find out which ramp.', 'Students measure which ramp.')).toEqual([
      { change: 'same', text: 'Students ' },
      { change: 'removed', text: 'find out' },
      { change: 'added', text: 'measure' },
      { change: 'same', text: ' which ramp.' },
    ]);
  });

  it('treats a text rewritten past the edit bound as removed whole and added whole', () => {
    const before = Array.from({ length: 3_000 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 3_000 }, (_, i) => `b${i}`).join(' ');
    expect(wordParts(before, after)).toEqual([
      { change: 'removed', text: before },
      { change: 'added', text: after },
    ]);
  });
});

describe('diffArtifacts', () => {
  it('finds nothing between equal sides', () => {
    const diff = diffArtifacts(BASIC_STRUCTURE, side(base), side({ ...base }));
    expect(diff).toEqual({ fields: [], files: [] });
    expect(isUnchanged(diff)).toBe(true);
  });

  it('compares each changed answer by its question type, in question order', () => {
    const newer: Responses = {
      ...base,
      unitDay: 4,
      artifactCategory: ['Student work', 'Classroom video'],
      learningGoal: 'Students compare how far toy cars roll from ramps of different heights.',
      standardFrameworkTags: ['PS2.A', 'Analyzing and interpreting data'],
      studentThinking: 'They expected heavier cars to go further.',
    };
    delete newer.unitTiming;
    const diff = diffArtifacts(BASIC_STRUCTURE, side(base), side(newer));
    expect(diff.fields.map((f) => f.key)).toEqual([
      'unitTiming',
      'unitDay',
      'artifactCategory',
      'learningGoal',
      'studentThinking',
      'standardFrameworkTags',
    ]);
    const [timing, day, category, goal, thinking, standards] = diff.fields;
    expect(timing).toEqual({
      key: 'unitTiming',
      title: 'When in the unit was this?',
      kind: 'value',
      before: 'Beginning of unit',
      after: null,
    });
    expect(day).toMatchObject({ kind: 'value', before: '3', after: '4' });
    expect(category).toMatchObject({
      kind: 'choices',
      added: ['Classroom video'],
      removed: ['Assessment'],
      kept: ['Student work'],
    });
    expect(goal).toMatchObject({ kind: 'text' });
    expect(goal?.kind === 'text' && goal.parts.filter((p) => p.change !== 'same')).toEqual([
      { change: 'added', text: 'toy ' },
    ]);
    expect(thinking).toMatchObject({
      kind: 'text',
      parts: [{ change: 'added', text: 'They expected heavier cars to go further.' }],
    });
    expect(standards).toMatchObject({
      kind: 'standards',
      added: ['Analyzing and interpreting data'],
      removed: ['Planning and carrying out investigations'],
      kept: ['PS2.A'],
    });
  });

  it('ignores a blank answer against a missing one', () => {
    const diff = diffArtifacts(BASIC_STRUCTURE, side(base), side({ ...base, nextSteps: '', artifactCategory: [] }));
    expect(diff.fields.map((f) => f.key)).toEqual(['artifactCategory']);
  });

  it('compares an answer outside the questions as text', () => {
    const diff = diffArtifacts(BASIC_STRUCTURE, side(base), side({ ...base, legacyNote: 'Kept from the app' }));
    expect(diff.fields).toEqual([
      { key: 'legacyNote', title: 'legacyNote', kind: 'text', parts: [{ change: 'added', text: 'Kept from the app' }] },
    ]);
  });

  it('lists files added and removed by id, whatever their captions', () => {
    const photo = makeMedia('images', { id: 1, name: 'ramp.jpg' });
    const chart = makeMedia('images', { id: 2, name: 'chart.png' });
    const clip = makeMedia('videos', { id: 3, name: 'trial.mp4' });
    const sheet = makeMedia('documents', { id: 4, name: 'sheet.pdf' });
    const older = side(base, { images: [photo, chart], documents: [sheet] });
    const newer = side(base, { images: [{ ...photo, caption: 'New caption' }], videos: [clip] });
    const diff = diffArtifacts(BASIC_STRUCTURE, older, newer);
    expect(diff.fields).toEqual([]);
    expect(diff.files.map((f) => [f.change, f.kind, f.media.id])).toEqual([
      ['added', 'videos', 3],
      ['removed', 'images', 2],
      ['removed', 'documents', 4],
    ]);
    expect(isUnchanged(diff)).toBe(false);
  });
});
