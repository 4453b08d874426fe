import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import type { ResearchExportFilters, ResearchExportRecord, ResearchExportStatus } from '#schemas/researchExport';
import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import { ROLE_IDS } from '#schemas/user';
import { iso, json } from './sql.ts';

/** The name of the secret that keys research pseudonyms. */
const PSEUDONYM_SECRET = 'research_pseudonyms';

/** Rows read per statement: memory stays flat whatever the size of the data. */
export const PAGE = 250;

/** Bounds of the date filter: `from` inclusive, `until` exclusive (both UTC); `null` when open. */
export interface CreatedRange {
  from: Date | null;
  until: Date | null;
}

/** The range test on `column` for page statements (`$3`, `$4`: the range's bounds). */
const inRange = (column: string, from = '$3', until = '$4') =>
  `(${from}::timestamptz IS NULL OR ${column} >= ${from}) AND (${until}::timestamptz IS NULL OR ${column} < ${until})`;
const rangeParams = (range: CreatedRange) => [range.from, range.until];

/** The installation's pseudonym key, made (32 random bytes) by the first caller. */
export async function pseudonymSecret(db: Queryable): Promise<Buffer> {
  await db.query('INSERT INTO installation_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [PSEUDONYM_SECRET, randomBytes(32)]);
  const { rows } = await db.query<{ value: Buffer }>('SELECT value FROM installation_secrets WHERE name = $1', [PSEUDONYM_SECRET]);
  return rows[0]!.value;
}

/** Which of `ids` are not accounts of teachers or PLC leads. */
export async function notTeachers(db: Queryable, ids: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT x.id FROM unnest($1::int[]) AS x(id) LEFT JOIN users u ON u.id = x.id AND u.role_id IN ($2, $3) WHERE u.id IS NULL ORDER BY x.id`,
    [ids, ROLE_IDS.teacher, ROLE_IDS.plcLead],
  );
  return rows.map((r) => r.id);
}

/** Which of `ids` are not shared portfolios. */
export async function missingSharedPortfolios(db: Queryable, ids: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT x.id FROM unnest($1::int[]) AS x(id) LEFT JOIN shared_portfolios sp ON sp.id = x.id WHERE sp.id IS NULL ORDER BY x.id',
    [ids],
  );
  return rows.map((r) => r.id);
}

/** Names of some users and shared portfolios, in the order of their ids (for a package's README). */
export async function namesOf(db: Queryable, userIds: readonly number[], sharedPortfolioIds: readonly number[]) {
  const users = await db.query<{ id: number; username: string }>('SELECT id, username FROM users WHERE id = ANY($1::int[]) ORDER BY id', [userIds]);
  const sps = await db.query<{ id: number; name: string }>('SELECT id, name FROM shared_portfolios WHERE id = ANY($1::int[]) ORDER BY id', [sharedPortfolioIds]);
  return { users: users.rows, sharedPortfolios: sps.rows };
}

/** Records an export as it starts; returns its id. */
export async function insertExport(db: Queryable, researcherId: number, parameters: ResearchExportFilters): Promise<{ id: number; startedAt: Date }> {
  const { rows } = await db.query<{ id: number; started_at: Date }>(
    'INSERT INTO research_exports (researcher_id, parameters) VALUES ($1, $2::jsonb) RETURNING id, started_at',
    [researcherId, json(parameters)],
  );
  return { id: rows[0]!.id, startedAt: rows[0]!.started_at };
}

/** Records how an export ended. */
export async function finishExport(
  db: Queryable,
  id: number,
  outcome: { status: Exclude<ResearchExportStatus, 'running'>; rowCounts: Record<string, number>; bytes: number | null },
): Promise<void> {
  await db.query(
    `UPDATE research_exports SET status = $2, row_counts = $3::jsonb, bytes = $4, finished_at = ms_now() WHERE id = $1 AND status = 'running'`,
    [id, outcome.status, json(outcome.rowCounts), outcome.bytes],
  );
}

/** The audit log, latest first. */
export async function listExports(db: Queryable, limit: number): Promise<ResearchExportRecord[]> {
  const { rows } = await db.query<{
    id: number;
    researcher_id: number;
    username: string;
    parameters: ResearchExportFilters;
    status: ResearchExportStatus;
    row_counts: Record<string, number>;
    bytes: number | null;
    started_at: Date;
    finished_at: Date | null;
  }>(
    `SELECT e.id, e.researcher_id, u.username, e.parameters, e.status, e.row_counts, e.bytes, e.started_at, e.finished_at
     FROM research_exports e JOIN users u ON u.id = e.researcher_id ORDER BY e.started_at DESC, e.id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    researcher: { id: r.researcher_id, username: r.username },
    parameters: r.parameters,
    status: r.status,
    rowCounts: r.row_counts,
    bytes: r.bytes,
    started_at: iso(r.started_at),
    finished_at: r.finished_at ? iso(r.finished_at) : null,
  }));
}

/** Every account's id, name and address (the people a de-identified text must not name). */
export async function* allPeople(db: Queryable): AsyncGenerator<{ id: number; username: string; email: string }> {
  let after = 0;
  for (;;) {
    const { rows } = await db.query<{ id: number; username: string; email: string }>(
      'SELECT id, username, email FROM users WHERE id > $1 ORDER BY id LIMIT $2',
      [after, PAGE],
    );
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}

/**
 * Opens the export's selection inside the caller's transaction: temporary tables (dropped at its
 * end) of the selected people, shared portfolios and shared artifacts, so that every page
 * statement below joins on them.
 */
export async function selectForExport(tx: Queryable, filters: ResearchExportFilters, range: CreatedRange): Promise<void> {
  const teachers = filters.teachers && filters.teachers.length > 0 ? filters.teachers : null;
  const sps = filters.sharedPortfolios && filters.sharedPortfolios.length > 0 ? filters.sharedPortfolios : null;
  await tx.query('CREATE TEMP TABLE export_people (id integer PRIMARY KEY) ON COMMIT DROP');
  await tx.query(
    `INSERT INTO export_people SELECT u.id FROM users u
     WHERE u.role_id IN ($3, $4)
       AND ($1::int[] IS NULL OR u.id = ANY($1))
       AND ($2::int[] IS NULL OR EXISTS (SELECT 1 FROM shared_portfolio_members m WHERE m.user_id = u.id AND m.shared_portfolio_id = ANY($2)))`,
    [teachers, sps, ROLE_IDS.teacher, ROLE_IDS.plcLead],
  );
  await tx.query('CREATE TEMP TABLE export_sps (id integer PRIMARY KEY) ON COMMIT DROP');
  await tx.query(
    `INSERT INTO export_sps SELECT sp.id FROM shared_portfolios sp
     WHERE ($1::int[] IS NULL OR sp.id = ANY($1))
       AND ($2::boolean IS FALSE OR EXISTS (SELECT 1 FROM shared_portfolio_members m JOIN export_people p ON p.id = m.user_id WHERE m.shared_portfolio_id = sp.id))`,
    [sps, teachers !== null],
  );
  await tx.query('CREATE TEMP TABLE export_sas (id integer PRIMARY KEY) ON COMMIT DROP');
  await tx.query(
    `INSERT INTO export_sas SELECT sa.id FROM shared_artifacts sa
     WHERE sa.shared_portfolio_id IN (SELECT id FROM export_sps) AND sa.owner_id IN (SELECT id FROM export_people) AND ${inRange('sa.created_at', '$1', '$2')}`,
    rangeParams(range),
  );
  await tx.query('ANALYZE export_people; ANALYZE export_sps; ANALYZE export_sas');
}

/**
 * Reads a keyset-paged statement page by page: `$1` the last key read, `$2` the page size, then
 * the range's bounds (`$3`, `$4`) when given. The next page is asked for as soon as a full page
 * arrives, so the database reads it while the caller writes this one (two pages at most in memory).
 */
async function* pages<R extends { id: number }>(tx: Queryable, sql: string, range?: CreatedRange): AsyncGenerator<R> {
  const read = (after: number) => {
    const page = tx.query<R>(sql, [after, PAGE, ...(range ? rangeParams(range) : [])]);
    // A page the caller no longer waits for (it stopped) must not fail unhandled.
    page.catch(() => undefined);
    return page;
  };
  let next = read(0);
  for (;;) {
    const { rows } = await next;
    const full = rows.length === PAGE;
    if (full) next = read(rows.at(-1)!.id);
    yield* rows;
    if (!full) return;
  }
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

const MEDIA_COUNTS = (link: string, key: string, id: string) => `
  (SELECT count(*) FILTER (WHERE m.kind = 'image') FROM ${link} l JOIN media_files m ON m.id = l.media_id WHERE l.${key} = ${id})::int AS images,
  (SELECT count(*) FILTER (WHERE m.kind = 'video') FROM ${link} l JOIN media_files m ON m.id = l.media_id WHERE l.${key} = ${id})::int AS videos,
  (SELECT count(*) FILTER (WHERE m.kind = 'document') FROM ${link} l JOIN media_files m ON m.id = l.media_id WHERE l.${key} = ${id})::int AS documents`;

const TITLE = (alias: string) => `CASE WHEN jsonb_typeof(${alias}.responses->'artifactName') = 'string' THEN ${alias}.responses->>'artifactName' ELSE '' END AS title`;

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
    `SELECT a.id, a.portfolio_id, p.owner_id, ${TITLE('a')}, a.parking_lot, ${MEDIA_COUNTS('artifact_media', 'artifact_id', 'a.id')},
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
async function* answerPages(tx: Queryable, idsSql: string, answersSql: string, range?: CreatedRange): AsyncGenerator<AnswerRow> {
  let after = 0;
  for (;;) {
    const { rows: ids } = await tx.query<{ id: number }>(idsSql, [after, PAGE, ...(range ? rangeParams(range) : [])]);
    if (ids.length > 0) {
      const { rows } = await tx.query<AnswerRow>(answersSql, [ids.map((r) => r.id)]);
      yield* rows;
    }
    if (ids.length < PAGE) return;
    after = ids.at(-1)!.id;
  }
}

/** The answers of the same artifacts as `artifactRows`. */
export function artifactAnswers(tx: Queryable, range: CreatedRange): AsyncGenerator<AnswerRow> {
  return answerPages(
    tx,
    `SELECT a.id FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE ${ARTIFACTS_WHERE} ORDER BY a.id LIMIT $2`,
    answersOf('SELECT a.id, p.owner_id, a.structure, a.responses FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE a.id = ANY($1::int[])'),
    range,
  );
}

/** The answers of the selected shared artifacts. */
export function sharedArtifactAnswers(tx: Queryable): AsyncGenerator<AnswerRow> {
  return answerPages(
    tx,
    'SELECT sa.id FROM shared_artifacts sa WHERE sa.id > $1 AND sa.id IN (SELECT id FROM export_sas) ORDER BY sa.id LIMIT $2',
    answersOf('SELECT sa.id, sa.owner_id, sa.structure, sa.responses FROM shared_artifacts sa WHERE sa.id = ANY($1::int[])'),
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
       ${MEDIA_COUNTS('shared_artifact_media', 'shared_artifact_id', 'sa.id')}, sa.created_at, sa.updated_at
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
export async function* membershipRows(tx: Queryable): AsyncGenerator<MembershipRow> {
  let after = { sp: 0, user: 0 };
  for (;;) {
    const { rows } = await tx.query<MembershipRow>(
      `SELECT m.shared_portfolio_id, m.user_id, sp.owner_id = m.user_id AS is_owner, m.joined_at
       FROM shared_portfolio_members m JOIN shared_portfolios sp ON sp.id = m.shared_portfolio_id
       WHERE (m.shared_portfolio_id, m.user_id) > ($1, $2)
         AND m.shared_portfolio_id IN (SELECT id FROM export_sps) AND m.user_id IN (SELECT id FROM export_people)
       ORDER BY m.shared_portfolio_id, m.user_id LIMIT $3`,
      [after.sp, after.user, PAGE],
    );
    yield* rows;
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = { sp: last.shared_portfolio_id, user: last.user_id };
  }
}

/** The Basic template's structure. */
export async function templateStructure(tx: Queryable): Promise<unknown> {
  const { rows } = await tx.query<{ structure: unknown }>('SELECT structure FROM portfolios WHERE id = $1', [TEMPLATE_PORTFOLIO_ID]);
  return rows[0]?.structure ?? [];
}
