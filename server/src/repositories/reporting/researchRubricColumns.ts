import { TIMESTAMP_WORDS, type ColumnDef, type FileDef } from './columns.ts';

// The research package's files of rubrics and scores (decision 055), defined once like the
// others (`researchColumns.ts`): the package writes them and the codebook describes them.

const id = (name: string, meaning: string): ColumnDef => ({ name, type: 'integer', meaning, allowed: 'an id' });
const text = (name: string, meaning: string): ColumnDef => ({ name, type: 'text', meaning });
const position = (name: string, meaning: string): ColumnDef => ({
  name,
  type: 'integer',
  meaning,
  allowed: '1 or more',
});

/** `rubrics.csv`, `rubric_criteria.csv` and `scores.csv`, in the order they are written. */
export const RUBRIC_FILES: FileDef[] = [
  {
    name: 'rubrics',
    meaning:
      'One row per version of every installation-wide rubric and of every rubric of a shared portfolio in the export. A version that scores use never changes; editing its criteria made the next version.',
    columns: [
      id('rubric_version_id', 'The version (the key scores.csv and rubric_criteria.csv use).'),
      id('rubric_id', 'The rubric; its versions share it.'),
      position('version', "The version's number, from 1."),
      {
        name: 'shared_portfolio_id',
        type: 'integer',
        meaning:
          'The shared portfolio the rubric belongs to (shared_portfolios.csv); empty for an installation-wide rubric.',
        allowed: 'an id, or empty',
      },
      text('name', "The rubric's name (its current name: names are not versioned)."),
      text('description', "The rubric's description; empty when none."),
      {
        name: 'created_at',
        type: 'timestamp',
        meaning: 'When this version was made.',
        allowed: TIMESTAMP_WORDS,
      },
    ],
  },
  {
    name: 'rubric_criteria',
    meaning: 'One row per level of every criterion of those rubric versions (long format), in the rubric’s order.',
    columns: [
      id('rubric_version_id', 'The rubric version (rubrics.csv).'),
      id('criterion_id', 'The criterion (scores.csv names it).'),
      position('criterion_position', "The criterion's place in its rubric, from 1."),
      text('criterion_code', "The criterion's short code, e.g. SEP1; empty when none."),
      text('criterion_label', "The criterion's label."),
      text('criterion_description', "The criterion's description; empty when none."),
      id('level_id', 'The level (scores.csv names it).'),
      position('level_position', "The level's place, from 1 (lowest first)."),
      text('level_label', "The level's label."),
      text('level_description', "The level's description; empty when none."),
      { name: 'level_score', type: 'integer', meaning: "The level's score.", allowed: '0 to 100' },
    ],
  },
  {
    name: 'scores',
    meaning:
      'One row per rubric score a selected person gave a shared artifact of the export, within the date range: at a moment of one of its videos, or on the whole artifact.',
    columns: [
      id('score_id', "The score's id."),
      id('shared_artifact_id', 'The shared artifact scored (shared_artifacts.csv).'),
      { name: 'teacher_id', type: 'person', meaning: 'Who scored.', allowed: 'a pseudonym P-… (see teachers.csv)' },
      id('rubric_version_id', 'The rubric version scored with (rubrics.csv).'),
      id('criterion_id', 'The criterion (rubric_criteria.csv).'),
      id('level_id', 'The level given (rubric_criteria.csv).'),
      { name: 'level_score', type: 'integer', meaning: "The level's score.", allowed: '0 to 100' },
      {
        name: 'media_id',
        type: 'integer',
        meaning: 'The video the score is anchored to; empty when it scores the whole artifact.',
        allowed: 'an id, or empty',
      },
      {
        name: 'moment_start',
        type: 'number',
        meaning: "Start of the moment scored, in seconds from the video's start; empty for the whole artifact.",
        allowed: '0 or more, or empty',
      },
      {
        name: 'moment_end',
        type: 'number',
        meaning: 'End of that moment in seconds; empty for a single point in time or the whole artifact.',
        allowed: 'moment_start or more, or empty',
      },
      text(
        'note',
        "The scorer's note, with mentions of people replaced by their pseudonyms unless identities are included.",
      ),
      { name: 'created_at', type: 'timestamp', meaning: 'When the score was given.', allowed: TIMESTAMP_WORDS },
    ],
  },
];
