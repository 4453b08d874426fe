import {
  INSIGHTS_PORTFOLIOS_MAX,
  type ActivityWeek,
  type Agreement,
  type InsightCriterion,
  type LevelDistribution,
  type PortfolioDiscussion,
} from '#schemas/insights';
import type { Queryable } from '../db/client.ts';

/**
 * The aggregates behind the charts (decision 057), one statement each. Every statement takes the
 * same scope: `$1` one shared portfolio (or null), `$2` the owner whose portfolios count (null:
 * every portfolio, for researchers), `$3`/`$4` the first and last UTC day (inclusive, or null).
 */
export interface InsightsScope {
  sharedPortfolioId: number | null;
  ownerId: number | null;
  from: string | null;
  to: string | null;
}

const params = (s: InsightsScope) => [s.sharedPortfolioId, s.ownerId, s.from, s.to];

/** The shared portfolios in scope. */
const PORTFOLIOS = `SELECT id, name FROM shared_portfolios
  WHERE ($1::int IS NULL OR id = $1) AND ($2::int IS NULL OR owner_id = $2)`;
/** Whether `created_at` of table alias `t` lies in the range of days. */
const inRange = (t: string) => `($3::date IS NULL OR ${t}.created_at >= ($3::date::timestamp AT TIME ZONE 'UTC'))
  AND ($4::date IS NULL OR ${t}.created_at < (($4::date + 1)::timestamp AT TIME ZONE 'UTC'))`;
/** The scores in scope. */
const SCOPED_SCORES = `SELECT s.* FROM scores s
  JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
  WHERE sa.shared_portfolio_id IN (SELECT id FROM scope) AND ${inRange('s')}`;

const CRITERION_COLUMNS = `c.id AS criterion_id, c.code, c.label, r.name AS rubric, v.number AS version`;
const CRITERION_JOINS = `JOIN rubric_versions v ON v.id = c.version_id JOIN rubrics r ON r.id = v.rubric_id`;

interface CriterionRow {
  criterion_id: number;
  code: string;
  label: string;
  rubric: string;
  version: number;
}
const criterionOf = (r: CriterionRow): InsightCriterion => ({
  id: r.criterion_id,
  code: r.code,
  label: r.label,
  rubric: r.rubric,
  version: r.version,
});

export const insightsRepository = {
  /** The shared portfolios the caller may chart (a lead's own; all for researchers), by name. */
  async portfolios(db: Queryable, ownerId: number | null): Promise<{ id: number; name: string }[]> {
    const { rows } = await db.query<{ id: number; name: string }>(
      `SELECT id, name FROM shared_portfolios WHERE $1::int IS NULL OR owner_id = $1 ORDER BY lower(name), id`,
      [ownerId],
    );
    return rows;
  },

  /**
   * Per week (Mondays, UTC) from the first to the last week with anything: shared artifacts
   * added, comments, reactions and scores; weeks without any are there with zeros.
   */
  async activity(db: Queryable, scope: InsightsScope): Promise<ActivityWeek[]> {
    const { rows } = await db.query<ActivityWeek & { week: string }>(
      `WITH scope AS (${PORTFOLIOS}),
      artifacts AS (SELECT sa.id, sa.created_at FROM shared_artifacts sa
        WHERE sa.shared_portfolio_id IN (SELECT id FROM scope) AND ${inRange('sa')}),
      events AS (
        SELECT 'artifacts' AS kind, a.created_at FROM artifacts a
        UNION ALL SELECT 'comments', c.created_at FROM comments c
          WHERE c.shared_artifact_id IN (SELECT id FROM shared_artifacts WHERE shared_portfolio_id IN (SELECT id FROM scope))
          AND ${inRange('c')}
        UNION ALL SELECT 'reactions', x.created_at FROM reactions x
          WHERE x.shared_artifact_id IN (SELECT id FROM shared_artifacts WHERE shared_portfolio_id IN (SELECT id FROM scope))
          AND ${inRange('x')}
        UNION ALL SELECT 'scores', s.created_at FROM (${SCOPED_SCORES}) s),
      weekly AS (SELECT date_trunc('week', created_at AT TIME ZONE 'UTC')::date AS week, kind, count(*)::int AS n
        FROM events GROUP BY 1, 2),
      weeks AS (SELECT generate_series(min(week), max(week), interval '1 week')::date AS week FROM weekly)
      SELECT to_char(w.week, 'YYYY-MM-DD') AS week,
        coalesce(sum(n) FILTER (WHERE kind = 'artifacts'), 0)::int AS artifacts,
        coalesce(sum(n) FILTER (WHERE kind = 'comments'), 0)::int AS comments,
        coalesce(sum(n) FILTER (WHERE kind = 'reactions'), 0)::int AS reactions,
        coalesce(sum(n) FILTER (WHERE kind = 'scores'), 0)::int AS scores
      FROM weeks w LEFT JOIN weekly USING (week) GROUP BY w.week ORDER BY w.week`,
      params(scope),
    );
    return rows;
  },

  /**
   * The most discussed shared portfolios in scope (comments and reactions, then name), with their
   * shared artifacts, and how many more portfolios the scope holds.
   */
  async discussion(db: Queryable, scope: InsightsScope): Promise<{ items: PortfolioDiscussion[]; more: number }> {
    const { rows } = await db.query<PortfolioDiscussion & { total: number }>(
      `WITH scope AS (${PORTFOLIOS}),
      counted AS (SELECT p.id, p.name,
        (SELECT count(*) FROM shared_artifacts sa WHERE sa.shared_portfolio_id = p.id AND ${inRange('sa')})::int AS artifacts,
        (SELECT count(*) FROM comments c JOIN shared_artifacts sa ON sa.id = c.shared_artifact_id
          WHERE sa.shared_portfolio_id = p.id AND ${inRange('c')})::int AS comments,
        (SELECT count(*) FROM reactions x JOIN shared_artifacts sa ON sa.id = x.shared_artifact_id
          WHERE sa.shared_portfolio_id = p.id AND ${inRange('x')})::int AS reactions
        FROM scope p)
      SELECT *, count(*) OVER ()::int AS total FROM counted
      ORDER BY comments + reactions DESC, lower(name), id LIMIT ${INSIGHTS_PORTFOLIOS_MAX}`,
      params(scope),
    );
    const items = rows.map(({ total: _t, ...item }) => item);
    return { items, more: Math.max(0, (rows[0]?.total ?? 0) - rows.length) };
  },

  /** For each criterion scored in scope, how often each of its levels was given (unused levels 0). */
  async levels(db: Queryable, scope: InsightsScope): Promise<LevelDistribution[]> {
    const { rows } = await db.query<
      CriterionRow & { level_id: number; level_label: string; score: number; count: number }
    >(
      `WITH scope AS (${PORTFOLIOS}), scoped AS (${SCOPED_SCORES}),
      used AS (SELECT DISTINCT criterion_id FROM scoped)
      SELECT ${CRITERION_COLUMNS}, l.id AS level_id, l.label AS level_label, l.score,
        (SELECT count(*) FROM scoped s WHERE s.level_id = l.id)::int AS count
      FROM used u JOIN rubric_criteria c ON c.id = u.criterion_id ${CRITERION_JOINS}
      JOIN rubric_levels l ON l.criterion_id = c.id
      ORDER BY lower(r.name), r.id, v.number, c.position, l.position`,
      params(scope),
    );
    const byCriterion = new Map<number, LevelDistribution>();
    for (const row of rows) {
      let entry = byCriterion.get(row.criterion_id);
      if (!entry) {
        entry = { criterion: criterionOf(row), levels: [] };
        byCriterion.set(row.criterion_id, entry);
      }
      entry.levels.push({ id: row.level_id, label: row.level_label, score: row.score, count: row.count });
    }
    return [...byCriterion.values()];
  },

  /**
   * Cohen's kappa per criterion, all in SQL. A unit is a moment (the same video file and start)
   * or, for whole-artifact scores, the shared artifact; each scorer counts with her latest score
   * on it. Every two scorers of one unit make a pair, the one with the lower id as rater A; the
   * unit's parts are compared as values, -1 standing for none (never an id or a start), so that
   * the pairs are found by a hash join (`IS NOT DISTINCT FROM` compared every two scores of a
   * criterion: 21 s for the 40,000 scores of the large bench data set, decision 062).
   * Observed agreement p_o is the share of pairs on the same level; expected agreement
   * p_e = Σ_level (A's pairs on it / n) × (B's pairs on it / n); kappa = (p_o − p_e) / (1 − p_e).
   */
  async agreement(db: Queryable, scope: InsightsScope): Promise<Agreement[]> {
    const { rows } = await db.query<CriterionRow & { pairs: number; observed: number; expected: number }>(
      `WITH scope AS (${PORTFOLIOS}), scoped AS (${SCOPED_SCORES}),
      latest AS (
        SELECT DISTINCT ON (criterion_id, media_id, moment_start, whole, scorer_id)
          criterion_id, media_id, moment_start, whole, scorer_id, level_id
        FROM (SELECT *, CASE WHEN media_id IS NULL THEN shared_artifact_id END AS whole FROM scoped) s
        ORDER BY criterion_id, media_id, moment_start, whole, scorer_id, created_at DESC, id DESC),
      pairs AS (
        SELECT a.criterion_id, a.level_id AS level_a, b.level_id AS level_b
        FROM latest a JOIN latest b ON b.criterion_id = a.criterion_id AND a.scorer_id < b.scorer_id
          AND coalesce(a.media_id, -1) = coalesce(b.media_id, -1)
          AND coalesce(a.moment_start, -1) = coalesce(b.moment_start, -1)
          AND coalesce(a.whole, -1) = coalesce(b.whole, -1)),
      totals AS (
        SELECT criterion_id, count(*)::int AS pairs, avg((level_a = level_b)::int)::float8 AS observed
        FROM pairs GROUP BY criterion_id),
      marginals AS (
        SELECT criterion_id, level, count(*) FILTER (WHERE rater = 'a') AS n_a, count(*) FILTER (WHERE rater = 'b') AS n_b
        FROM (SELECT criterion_id, level_a AS level, 'a' AS rater FROM pairs
              UNION ALL SELECT criterion_id, level_b, 'b' FROM pairs) m
        GROUP BY criterion_id, level),
      chance AS (
        SELECT m.criterion_id, sum(m.n_a * m.n_b)::float8 / (t.pairs::float8 * t.pairs) AS expected
        FROM marginals m JOIN totals t USING (criterion_id) GROUP BY m.criterion_id, t.pairs)
      SELECT ${CRITERION_COLUMNS}, t.pairs, t.observed, ch.expected
      FROM totals t JOIN chance ch USING (criterion_id)
      JOIN rubric_criteria c ON c.id = t.criterion_id ${CRITERION_JOINS}
      ORDER BY lower(r.name), r.id, v.number, c.position`,
      params(scope),
    );
    return rows.map((r) => ({
      criterion: criterionOf(r),
      pairs: r.pairs,
      observed: r.observed,
      expected: r.expected,
      kappa: cohensKappa(r.observed, r.expected),
    }));
  },
};

/**
 * Cohen's kappa from observed and expected agreement, rounded to 4 places: null when chance
 * alone predicts full agreement (both raters gave one and the same level every time).
 */
export function cohensKappa(observed: number, expected: number): number | null {
  if (expected >= 1 - 1e-12) return null;
  return Math.round(((observed - expected) / (1 - expected)) * 10_000) / 10_000;
}
