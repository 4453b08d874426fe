import { describe, expect, it } from 'vitest';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import { draftFromResponses } from './draft.ts';
import { draftChanged, hasUnsavedWork, isNeverSaved } from './unsaved.ts';

const artifact = makeArtifact({
  responses: { artifactName: 'Ramp races', artifactCategory: ['Student work', 'Assessment'], unitDay: 3 },
});
const draft = () => draftFromResponses(artifact.structure, artifact.responses);

describe('draftChanged', () => {
  it('is false for the answers as loaded, however lists are ordered or texts padded', () => {
    expect(draftChanged(artifact, draft())).toBe(false);
    expect(
      draftChanged(artifact, {
        ...draft(),
        artifactCategory: ['Assessment', 'Student work'],
        artifactName: 'Ramp races ',
      }),
    ).toBe(false);
  });

  it('is true for a changed text, number, choice or list', () => {
    expect(draftChanged(artifact, { ...draft(), artifactName: 'Ramp race' })).toBe(true);
    expect(draftChanged(artifact, { ...draft(), unitDay: '4' })).toBe(true);
    expect(draftChanged(artifact, { ...draft(), artifactCategory: ['Student work'] })).toBe(true);
    expect(draftChanged(artifact, { ...draft(), learningGoal: 'Friction' })).toBe(true);
  });
});

describe('isNeverSaved and hasUnsavedWork', () => {
  it('tells a new artifact from a saved one; shared artifacts are always saved', () => {
    expect(isNeverSaved(makeArtifact({ saved: false }))).toBe(true);
    expect(isNeverSaved(makeArtifact({ saved: true }))).toBe(false);
    expect(isNeverSaved(makeSharedArtifactDetail())).toBe(false);
    expect(isNeverSaved(null)).toBe(false);
  });

  it('counts typed answers only once something is loaded', () => {
    expect(hasUnsavedWork({ artifact: null, draft: { artifactName: 'x' }, uploads: null })).toBe(false);
    expect(hasUnsavedWork({ artifact, draft: draft(), uploads: null })).toBe(false);
    expect(hasUnsavedWork({ artifact, draft: { ...draft(), artifactName: 'x' }, uploads: null })).toBe(true);
  });
});
