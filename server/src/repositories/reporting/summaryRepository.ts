import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import { ROLE_IDS } from '#schemas/user';
import type { Queryable } from '../../db/client.ts';
import { byId, keysetRows } from './keyset.ts';

// The two summary CSVs of the portal (reference §4): one statement per page of portfolios, each
// row carrying its counts and texts, so that the server only writes what the database sums up.

/** An ISO 8601 UTC time written by PostgreSQL (as `Date.toISOString` writes it). */
const ISO_SQL = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One line of answers per artifact of `alias` (structure order, file uploads and empty answers
 * left out): "<question>: <answer>; …", choices joined with " | ".
 */
const ANSWERS_TEXT = (alias: string) => `(SELECT string_agg((q->>'text') || ': ' ||
    CASE jsonb_typeof(${alias}.responses->(q->>'key'))
      WHEN 'array' THEN (SELECT string_agg(v, ' | ') FROM jsonb_array_elements_text(${alias}.responses->(q->>'key')) v)
      ELSE ${alias}.responses->>(q->>'key') END, '; ' ORDER BY s.ord)
  FROM jsonb_array_elements(${alias}.structure) WITH ORDINALITY AS s(q, ord)
  WHERE q->>'type' <> 'fileUpload' AND ${alias}.responses ? (q->>'key')
    AND ${alias}.responses->(q->>'key') NOT IN ('""'::jsonb, '[]'::jsonb, 'null'::jsonb))`;

/** Portfolios per statement: each row carries its artifacts' answers, so pages stay small. */
const TEACHER_BATCH = 100;
/** Shared portfolios per statement: each row carries the answers and every comment. */
const SHARED_BATCH = 20;

/** A row of `teacher portfolios.csv` as read. */
export interface TeacherSummaryRow {
  id: number;
  username: string;
  name: string;
  artifacts: number;
  parking: number;
  completed: number;
  with_documents: number;
  with_images: number;
  with_videos: number;
  documents: number;
  images: number;
  videos: number;
  last_updated: string;
  owner_id: number;
  email: string;
  subject: string | null;
  topic: string | null;
  grades: string[];
  created: string;
  responses: string | null;
}

/** A row of `shared portfolios.csv` as read. */
export interface SharedSummaryRow {
  id: number;
  name: string;
  owner_email: string;
  submitters: string | null;
  artifacts: number;
  bonus_complete: number;
  with_documents: number;
  with_images: number;
  with_videos: number;
  documents: number;
  images: number;
  videos: number;
  discussants: string | null;
  comments: number;
  reactions: number;
  tag: number;
  star: number;
  bridge: number;
  question: number;
  owner_id: number;
  owner_username: string;
  submitter_ids: string | null;
  submitter_names: string | null;
  discussant_ids: string | null;
  discussant_names: string | null;
  timed_comments: number;
  timed_reactions: number;
  scores: number;
  timed_scores: number;
  scored_artifacts: number;
  scorers: number;
  created: string;
  updated: string;
  responses: string | null;
  comment_texts: string | null;
}

const TEACHER_SQL = `WITH page AS (
   SELECT p.id, p.name, p.updated_at, p.created_at, p.subject, p.topic, p.grades, u.id AS owner_id, u.username, u.email
   FROM portfolios p JOIN users u ON u.id = p.owner_id
   WHERE p.id > $1 AND p.id <> $2 AND u.role_id <> $4 ORDER BY p.id LIMIT $3
 ), media AS (
   SELECT am.artifact_id,
     count(*) FILTER (WHERE m.kind = 'document')::int AS documents,
     count(*) FILTER (WHERE m.kind = 'image')::int AS images,
     count(*) FILTER (WHERE m.kind = 'video')::int AS videos
   FROM artifact_media am JOIN media_files m ON m.id = am.media_id
   JOIN artifacts a ON a.id = am.artifact_id WHERE a.portfolio_id IN (SELECT id FROM page) AND a.saved
   GROUP BY am.artifact_id
 )
 SELECT page.id, page.username, page.name,
   count(a.id)::int AS artifacts,
   count(a.id) FILTER (WHERE a.parking_lot)::int AS parking,
   count(a.id) FILTER (WHERE NOT a.parking_lot)::int AS completed,
   count(a.id) FILTER (WHERE coalesce(m.documents, 0) > 0)::int AS with_documents,
   count(a.id) FILTER (WHERE coalesce(m.images, 0) > 0)::int AS with_images,
   count(a.id) FILTER (WHERE coalesce(m.videos, 0) > 0)::int AS with_videos,
   coalesce(sum(m.documents), 0)::int AS documents,
   coalesce(sum(m.images), 0)::int AS images,
   coalesce(sum(m.videos), 0)::int AS videos,
   ${ISO_SQL('greatest(page.updated_at, max(a.updated_at))')} AS last_updated,
   page.owner_id, page.email, page.subject, page.topic, page.grades, ${ISO_SQL('page.created_at')} AS created,
   (SELECT string_agg('Artifact ' || x.id || ': ' || coalesce(${ANSWERS_TEXT('x')}, ''), E'\n' ORDER BY x.id)
      FROM artifacts x WHERE x.portfolio_id = page.id AND x.saved) AS responses
 FROM page LEFT JOIN artifacts a ON a.portfolio_id = page.id AND a.saved LEFT JOIN media m ON m.artifact_id = a.id
 GROUP BY page.id, page.username, page.name, page.updated_at, page.created_at, page.owner_id, page.email, page.subject, page.topic, page.grades
 ORDER BY page.id`;

const SHARED_SQL = `WITH page AS (
   SELECT sp.id, sp.name, o.email AS owner_email, o.id AS owner_id, o.username AS owner_username, sp.created_at, sp.updated_at
   FROM shared_portfolios sp JOIN users o ON o.id = sp.owner_id
   WHERE sp.id > $1 ORDER BY sp.id LIMIT $2
 ), arts AS (
   SELECT sa.id, sa.shared_portfolio_id, u.email, u.id AS user_id, u.username,
     (SELECT count(*) FROM jsonb_array_elements(sa.structure) q WHERE (q->>'bonus')::boolean IS TRUE) AS bonus_total,
     (SELECT count(*) FROM jsonb_array_elements(sa.structure) q
        WHERE (q->>'bonus')::boolean IS TRUE AND sa.responses ? (q->>'key')
          AND sa.responses->(q->>'key') NOT IN ('""'::jsonb, '[]'::jsonb, 'null'::jsonb)) AS bonus_answered,
     (SELECT count(*) FROM shared_artifact_media l JOIN media_files m ON m.id = l.media_id WHERE l.shared_artifact_id = sa.id AND m.kind = 'document') AS documents,
     (SELECT count(*) FROM shared_artifact_media l JOIN media_files m ON m.id = l.media_id WHERE l.shared_artifact_id = sa.id AND m.kind = 'image') AS images,
     (SELECT count(*) FROM shared_artifact_media l JOIN media_files m ON m.id = l.media_id WHERE l.shared_artifact_id = sa.id AND m.kind = 'video') AS videos
   FROM shared_artifacts sa JOIN users u ON u.id = sa.owner_id WHERE sa.shared_portfolio_id IN (SELECT id FROM page)
 ), art_totals AS (
   SELECT shared_portfolio_id,
     -- E-mails in byte order (as the original sorted them), whatever the database's collation.
     string_agg(DISTINCT email COLLATE "C", ', ' ORDER BY email COLLATE "C") AS submitters,
     -- Ids and user names in the order of the e-mails (e-mails are unique).
     (SELECT string_agg(d.user_id::text, ', ' ORDER BY d.email COLLATE "C") FROM (SELECT DISTINCT x.email, x.user_id FROM arts x WHERE x.shared_portfolio_id = arts.shared_portfolio_id) d) AS submitter_ids,
     (SELECT string_agg(d.username, ', ' ORDER BY d.email COLLATE "C") FROM (SELECT DISTINCT x.email, x.username FROM arts x WHERE x.shared_portfolio_id = arts.shared_portfolio_id) d) AS submitter_names,
     count(*)::int AS artifacts,
     count(*) FILTER (WHERE bonus_total > 0 AND bonus_answered = bonus_total)::int AS bonus_complete,
     count(*) FILTER (WHERE documents > 0)::int AS with_documents,
     count(*) FILTER (WHERE images > 0)::int AS with_images,
     count(*) FILTER (WHERE videos > 0)::int AS with_videos,
     coalesce(sum(documents), 0)::int AS documents,
     coalesce(sum(images), 0)::int AS images,
     coalesce(sum(videos), 0)::int AS videos
   FROM arts GROUP BY shared_portfolio_id
 ), talk AS (
   SELECT sa.shared_portfolio_id, u.email, u.id AS user_id, u.username, 'comment' AS what, NULL::text AS value, c.media_id IS NOT NULL AS timed
     FROM comments c JOIN shared_artifacts sa ON sa.id = c.shared_artifact_id JOIN users u ON u.id = c.owner_id
     WHERE sa.shared_portfolio_id IN (SELECT id FROM page)
   UNION ALL
   SELECT sa.shared_portfolio_id, u.email, u.id, u.username, 'reaction', r.value, r.media_id IS NOT NULL
     FROM reactions r JOIN shared_artifacts sa ON sa.id = r.shared_artifact_id JOIN users u ON u.id = r.owner_id
     WHERE sa.shared_portfolio_id IN (SELECT id FROM page)
 ), talk_totals AS (
   SELECT shared_portfolio_id,
     string_agg(DISTINCT email COLLATE "C", ', ' ORDER BY email COLLATE "C") AS discussants,
     (SELECT string_agg(d.user_id::text, ', ' ORDER BY d.email COLLATE "C") FROM (SELECT DISTINCT x.email, x.user_id FROM talk x WHERE x.shared_portfolio_id = talk.shared_portfolio_id) d) AS discussant_ids,
     (SELECT string_agg(d.username, ', ' ORDER BY d.email COLLATE "C") FROM (SELECT DISTINCT x.email, x.username FROM talk x WHERE x.shared_portfolio_id = talk.shared_portfolio_id) d) AS discussant_names,
     count(*) FILTER (WHERE what = 'comment' AND timed)::int AS timed_comments,
     count(*) FILTER (WHERE what = 'reaction' AND timed)::int AS timed_reactions,
     count(*) FILTER (WHERE what = 'comment')::int AS comments,
     count(*) FILTER (WHERE what = 'reaction')::int AS reactions,
     count(*) FILTER (WHERE value = '🔖')::int AS tag,
     count(*) FILTER (WHERE value = '⭐')::int AS star,
     count(*) FILTER (WHERE value = '🌉')::int AS bridge,
     count(*) FILTER (WHERE value = '❓')::int AS question
   FROM talk GROUP BY shared_portfolio_id
 )
 SELECT page.id, page.name, page.owner_email, a.submitters, coalesce(a.artifacts, 0) AS artifacts,
   coalesce(a.bonus_complete, 0) AS bonus_complete, coalesce(a.with_documents, 0) AS with_documents,
   coalesce(a.with_images, 0) AS with_images, coalesce(a.with_videos, 0) AS with_videos,
   coalesce(a.documents, 0) AS documents, coalesce(a.images, 0) AS images, coalesce(a.videos, 0) AS videos,
   t.discussants, coalesce(t.comments, 0) AS comments, coalesce(t.reactions, 0) AS reactions,
   coalesce(t.tag, 0) AS tag, coalesce(t.star, 0) AS star, coalesce(t.bridge, 0) AS bridge, coalesce(t.question, 0) AS question,
   page.owner_id, page.owner_username, a.submitter_ids, a.submitter_names, t.discussant_ids, t.discussant_names,
   coalesce(t.timed_comments, 0) AS timed_comments, coalesce(t.timed_reactions, 0) AS timed_reactions,
   ${ISO_SQL('page.created_at')} AS created, ${ISO_SQL('page.updated_at')} AS updated,
   (SELECT string_agg('Artifact ' || x.id || ' by ' || xu.username || ': ' || coalesce(${ANSWERS_TEXT('x')}, ''), E'\n' ORDER BY x.id)
      FROM shared_artifacts x JOIN users xu ON xu.id = x.owner_id WHERE x.shared_portfolio_id = page.id) AS responses,
   (SELECT string_agg('Comment ' || c.id || ' by ' || cu.username || ' (id ' || cu.id || ') at ' || ${ISO_SQL('c.created_at')}
        || CASE WHEN c.media_id IS NULL THEN ''
             ELSE ', video ' || c.media_id || ' ' || c.moment_start || CASE WHEN c.moment_end IS NULL THEN '' ELSE '–' || c.moment_end END || ' s' END
        || ': ' || c.text, E'\n' ORDER BY c.id)
      FROM comments c JOIN shared_artifacts x ON x.id = c.shared_artifact_id JOIN users cu ON cu.id = c.owner_id
      WHERE x.shared_portfolio_id = page.id) AS comment_texts,
   sc.scores, sc.timed_scores, sc.scored_artifacts, sc.scorers
 FROM page LEFT JOIN art_totals a ON a.shared_portfolio_id = page.id LEFT JOIN talk_totals t ON t.shared_portfolio_id = page.id
 LEFT JOIN LATERAL (
   SELECT count(*)::int AS scores, count(*) FILTER (WHERE s.media_id IS NOT NULL)::int AS timed_scores,
     count(DISTINCT s.shared_artifact_id)::int AS scored_artifacts, count(DISTINCT s.scorer_id)::int AS scorers
   FROM scores s JOIN shared_artifacts x ON x.id = s.shared_artifact_id WHERE x.shared_portfolio_id = page.id
 ) sc ON true
 ORDER BY page.id`;

/**
 * One row per personal portfolio of every teacher and PLC lead (researchers keep none), ordered by
 * portfolio; `signal` stops the reading between two statements.
 */
export function teacherSummaryRows(db: Queryable, signal?: AbortSignal): AsyncGenerator<TeacherSummaryRow> {
  return keysetRows(
    (after) =>
      db
        .query<TeacherSummaryRow>(TEACHER_SQL, [after, TEMPLATE_PORTFOLIO_ID, TEACHER_BATCH, ROLE_IDS.researcher])
        .then((r) => r.rows),
    byId<TeacherSummaryRow>(TEACHER_BATCH, signal),
  );
}

/** One row per shared portfolio, ordered by id; `signal` stops the reading between two statements. */
export function sharedSummaryRows(db: Queryable, signal?: AbortSignal): AsyncGenerator<SharedSummaryRow> {
  return keysetRows(
    (after) => db.query<SharedSummaryRow>(SHARED_SQL, [after, SHARED_BATCH]).then((r) => r.rows),
    byId<SharedSummaryRow>(SHARED_BATCH, signal),
  );
}
