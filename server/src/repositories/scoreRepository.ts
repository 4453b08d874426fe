import type { Score } from '#schemas/rubrics';
import type { Queryable } from '../db/client.ts';
import type { StoredMoment } from './momentRepository.ts';
import { iso } from './sql.ts';

/** A score with what policies need to decide on it. */
export type ScoreRecord = Omit<Score, 'abilities'> & {
  scorerId: number;
  sharedPortfolioId: number;
  artifactOwnerId: number;
};

interface ScoreRow {
  id: number;
  shared_artifact_id: number;
  shared_portfolio_id: number;
  artifact_owner_id: number;
  rubric_id: number;
  rubric_name: string;
  version: number;
  criterion_id: number;
  criterion_code: string;
  criterion_label: string;
  level_id: number;
  level_label: string;
  level_score: number;
  media_id: number | null;
  moment_start: number | null;
  moment_end: number | null;
  note: string;
  scorer_id: number;
  scorer_username: string;
  created_at: Date;
}

const SCORE_SELECT = `SELECT s.id, s.shared_artifact_id, sa.shared_portfolio_id, sa.owner_id AS artifact_owner_id,
  r.id AS rubric_id, r.name AS rubric_name, v.number AS version,
  c.id AS criterion_id, c.code AS criterion_code, c.label AS criterion_label,
  l.id AS level_id, l.label AS level_label, l.score AS level_score,
  s.media_id, s.moment_start, s.moment_end, s.note, s.scorer_id, u.username AS scorer_username, s.created_at
  FROM scores s
  JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
  JOIN rubric_versions v ON v.id = s.version_id
  JOIN rubrics r ON r.id = v.rubric_id
  JOIN rubric_criteria c ON c.id = s.criterion_id
  JOIN rubric_levels l ON l.id = s.level_id
  JOIN users u ON u.id = s.scorer_id`;

const toRecord = (r: ScoreRow): ScoreRecord => ({
  id: r.id,
  sharedArtifact: r.shared_artifact_id,
  rubric: { id: r.rubric_id, name: r.rubric_name, version: r.version },
  criterion: { id: r.criterion_id, code: r.criterion_code, label: r.criterion_label },
  level: { id: r.level_id, label: r.level_label, score: r.level_score },
  moment:
    r.media_id !== null && r.moment_start !== null
      ? { media: r.media_id, start: Number(r.moment_start), end: r.moment_end === null ? null : Number(r.moment_end) }
      : null,
  note: r.note,
  scorer: { id: r.scorer_id, username: r.scorer_username },
  created_at: iso(r.created_at),
  scorerId: r.scorer_id,
  sharedPortfolioId: r.shared_portfolio_id,
  artifactOwnerId: r.artifact_owner_id,
});

/** SQL for scores given with rubrics. */
export const scoreRepository = {
  /** The scores of a shared artifact, in the order of the video (whole-artifact scores first), then as given; only `scorerId`'s when given. */
  async list(db: Queryable, artifactId: number, scorerId: number | null): Promise<ScoreRecord[]> {
    const { rows } = await db.query<ScoreRow>(
      `${SCORE_SELECT} WHERE s.shared_artifact_id = $1 AND ($2::int IS NULL OR s.scorer_id = $2)
       ORDER BY s.media_id NULLS FIRST, s.moment_start NULLS FIRST, s.id`,
      [artifactId, scorerId],
    );
    return rows.map(toRecord);
  },

  /** One score, or `null`. */
  async find(db: Queryable, id: number): Promise<ScoreRecord | null> {
    const { rows } = await db.query<ScoreRow>(`${SCORE_SELECT} WHERE s.id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** How many scores one person gave one shared artifact. */
  async countBy(db: Queryable, artifactId: number, scorerId: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scores WHERE shared_artifact_id = $1 AND scorer_id = $2',
      [artifactId, scorerId],
    );
    return rows[0]!.n;
  },

  /** Waits for, then holds until the transaction ends, the right to add one person's scores to one artifact. */
  async lockScorer(db: Queryable, artifactId: number, scorerId: number): Promise<void> {
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`scores:${artifactId}:${scorerId}`]);
  },

  /** Stores a score; its id. */
  async add(
    db: Queryable,
    input: {
      artifactId: number;
      versionId: number;
      criterionId: number;
      levelId: number;
      moment: StoredMoment | null;
      note: string;
      scorerId: number;
    },
  ): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO scores (shared_artifact_id, version_id, criterion_id, level_id, media_id, moment_start, moment_end, note, scorer_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        input.artifactId,
        input.versionId,
        input.criterionId,
        input.levelId,
        input.moment?.mediaId ?? null,
        input.moment?.start ?? null,
        input.moment?.end ?? null,
        input.note,
        input.scorerId,
      ],
    );
    return rows[0]!.id;
  },

  /** Deletes a score. */
  async delete(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM scores WHERE id = $1', [id]);
  },
};
