import type { Identities } from '#schemas/researchExport';
import { EITHER_ARTIFACT_COLUMNS, TIMESTAMP_WORDS, type ColumnDef, type FileDef } from './columns.ts';
import { VERSIONS_FILE } from './researchVersionRows.ts';
import { RUBRIC_FILES } from './researchRubricColumns.ts';

// The research package's files and their columns, defined once: the package writes its CSV
// headers and cells from these lists, and its codebook (`codebook.ts`) describes them.

const TS = TIMESTAMP_WORDS;
const person = (meaning: string): ColumnDef => ({
  name: 'teacher_id',
  type: 'person',
  meaning,
  allowed: 'a pseudonym P-… (see teachers.csv)',
});
const id = (name: string, meaning: string): ColumnDef => ({ name, type: 'integer', meaning, allowed: 'an id' });
const text = (name: string, meaning: string): ColumnDef => ({ name, type: 'text', meaning });
const count = (name: string, meaning: string): ColumnDef => ({ name, type: 'integer', meaning, allowed: '0 or more' });
const created = (what: string): ColumnDef => ({
  name: 'created_at',
  type: 'timestamp',
  meaning: `When the ${what} was created.`,
  allowed: TS,
});
const updated = (what: string): ColumnDef => ({
  name: 'updated_at',
  type: 'timestamp',
  meaning: `When the ${what} was last saved.`,
  allowed: TS,
});
const moment = (what: string): ColumnDef[] => [
  {
    name: 'media_id',
    type: 'integer',
    meaning: `The video of the shared artifact the ${what} is anchored to; empty when it is about the whole artifact.`,
    allowed: 'an id, or empty',
  },
  {
    name: 'moment_start',
    type: 'number',
    meaning: `Start of the moment of the video the ${what} is about, in seconds from the video's start; empty when it is about the whole artifact.`,
    allowed: '0 or more, or empty',
  },
  {
    name: 'moment_end',
    type: 'number',
    meaning: `End of that moment in seconds; empty for a single point in time or the whole artifact.`,
    allowed: 'moment_start or more, or empty',
  },
];
const mediaCounts: ColumnDef[] = [
  count('images', 'Number of images attached.'),
  count('videos', 'Number of videos attached.'),
  count('documents', 'Number of documents attached.'),
];

/** The package's CSV files in the order they are written, with every column they hold. */
export function researchFiles(identities: Identities): FileDef[] {
  return [
    {
      name: 'teachers',
      meaning:
        'One row per person in the export: the teachers and PLC leads the filters select, and the owner of every shared portfolio in the export.',
      columns: [
        {
          name: 'teacher_id',
          type: 'person',
          meaning:
            "The person's stable pseudonym: the same in every export of this installation, never the account id.",
          allowed: 'P- followed by 20 hexadecimal characters',
        },
        { name: 'role', type: 'category', meaning: "The person's role.", allowed: 'teacher, plc_lead, researcher' },
        {
          name: 'in_filter',
          type: 'boolean',
          meaning: 'Whether the filters select this person (false: included only as the owner of a shared portfolio).',
          allowed: 'true, false',
        },
        created('account'),
        ...(identities === 'included'
          ? [
              id('user_id', 'The account id in the portal (identities included with consent).'),
              text('username', "The person's user name (identities included with consent)."),
              text('email', "The person's e-mail address (identities included with consent)."),
            ]
          : []),
      ],
    },
    {
      name: 'portfolios',
      meaning: 'One row per personal portfolio of a selected teacher.',
      columns: [
        id('portfolio_id', "The portfolio's id."),
        person('The owner.'),
        text('name', "The portfolio's name."),
        text('subject', 'The subject the teacher chose; empty when none.'),
        text('topic', 'The topic the teacher wrote; empty when none.'),
        {
          name: 'grades',
          type: 'list',
          meaning: 'The grades, separated by " | ".',
          allowed: 'grade codes such as K, 1st, …, 12th',
        },
        created('portfolio'),
        updated('portfolio'),
      ],
    },
    {
      name: 'artifacts',
      meaning: 'One row per saved artifact of those portfolios created within the date range.',
      columns: [
        id('artifact_id', "The artifact's id."),
        id('portfolio_id', 'Its portfolio (portfolios.csv).'),
        person('The owner.'),
        text('title', 'The answer to the "Artifact Name" question; empty when unanswered.'),
        {
          name: 'parking_lot',
          type: 'boolean',
          meaning: 'true: still in the parking lot (a draft); false: submitted to the portfolio.',
          allowed: 'true, false',
        },
        ...mediaCounts,
        created('artifact'),
        updated('artifact'),
      ],
    },
    {
      name: 'responses',
      meaning:
        'One row per answered question of every artifact and shared artifact in the export (long format). File-upload questions and unanswered questions have no row.',
      columns: [
        {
          name: 'response_of',
          type: 'category',
          meaning: 'Whether the answer belongs to a personal artifact or a shared artifact.',
          allowed: 'artifact, shared_artifact',
        },
        ...EITHER_ARTIFACT_COLUMNS,
        person("The artifact's owner."),
        {
          name: 'question_key',
          type: 'category',
          meaning: "The question's key (codebook_questions.csv lists the questions of each structure).",
        },
        {
          name: 'question_position',
          type: 'integer',
          meaning: "The question's place in the artifact's structure, from 1.",
          allowed: '1 or more',
        },
        {
          name: 'question_type',
          type: 'category',
          meaning: 'The kind of question.',
          allowed: 'shortText, longText, singleSelection, multipleResponse, number, expansionPanelChoices',
        },
        text('question_text', 'The question as the teacher saw it.'),
        {
          name: 'team_question',
          type: 'boolean',
          meaning: 'Whether it is a team (bonus) question of a shared portfolio.',
          allowed: 'true, false',
        },
        text(
          'answer_text',
          'The answer of a text or choice question as text (several choices separated by " | "); empty for a number question.',
        ),
        { name: 'answer_number', type: 'number', meaning: 'The answer of a number question; empty otherwise.' },
        count('choice_count', 'How many choices were picked (choice questions); empty otherwise.'),
      ],
    },
    {
      name: 'shared_portfolios',
      meaning: 'One row per shared portfolio in the export.',
      columns: [
        id('shared_portfolio_id', "The shared portfolio's id."),
        { name: 'owner_id', type: 'person', meaning: 'The owner (teachers.csv).', allowed: 'a pseudonym P-…' },
        text('name', "The shared portfolio's name."),
        text('subject', 'Its subject; empty when none.'),
        text('topic', 'Its topic; empty when none.'),
        { name: 'grades', type: 'list', meaning: 'Its grades, separated by " | ".', allowed: 'grade codes' },
        text('plc_name', 'The name of the professional learning community; empty when none.'),
        text('plc_goals', "The community's goals; empty when none."),
        count('team_questions', 'Number of team (bonus) questions in its structure.'),
        created('shared portfolio'),
        updated('shared portfolio'),
      ],
    },
    {
      name: 'shared_artifacts',
      meaning:
        'One row per artifact shared by a selected teacher into a shared portfolio of the export, created within the date range.',
      columns: [
        id('shared_artifact_id', "The shared artifact's id."),
        id('shared_portfolio_id', 'Its shared portfolio (shared_portfolios.csv).'),
        person('The teacher who shared it.'),
        text('title', 'The answer to the "Artifact Name" question; empty when unanswered.'),
        text('portfolio_subject', 'The subject of the personal portfolio it was copied from.'),
        text('portfolio_topic', 'The topic of the personal portfolio it was copied from.'),
        {
          name: 'portfolio_grades',
          type: 'list',
          meaning: 'The grades of that portfolio, separated by " | ".',
          allowed: 'grade codes',
        },
        ...mediaCounts,
        created('shared artifact'),
        updated('shared artifact'),
      ],
    },
    {
      name: 'comments',
      meaning:
        'One row per comment of a selected teacher on a shared artifact of the export, written within the date range.',
      columns: [
        id('comment_id', "The comment's id."),
        id('shared_artifact_id', 'The shared artifact commented on (shared_artifacts.csv).'),
        person('The author.'),
        text(
          'text',
          'The comment, with mentions of people replaced by their pseudonyms unless identities are included.',
        ),
        ...moment('comment'),
        {
          name: 'edited',
          type: 'boolean',
          meaning: 'Whether the comment was changed after it was written.',
          allowed: 'true, false',
        },
        created('comment'),
        updated('comment'),
      ],
    },
    {
      name: 'reactions',
      meaning:
        'One row per reaction of a selected teacher on a shared artifact of the export, given within the date range.',
      columns: [
        id('reaction_id', "The reaction's id."),
        id('shared_artifact_id', 'The shared artifact reacted to (shared_artifacts.csv).'),
        person('Who reacted.'),
        { name: 'value', type: 'category', meaning: 'The reaction as shown.', allowed: '🔖, ⭐, 🌉, ❓' },
        {
          name: 'reaction',
          type: 'category',
          meaning: "The reaction's name.",
          allowed: 'tag (🔖), star (⭐), bridge (🌉), question (❓)',
        },
        ...moment('reaction'),
        created('reaction'),
      ],
    },
    {
      name: 'memberships',
      meaning: 'One row per selected teacher and shared portfolio of the export they are a member of.',
      columns: [
        id('shared_portfolio_id', 'The shared portfolio (shared_portfolios.csv).'),
        person('The member.'),
        {
          name: 'is_owner',
          type: 'boolean',
          meaning: 'Whether the member owns the shared portfolio.',
          allowed: 'true, false',
        },
        { name: 'joined_at', type: 'timestamp', meaning: 'When the member joined.', allowed: TS },
      ],
    },
    VERSIONS_FILE,
    ...RUBRIC_FILES,
  ];
}

/** The codebook file that lists the questions of every structure. */
export const QUESTIONS_FILE: FileDef = {
  name: 'codebook_questions',
  meaning:
    'Every question of the Basic template and of the structure of every shared portfolio in the export, with its choices.',
  columns: [
    {
      name: 'structure',
      type: 'category',
      meaning: 'Whose question list: the Basic template of personal portfolios, or a shared portfolio.',
      allowed: 'template, shared_portfolio',
    },
    {
      name: 'shared_portfolio_id',
      type: 'integer',
      meaning: 'The shared portfolio (shared_portfolios.csv); empty for the template.',
      allowed: 'an id, or empty',
    },
    {
      name: 'question_position',
      type: 'integer',
      meaning: "The question's place in the structure, from 1.",
      allowed: '1 or more',
    },
    { name: 'question_key', type: 'category', meaning: 'The key that responses.csv names the question by.' },
    {
      name: 'question_type',
      type: 'category',
      meaning: 'The kind of question.',
      allowed: 'shortText, longText, singleSelection, multipleResponse, number, fileUpload, expansionPanelChoices',
    },
    text('question_text', 'The question as teachers see it.'),
    {
      name: 'core',
      type: 'boolean',
      meaning: 'Whether an answer is required to submit an artifact.',
      allowed: 'true, false',
    },
    {
      name: 'team_question',
      type: 'boolean',
      meaning: 'Whether it is a team (bonus) question of the shared portfolio.',
      allowed: 'true, false',
    },
    {
      name: 'choices',
      type: 'list',
      meaning: 'The choices of a choice question, separated by " | "; empty otherwise.',
    },
    { name: 'min', type: 'number', meaning: 'Smallest answer of a number question; empty otherwise.' },
    { name: 'max', type: 'number', meaning: 'Largest answer of a number question; empty otherwise.' },
    { name: 'step', type: 'number', meaning: 'Step of a number question; empty otherwise.' },
  ],
};

/** The codebook file that describes every column of every file (this one included). */
export const COLUMNS_FILE: FileDef = {
  name: 'codebook_columns',
  meaning: 'Every column of every CSV file of the package: its meaning, type and allowed values.',
  columns: [
    { name: 'file', type: 'category', meaning: 'The CSV file.', allowed: 'a file name of this package' },
    { name: 'column', type: 'category', meaning: "The column's header." },
    {
      name: 'type',
      type: 'category',
      meaning: 'How its values are written.',
      allowed: 'person, integer, number, boolean, timestamp, category, text, list',
    },
    text('meaning', 'What the column holds.'),
    text('allowed_values', 'The values it may take; empty when any value of its type.'),
  ],
};
