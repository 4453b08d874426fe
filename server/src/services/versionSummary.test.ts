import { describe, expect, it } from 'vitest';
import type { Structure } from '#schemas/structure';
import { summarise, type SummarisedVersion } from './versionSummary.ts';

const structure: Structure = [
  { key: 'artifactName', text: 'Artifact Name', type: 'shortText' },
  { key: 'studentThinking', text: "What does this evidence show about students' thinking?", type: 'longText' },
  { key: 'unitDay', text: 'Day of the unit', type: 'number' },
  { key: 'notes', text: 'A question whose text goes on and on well past sixty characters of length', type: 'longText' },
  { key: 'extra', text: 'Extra', type: 'longText' },
];
const kinds = new Map([
  [1, 'image'],
  [2, 'image'],
  [3, 'document'],
  [4, 'video'],
] as const);
const version = (over: Partial<SummarisedVersion>): SummarisedVersion => ({
  number: 2,
  client: 'web',
  restoredFrom: null,
  changed: [],
  files: [],
  ...over,
});

describe('summarise', () => {
  it('names the changed questions in question order and the files that came or went, by kind', () => {
    const before = version({ number: 1, files: [3, 4] });
    const after = version({ changed: ['unitDay', 'studentThinking'], files: [1, 2, 4] });
    expect(summarise(after, before, structure, kinds)).toBe(
      "What does this evidence show about students' thinking, Day of the unit, 2 images added, 1 document removed",
    );
  });

  it('shortens long titles at a word, names three then counts the rest, and says when nothing changed', () => {
    const many = version({ changed: ['notes', 'artifactName', 'extra', 'unitDay', 'gone'] });
    expect(summarise(many, version({ number: 1 }), structure, kinds)).toBe(
      'Artifact Name, Day of the unit, A question whose text goes on and on well past sixty…, and 2 more',
    );
    expect(summarise(version({}), version({ number: 1 }), structure, kinds)).toBe('No changes');
  });

  it('says what a first version, a copy and a restore are', () => {
    expect(summarise(version({ number: 1 }), undefined, structure, kinds)).toBe('First version');
    expect(summarise(version({ number: 1, client: 'copy' }), undefined, structure, kinds)).toBe(
      'Copied into this shared portfolio',
    );
    const restored = version({ number: 5, client: 'restore', restoredFrom: 2, changed: ['artifactName'] });
    expect(summarise(restored, version({ number: 4 }), structure, kinds)).toBe('Restored version 2: Artifact Name');
  });
});
