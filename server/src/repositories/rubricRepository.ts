import type { RubricCriterion, RubricCriterionInput, RubricUsage } from '#schemas/rubrics';
import type { Queryable } from '../db/client.ts';
import { access } from './access.ts';
import { iso, json } from './sql.ts';

/** A rubric with its current version (what services and policies need). */
export interface RubricRecord {
  id: number;
  sharedPortfolioId: number | null;
  name: string;
  description: string;
  versionId: number;
  version: number;
  /** Whether scores use the current version. */
  used: boolean;
  createdAt: string;
  updatedAt: string;
}

interface RubricRow {
  id: number;
  shared_portfolio_id: number | null;
  name: string;
  description: string;
  version_id: number;
  version: number;
  used: boolean;
  created_at: Date;
  updated_at: Date;
}

const RUBRIC_SELECT = `SELECT r.id, r.shared_portfolio_id, r.name, r.description, r.created_at, r.updated_at,
  v.id AS version_id, v.number AS version, EXISTS (SELECT 1 FROM scores s WHERE s.version_id = v.id) AS used
  FROM rubrics r
  JOIN LATERAL (SELECT rv.id, rv.number FROM rubric_versions rv WHERE rv.rubric_id = r.id ORDER BY rv.number DESC LIMIT 1) v ON true`;

const toRecord = (r: RubricRow): RubricRecord => ({
  id: r.id,
  sharedPortfolioId: r.shared_portfolio_id,
  name: r.name,
  description: r.description,
  versionId: r.version_id,
  version: r.version,
  used: r.used,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** A criterion's levels in a `jsonb` parameter, as the insert below reads them. */
const criteriaJson = (criteria: readonly RubricCriterionInput[]) =>
  json(
    criteria.map((c) => ({
      code: c.code ?? '',
      label: c.label,
      description: c.description ?? '',
      levels: c.levels.map((l) => ({ label: l.label, description: l.description ?? '', score: l.score })),
    })),
  );

/** SQL for rubrics, their versions, criteria and levels, and a shared portfolio's chosen rubric. */
export const rubricRepository = {
  /**
   * One rubric with its current version, or `null`. `lock`: `share` while scoring with it (so
   * its version cannot change underneath), `update` while editing it.
   */
  async findById(db: Queryable, id: number, lock?: 'share' | 'update'): Promise<RubricRecord | null> {
    if (lock) await db.query(`SELECT 1 FROM rubrics WHERE id = $1 FOR ${lock === 'share' ? 'SHARE' : 'UPDATE'}`, [id]);
    const { rows } = await db.query<RubricRow>(`${RUBRIC_SELECT} WHERE r.id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /**
   * What uses each rubric: the scores given with any of its versions and the shared portfolios
   * that score with it (by name). One statement whatever the number of rubrics.
   */
  async usageOf(db: Queryable, ids: readonly number[]): Promise<Map<number, RubricUsage>> {
    const { rows } = await db.query<{ id: number; scores: number; portfolios: RubricUsage['portfolios'] }>(
      `SELECT r.id,
         (SELECT count(*)::int FROM scores s JOIN rubric_versions v ON v.id = s.version_id WHERE v.rubric_id = r.id) AS scores,
         COALESCE((SELECT jsonb_agg(jsonb_build_object('id', sp.id, 'name', sp.name) ORDER BY sp.name, sp.id)
           FROM shared_portfolio_rubrics c JOIN shared_portfolios sp ON sp.id = c.shared_portfolio_id
           WHERE c.rubric_id = r.id), '[]'::jsonb) AS portfolios
       FROM unnest($1::int[]) AS r(id)`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, { scores: r.scores, portfolios: r.portfolios }]));
  },

  /** Deletes a rubric with its versions, criteria and levels (the caller checked that nothing uses it). */
  async delete(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM rubrics WHERE id = $1', [id]);
  },

  /**
   * Rubrics a person sees in lists: installation-wide ones, and those of the shared portfolios
   * they are a member of (`memberId`), or of every portfolio (`memberId` null: researchers);
   * only installation-wide ones and those of `sharedPortfolioId` when it is given; only
   * installation-wide ones when `installationOnly`.
   */
  async list(
    db: Queryable,
    memberId: number | null,
    sharedPortfolioId: number | null,
    installationOnly = false,
  ): Promise<RubricRecord[]> {
    const { rows } = await db.query<RubricRow>(
      `${RUBRIC_SELECT}
       WHERE (r.shared_portfolio_id IS NULL OR (NOT $3::boolean AND (($2::int IS NULL AND ${access.memberFilter('r.shared_portfolio_id', '$1')})
              OR r.shared_portfolio_id = $2)))
       ORDER BY r.shared_portfolio_id NULLS FIRST, r.name, r.id`,
      [memberId, sharedPortfolioId, installationOnly],
    );
    return rows.map(toRecord);
  },

  /** The criteria with their levels of each version, in order. */
  async criteriaOf(db: Queryable, versionIds: readonly number[]): Promise<Map<number, RubricCriterion[]>> {
    const { rows } = await db.query<{ version_id: number; criteria: RubricCriterion[] }>(
      `SELECT c.version_id, jsonb_agg(jsonb_build_object('id', c.id, 'code', c.code, 'label', c.label,
         'description', c.description, 'levels', (
           SELECT jsonb_agg(jsonb_build_object('id', l.id, 'label', l.label, 'description', l.description, 'score', l.score)
             ORDER BY l.position) FROM rubric_levels l WHERE l.criterion_id = c.id)) ORDER BY c.position) AS criteria
       FROM rubric_criteria c WHERE c.version_id = ANY($1::int[]) GROUP BY c.version_id`,
      [versionIds],
    );
    return new Map(rows.map((r) => [r.version_id, r.criteria]));
  },

  /** How many rubrics a shared portfolio has (`null`: installation-wide ones). */
  async countInScope(db: Queryable, sharedPortfolioId: number | null): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM rubrics WHERE shared_portfolio_id IS NOT DISTINCT FROM $1',
      [sharedPortfolioId],
    );
    return rows[0]!.n;
  },

  /** Waits for, then holds until the transaction ends, the right to add rubrics to a scope (`null`: the installation). */
  async lockScope(db: Queryable, sharedPortfolioId: number | null): Promise<void> {
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rubrics:${sharedPortfolioId ?? 'installation'}`]);
  },

  /** Makes a rubric with version 1 holding `criteria`; its id. */
  async create(
    db: Queryable,
    input: { sharedPortfolioId: number | null; name: string; description: string; createdBy: number },
    criteria: readonly RubricCriterionInput[],
  ): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO rubrics (shared_portfolio_id, name, description, created_by) VALUES ($1, $2, $3, $4) RETURNING id`,
      [input.sharedPortfolioId, input.name, input.description, input.createdBy],
    );
    const id = rows[0]!.id;
    await this.addVersion(db, id, 1, input.createdBy, criteria);
    return id;
  },

  /** Adds version `number` of a rubric holding `criteria`. */
  async addVersion(
    db: Queryable,
    rubricId: number,
    number: number,
    createdBy: number,
    criteria: readonly RubricCriterionInput[],
  ): Promise<void> {
    const { rows } = await db.query<{ id: number }>(
      'INSERT INTO rubric_versions (rubric_id, number, created_by) VALUES ($1, $2, $3) RETURNING id',
      [rubricId, number, createdBy],
    );
    await this.insertCriteria(db, rows[0]!.id, criteria);
  },

  /** Replaces the criteria of a version no score uses. */
  async replaceCriteria(db: Queryable, versionId: number, criteria: readonly RubricCriterionInput[]): Promise<void> {
    await db.query('DELETE FROM rubric_criteria WHERE version_id = $1', [versionId]);
    await this.insertCriteria(db, versionId, criteria);
  },

  /** Two statements whatever the number of criteria and levels. */
  async insertCriteria(db: Queryable, versionId: number, criteria: readonly RubricCriterionInput[]): Promise<void> {
    const data = criteriaJson(criteria);
    await db.query(
      `INSERT INTO rubric_criteria (version_id, position, code, label, description)
       SELECT $1, x.ord - 1, x.c->>'code', x.c->>'label', x.c->>'description'
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(c, ord)`,
      [versionId, data],
    );
    await db.query(
      `INSERT INTO rubric_levels (criterion_id, position, label, description, score)
       SELECT rc.id, l.ord - 1, l.v->>'label', l.v->>'description', (l.v->>'score')::int
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(c, ord)
       JOIN rubric_criteria rc ON rc.version_id = $1 AND rc.position = x.ord - 1
       CROSS JOIN LATERAL jsonb_array_elements(x.c->'levels') WITH ORDINALITY AS l(v, ord)`,
      [versionId, data],
    );
  },

  /** Changes a rubric's name and description. */
  async updateDetails(db: Queryable, id: number, name: string, description: string): Promise<void> {
    await db.query(
      'UPDATE rubrics SET name = $2, description = $3, updated_at = next_stamp(updated_at) WHERE id = $1',
      [id, name, description],
    );
  },

  /** The rubric a shared portfolio scores with, or `null`. */
  async chosenFor(db: Queryable, sharedPortfolioId: number): Promise<number | null> {
    const { rows } = await db.query<{ rubric_id: number }>(
      'SELECT rubric_id FROM shared_portfolio_rubrics WHERE shared_portfolio_id = $1',
      [sharedPortfolioId],
    );
    return rows[0]?.rubric_id ?? null;
  },

  /** Chooses the rubric a shared portfolio scores with (`null`: none). */
  async choose(db: Queryable, sharedPortfolioId: number, rubricId: number | null): Promise<void> {
    if (rubricId === null) {
      await db.query('DELETE FROM shared_portfolio_rubrics WHERE shared_portfolio_id = $1', [sharedPortfolioId]);
      return;
    }
    await db.query(
      `INSERT INTO shared_portfolio_rubrics (shared_portfolio_id, rubric_id) VALUES ($1, $2)
       ON CONFLICT (shared_portfolio_id) DO UPDATE SET rubric_id = EXCLUDED.rubric_id`,
      [sharedPortfolioId, rubricId],
    );
  },

  /** Whether `criterionId` is a criterion of version `versionId`, and `levelId` one of its levels. */
  async placeOf(
    db: Queryable,
    versionId: number,
    criterionId: number,
    levelId: number,
  ): Promise<{ criterion: boolean; level: boolean }> {
    const { rows } = await db.query<{ criterion: boolean; level: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM rubric_criteria WHERE id = $2 AND version_id = $1) AS criterion,
              EXISTS (SELECT 1 FROM rubric_levels WHERE id = $3 AND criterion_id = $2) AS level`,
      [versionId, criterionId, levelId],
    );
    return rows[0]!;
  },
};
