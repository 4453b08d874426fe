import {
  type ColumnType,
  type SinceOriginal,
  type SummaryColumn,
  type SummaryFile,
  type SummaryFileDef,
} from './columns.ts';
import { listText } from './mappers.ts';
import type { SharedSummaryRow, TeacherSummaryRow } from './summaryRepository.ts';

// The columns of the two summary CSVs, defined once: the header, the cells and the codebook's
// section on the summaries are all read from these lists.

type Column<R> = SummaryColumn<R>;
const column = <R>(
  since: SinceOriginal,
  name: string,
  type: ColumnType,
  meaning: string,
  cell: (row: R) => string | number,
): Column<R> => ({
  since,
  name,
  type,
  meaning,
  cell,
});

type T = TeacherSummaryRow;
const teacher = (name: string, type: ColumnType, meaning: string, cell: (row: T) => string | number) =>
  column<T>('same', name, type, meaning, cell);

/**
 * `teacher portfolios.csv`: the 12 columns of reference §4.1 in their order ("Last Updated" now
 * ISO 8601 in UTC), then ids, the teacher's e-mail, the portfolio's descriptors and the
 * artifacts' answers as text.
 */
export const TEACHER_SUMMARY: SummaryFile<T> = {
  fileName: 'teacher portfolios.csv',
  columns: [
    teacher('Teacher', 'text', "The owner's user name.", (r) => r.username),
    teacher('Portfolio', 'text', "The portfolio's name.", (r) => r.name),
    teacher('Artifacts', 'integer', 'Number of saved artifacts.', (r) => r.artifacts),
    teacher('Parking Lot Artifacts', 'integer', 'Number of artifacts still in the parking lot.', (r) => r.parking),
    teacher('Completed Artifacts', 'integer', 'Number of artifacts submitted to the portfolio.', (r) => r.completed),
    teacher(
      'Artifacts with Documents',
      'integer',
      'Number of artifacts with at least one document.',
      (r) => r.with_documents,
    ),
    teacher('Artifacts with Images', 'integer', 'Number of artifacts with at least one image.', (r) => r.with_images),
    teacher('Artifacts with Videos', 'integer', 'Number of artifacts with at least one video.', (r) => r.with_videos),
    teacher('Documents', 'integer', 'Documents attached to its artifacts.', (r) => r.documents),
    teacher('Images', 'integer', 'Images attached to its artifacts.', (r) => r.images),
    teacher('Videos', 'integer', 'Videos attached to its artifacts.', (r) => r.videos),
    column(
      'changed',
      'Last Updated',
      'timestamp',
      'The latest save of the portfolio or one of its artifacts, ISO 8601 in UTC.',
      (r: T) => r.last_updated,
    ),
    column(
      'added',
      'Teacher ID',
      'integer',
      "The owner's account id (the same in both summaries).",
      (r: T) => r.owner_id,
    ),
    column(
      'added',
      'Teacher E-mail',
      'text',
      'The owner\'s e-mail address ("Teacher" is the user name).',
      (r: T) => r.email,
    ),
    column('added', 'Portfolio ID', 'integer', "The portfolio's id.", (r: T) => r.id),
    column('added', 'Subject', 'text', "The portfolio's subject.", (r: T) => r.subject ?? ''),
    column('added', 'Topic', 'text', "The portfolio's topic.", (r: T) => r.topic ?? ''),
    column('added', 'Grades', 'list', 'The portfolio\'s grades, separated by " | ".', (r: T) => listText(r.grades)),
    column('added', 'Created', 'timestamp', 'When the portfolio was created, ISO 8601 in UTC.', (r: T) => r.created),
    column(
      'added',
      'Artifact Responses',
      'text',
      'Every saved artifact\'s answers as text, one line per artifact ("Artifact <id>: <question>: <answer>; …"), choices separated by " | ".',
      (r: T) => r.responses ?? '',
    ),
  ],
};

type S = SharedSummaryRow;
const shared = (name: string, type: ColumnType, meaning: string, cell: (row: S) => string | number) =>
  column<S>('same', name, type, meaning, cell);
const added = (name: string, type: ColumnType, meaning: string, cell: (row: S) => string | number) =>
  column<S>('added', name, type, meaning, cell);

/**
 * `shared portfolios.csv`: the 18 columns of reference §4.2 in their order, then ids and user
 * names next to the e-mails, the time-coded discussion, dates in ISO 8601 (UTC), the
 * artifacts' answers and the comments as text, then the rubric scores (decision 055: new columns
 * only ever go at the end, so readers of the earlier columns by position keep working).
 */
export const SHARED_SUMMARY: SummaryFile<S> = {
  fileName: 'shared portfolios.csv',
  columns: [
    shared('Shared Portfolio', 'text', "The shared portfolio's name.", (r) => r.name),
    shared('Owner', 'text', "The owner's e-mail address.", (r) => r.owner_email),
    shared(
      'Teachers Who Submitted Artifacts',
      'list',
      'The e-mails of the artifacts\' owners, sorted, separated by ", ".',
      (r) => r.submitters ?? '',
    ),
    shared('Artifacts', 'integer', 'Number of shared artifacts.', (r) => r.artifacts),
    shared(
      'Artifacts with Bonus Questions Answered',
      'integer',
      'Number of artifacts that answered every team question.',
      (r) => r.bonus_complete,
    ),
    shared(
      'Artifacts with Documents',
      'integer',
      'Number of artifacts with at least one document.',
      (r) => r.with_documents,
    ),
    shared('Artifacts with Images', 'integer', 'Number of artifacts with at least one image.', (r) => r.with_images),
    shared('Artifacts with Videos', 'integer', 'Number of artifacts with at least one video.', (r) => r.with_videos),
    shared('Documents', 'integer', 'Documents attached to its artifacts.', (r) => r.documents),
    shared('Images', 'integer', 'Images attached to its artifacts.', (r) => r.images),
    shared('Videos', 'integer', 'Videos attached to its artifacts.', (r) => r.videos),
    shared(
      'Teachers Who Commented or Reacted',
      'list',
      'The e-mails of those who commented or reacted, sorted, separated by ", ".',
      (r) => r.discussants ?? '',
    ),
    shared('Comments', 'integer', 'Number of comments.', (r) => r.comments),
    shared('Reactions', 'integer', 'Number of reactions.', (r) => r.reactions),
    shared('Tag Reactions', 'integer', 'Number of 🔖 reactions.', (r) => r.tag),
    shared('Star Reactions', 'integer', 'Number of ⭐ reactions.', (r) => r.star),
    shared('Bridge Reactions', 'integer', 'Number of 🌉 reactions.', (r) => r.bridge),
    shared('Question Reactions', 'integer', 'Number of ❓ reactions.', (r) => r.question),
    added('Shared Portfolio ID', 'integer', "The shared portfolio's id.", (r) => r.id),
    added('Owner ID', 'integer', 'The owner\'s account id ("Owner" is the e-mail).', (r) => r.owner_id),
    added('Owner Username', 'text', "The owner's user name.", (r) => r.owner_username),
    added(
      'Submitting Teacher IDs',
      'list',
      'The account ids of "Teachers Who Submitted Artifacts", in the same order.',
      (r) => r.submitter_ids ?? '',
    ),
    added(
      'Submitting Teacher Usernames',
      'list',
      'Their user names, in the same order.',
      (r) => r.submitter_names ?? '',
    ),
    added(
      'Commenting or Reacting Teacher IDs',
      'list',
      'The account ids of "Teachers Who Commented or Reacted", in the same order.',
      (r) => r.discussant_ids ?? '',
    ),
    added(
      'Commenting or Reacting Teacher Usernames',
      'list',
      'Their user names, in the same order.',
      (r) => r.discussant_names ?? '',
    ),
    added('Time-coded Comments', 'integer', 'Comments anchored to a moment of a video.', (r) => r.timed_comments),
    added('Time-coded Reactions', 'integer', 'Reactions anchored to a moment of a video.', (r) => r.timed_reactions),
    added('Created', 'timestamp', 'When the shared portfolio was created, ISO 8601 in UTC.', (r) => r.created),
    added('Last Updated', 'timestamp', 'When the shared portfolio was last saved, ISO 8601 in UTC.', (r) => r.updated),
    added(
      'Artifact Responses',
      'text',
      'Every shared artifact\'s answers as text, one line per artifact ("Artifact <id> by <user name>: <question>: <answer>; …").',
      (r) => r.responses ?? '',
    ),
    added(
      'Comment Texts',
      'text',
      'Every comment, one line each: "Comment <id> by <user name> (id <id>) at <ISO time>[, video <media id> <start>–<end> s]: <text>".',
      (r) => r.comment_texts ?? '',
    ),
    added('Scores', 'integer', 'Number of rubric scores given on its artifacts.', (r) => r.scores),
    added('Time-coded Scores', 'integer', 'Rubric scores anchored to a moment of a video.', (r) => r.timed_scores),
    added(
      'Scored Artifacts',
      'integer',
      'Number of artifacts with at least one rubric score.',
      (r) => r.scored_artifacts,
    ),
    added('Scorers', 'integer', 'Number of people who gave rubric scores.', (r) => r.scorers),
  ],
};

/** The summaries in the order the codebook describes them. */
export const SUMMARY_FILES: readonly SummaryFileDef[] = [TEACHER_SUMMARY, SHARED_SUMMARY];
