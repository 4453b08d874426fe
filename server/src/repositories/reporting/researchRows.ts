import type { Queryable } from '../../db/client.ts';
import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import { byId, keysetBatches, keysetRows } from './keyset.ts';
import { mediaCountsSql } from './mappers.ts';
import { inRange, PAGE, rangeParams, type CreatedRange } from './researchSelection.ts';

// The rows of the research package's files, each read page by page (keyset) inside the export's
// transaction, joined on the selection that \`selectForExport\` made.

/**
 * Reads a keyset-paged statement page by page: \`$1\` the last id read, \`$2\` the page size, then
 * the range's bounds (\`$3\`, \`$4\`) when given; the next page is read ahead.
 */
export function pages<R extends { id: number }>(tx: Queryable, sql: string, range?: CreatedRange): AsyncGenerator<R> {
  const bounds = range ? rangeParams(range) : [];
  return keysetRows((after) => tx.query<R>(sql, [after, PAGE, ...bounds]).then((r) => r.rows), {
    ...byId<R>(PAGE),
    readAhead: true,
  });
}

export interface PersonRow {
  id: number;
  username: string;
  email: string;
  role: 'authenticated' | 'plc_lead' | 'researcher';
  in_filter: boolean;
  created_at: Date;
}

/** The selected people and the owners of the selected shared portfolios. */
export function teacherRows(tx: Queryable): AsyncGenerator<PersonRow> {
  return pages<PersonRow>(
    tx,
    `SELECT u.id, u.username, u.email, r.type AS role, u.id IN (SELECT id FROM export_people) AS in_filter, u.created_at
     FROM users u JOIN roles r ON r.id = u.role_id
     WHERE u.id > $1
       AND (u.id IN (SELECT id FROM export_people) OR u.id IN (SELECT owner_id FROM shared_portfolios WHERE id IN (SELECT id FROM export_sps)))
     ORDER BY u.id LIMIT $2`,
  );
}

export interface PortfolioRow {
  id: number;
  owner_id: number;
  name: string;
  subject: string | null;
  topic: string | null;
  grades: string[];
  created_at: Date;
  updated_at: Date;
}

/** The personal portfolios of the selected people. */
export function portfolioRows(tx: Queryable): AsyncGenerator<PortfolioRow> {
  return pages<PortfolioRow>(
    tx,
    `SELECT p.id, p.owner_id, p.name, p.subject, p.topic, p.grades, p.created_at, p.updated_at FROM portfolios p
     WHERE p.id > $1
       AND p.id <> ${TEMPLATE_PORTFOLIO_ID} AND p.owner_id IN (SELECT id FROM export_people)
     ORDER BY p.id LIMIT $2`,
  );
}

const TITLE = (alias: string) =>
  `CASE WHEN jsonb_typeof(${alias}.responses->'artifactName') = 'string' THEN ${alias}.responses->>'artifactName' ELSE '' END AS title`;

export interface ArtifactRow {
  id: number;
  portfolio_id: number;
  owner_id: number;
  title: string;
  parking_lot: boolean;
  images: number;
  videos: number;
  documents: number;
  created_at: Date;
  updated_at: Date;
}

const ARTIFACTS_WHERE = `a.id > $1 AND a.saved AND p.owner_id IN (SELECT id FROM export_people) AND ${inRange('a.created_at')}`;

/** The saved artifacts of those portfolios created in the range. */
export function artifactRows(tx: Queryable, range: CreatedRange): AsyncGenerator<ArtifactRow> {
  return pages<ArtifactRow>(
    tx,
    `SELECT a.id, a.portfolio_id, p.owner_id, ${TITLE('a')}, a.parking_lot, ${mediaCountsSql('artifact', 'a.id')},
       a.created_at, a.updated_at
     FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE ${ARTIFACTS_WHERE} ORDER BY a.id LIMIT $2`,
    range,
  );
}

/** One question of an artifact's structure that the artifact has a value for (long format). */
export interface AnswerRow {
  /** The artifact or shared artifact. */
  id: number;
  owner_id: number;
  /** The question's place in the structure, from 1 (file uploads counted). */
  position: number;
  key: string;
  type: string;
  text: string;
  bonus: boolean;
  /** The stored value (a string, a number, a list, or null). */
  value: unknown;
}

/**
 * The answers of the artifacts `source` selects (by `$1`, a list of ids), one row per question
 * with a value, in artifact and structure order: the database unnests the structures, so only
 * the answers travel (never whole structures), whatever their size.
 */
const answersOf = (source: string) => `
  SELECT x.id, x.owner_id, q.ord::int AS position, q.item->>'key' AS key, q.item->>'type' AS type,
    coalesce(q.item->>'text', '') AS text, coalesce(q.item->'bonus' = 'true'::jsonb, false) AS bonus,
    x.responses->(q.item->>'key') AS value
  FROM (${source}) x
  CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(x.structure) = 'array' THEN x.structure ELSE '[]'::jsonb END)
    WITH ORDINALITY AS q(item, ord)
  WHERE jsonb_typeof(x.responses) = 'object' AND q.item->>'type' IS DISTINCT FROM 'fileUpload' AND x.responses ? (q.item->>'key')
  ORDER BY x.id, q.ord`;

/**
 * The answers of the artifacts a keyset-paged id statement selects (`$1` the last id read, `$2`
 * the page size, then the range's bounds), a page of artifacts at a time.
 */
async function* answerPages(
  tx: Queryable,
  idsSql: string,
  answersSql: string,
  range?: CreatedRange,
): AsyncGenerator<AnswerRow> {
  const bounds = range ? rangeParams(range) : [];
  const idPages = keysetBatches(
    (after) => tx.query<{ id: number }>(idsSql, [after, PAGE, ...bounds]).then((r) => r.rows),
    byId<{ id: number }>(PAGE),
  );
  for await (const ids of idPages) {
    if (ids.length > 0) yield* (await tx.query<AnswerRow>(answersSql, [ids.map((r) => r.id)])).rows;
  }
}

/** The answers of the same artifacts as `artifactRows`. */
export function artifactAnswers(tx: Queryable, range: CreatedRange): AsyncGenerator<AnswerRow> {
  return answerPages(
    tx,
    `SELECT a.id FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE ${ARTIFACTS_WHERE} ORDER BY a.id LIMIT $2`,
    answersOf(
      'SELECT a.id, p.owner_id, a.structure, a.responses FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE a.id = ANY($1::int[])',
    ),
    range,
  );
}

/** The answers of the selected shared artifacts. */
export function sharedArtifactAnswers(tx: Queryable): AsyncGenerator<AnswerRow> {
  return answerPages(
    tx,
    'SELECT sa.id FROM shared_artifacts sa WHERE sa.id > $1 AND sa.id IN (SELECT id FROM export_sas) ORDER BY sa.id LIMIT $2',
    answersOf(
      'SELECT sa.id, sa.owner_id, sa.structure, sa.responses FROM shared_artifacts sa WHERE sa.id = ANY($1::int[])',
    ),
  );
}

/** A shared portfolio's row: a portfolio's columns, its community and its structure. */
export interface SharedPortfolioRow extends PortfolioRow {
  plc_name: string | null;
  plc_goals: string | null;
  structure: unknown;
}

/** The selected shared portfolios, with their structures. */
export function sharedPortfolioRows(tx: Queryable): AsyncGenerator<SharedPortfolioRow> {
  return pages<SharedPortfolioRow>(
    tx,
    `SELECT sp.id, sp.owner_id, sp.name, sp.subject, sp.topic, sp.grades, sp.plc_name, sp.plc_goals, sp.structure, sp.created_at, sp.updated_at
     FROM shared_portfolios sp
     WHERE sp.id > $1 AND sp.id IN (SELECT id FROM export_sps)
     ORDER BY sp.id LIMIT $2`,
  );
}

export interface SharedArtifactRow {
  id: number;
  shared_portfolio_id: number;
  owner_id: number;
  title: string;
  portfolio_subject: string | null;
  portfolio_topic: string | null;
  portfolio_grades: string[];
  images: number;
  videos: number;
  documents: number;
  created_at: Date;
  updated_at: Date;
}

/** The selected shared artifacts. */
export function sharedArtifactRows(tx: Queryable): AsyncGenerator<SharedArtifactRow> {
  return pages<SharedArtifactRow>(
    tx,
    `SELECT sa.id, sa.shared_portfolio_id, sa.owner_id, ${TITLE('sa')}, sa.portfolio_subject, sa.portfolio_topic, sa.portfolio_grades,
       ${mediaCountsSql('sharedArtifact', 'sa.id')}, sa.created_at, sa.updated_at
     FROM shared_artifacts sa
     WHERE sa.id > $1 AND sa.id IN (SELECT id FROM export_sas)
     ORDER BY sa.id LIMIT $2`,
  );
}

/** A comment or reaction of a selected person on a selected shared artifact, at a moment of a video or (all null) on the whole artifact. */
interface DiscussionRow {
  id: number;
  shared_artifact_id: number;
  owner_id: number;
  media_id: number | null;
  moment_start: number | null;
  moment_end: number | null;
  created_at: Date;
}

/** Which rows of comments (`c`) or reactions (`r`) the export holds: the selected people's on the selected shared artifacts, written in the range. */
const discussionWhere = (alias: 'c' | 'r') =>
  `${alias}.id > $1 AND ${alias}.shared_artifact_id IN (SELECT id FROM export_sas) AND ${alias}.owner_id IN (SELECT id FROM export_people)
       AND ${inRange(`${alias}.created_at`)}`;

export interface CommentRow extends DiscussionRow {
  text: string;
  updated_at: Date;
}

/** The selected people's comments on the selected shared artifacts, written in the range. */
export function commentRows(tx: Queryable, range: CreatedRange): AsyncGenerator<CommentRow> {
  return pages<CommentRow>(
    tx,
    `SELECT c.id, c.shared_artifact_id, c.owner_id, c.text, c.media_id, c.moment_start, c.moment_end, c.created_at, c.updated_at
     FROM comments c
     WHERE ${discussionWhere('c')}
     ORDER BY c.id LIMIT $2`,
    range,
  );
}

export interface ReactionRow extends DiscussionRow {
  value: string;
}

/** The selected people's reactions on the selected shared artifacts, given in the range. */
export function reactionRows(tx: Queryable, range: CreatedRange): AsyncGenerator<ReactionRow> {
  return pages<ReactionRow>(
    tx,
    `SELECT r.id, r.shared_artifact_id, r.owner_id, r.value, r.media_id, r.moment_start, r.moment_end, r.created_at
     FROM reactions r
     WHERE ${discussionWhere('r')}
     ORDER BY r.id LIMIT $2`,
    range,
  );
}

export interface MembershipRow {
  shared_portfolio_id: number;
  user_id: number;
  is_owner: boolean;
  joined_at: Date;
}

/** The selected people's memberships of the selected shared portfolios. */
export function membershipRows(tx: Queryable): AsyncGenerator<MembershipRow> {
  return keysetRows(
    ([sp, user]) =>
      tx
        .query<MembershipRow>(
          `SELECT m.shared_portfolio_id, m.user_id, sp.owner_id = m.user_id AS is_owner, m.joined_at
           FROM shared_portfolio_members m JOIN shared_portfolios sp ON sp.id = m.shared_portfolio_id
           WHERE (m.shared_portfolio_id, m.user_id) > ($1, $2)
             AND m.shared_portfolio_id IN (SELECT id FROM export_sps) AND m.user_id IN (SELECT id FROM export_people)
           ORDER BY m.shared_portfolio_id, m.user_id LIMIT $3`,
          [sp, user, PAGE],
        )
        .then((r) => r.rows),
    {
      start: [0, 0] as [number, number],
      size: PAGE,
      keyOf: (last): [number, number] => [last.shared_portfolio_id, last.user_id],
    },
  );
}
