import { fromPromise } from 'xstate';
import { scoringMachine, type ScoringInput, type ScoringLoaded } from '../machines/scoring/scoringMachine.ts';
import type { Rubric, Score } from '../schemas/rubrics.ts';

/** A portfolio without a rubric, for views that show a shared artifact but test something else. */
export const noRubricScoring = scoringMachine.provide({
  actors: {
    loadScoring: fromPromise<ScoringLoaded, ScoringInput>(async () => ({
      chosen: { rubric: null, abilities: { score: false, choose: false } },
      scores: [],
    })),
  },
});

/** A small rubric of two criteria of three levels (ids 501–502, levels 511–516). */
export const TALK_RUBRIC: Rubric = {
  id: 50,
  name: 'Discourse',
  description: '',
  sharedPortfolio: 7,
  version: 1,
  used: true,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  abilities: { edit: false },
  usage: null,
  criteria: [
    {
      id: 501,
      code: 'D1',
      label: 'Student talk',
      description: '',
      levels: [
        { id: 511, label: 'Low', description: 'Mostly the teacher talks.', score: 1 },
        { id: 512, label: 'Some', description: '', score: 2 },
        { id: 513, label: 'High', description: '', score: 3 },
      ],
    },
    {
      id: 502,
      code: '',
      label: 'Questioning',
      description: '',
      levels: [
        { id: 514, label: 'Closed', description: '', score: 1 },
        { id: 515, label: 'Mixed', description: '', score: 2 },
        { id: 516, label: 'Open', description: '', score: 3 },
      ],
    },
  ],
};

/** A score of the talk rubric, at `start` seconds of video `media` (`null`: the whole artifact). */
export function makeScore(id: number, media: number | null, start = 0, overrides: Partial<Score> = {}): Score {
  return {
    id,
    sharedArtifact: 70,
    rubric: { id: TALK_RUBRIC.id, name: TALK_RUBRIC.name, version: 1 },
    criterion: { id: 501, code: 'D1', label: 'Student talk' },
    level: { id: 513, label: 'High', score: 3 },
    moment: media === null ? null : { media, start, end: null },
    note: '',
    scorer: { id: 9, username: 'Lee Lead' },
    created_at: '2026-11-02T10:00:00.000Z',
    abilities: { delete: true },
    ...overrides,
  };
}
