import { COVERAGE_COLUMNS, type CoverageArtifact, type CoverageRow, type LevelReached } from '#schemas/coverage';
import type { Queryable } from '../db/client.ts';
import { iso } from './sql.ts';

/**
 * Where a map's rows and their artifacts come from (decision 056):
 * - `personalByOwner`: one row per teacher, her personal artifacts; levels from the scores on her shared artifacts;
 * - `personalByPortfolio`: one row per personal portfolio of one teacher; levels from the scores on
 *   the shared copies of its artifacts;
 * - `sharedByOwner`: one row per member of one shared portfolio, her shared artifacts in it;
 * - `sharedByPortfolio`: one row per shared portfolio, its shared artifacts.
 */
export type CoverageSource = 'personalByOwner' | 'personalByPortfolio' | 'sharedByOwner' | 'sharedByPortfolio';

/** What a map covers: the source, and the teacher or shared portfolio it is limited to (`null`: all). */
export interface CoverageFilter {
  source: CoverageSource;
  teacherId: number | null;
  sharedPortfolioId: number | null;
  /** Scores the caller may see: `null` all of them, else those she gave or that are on her own work. */
  viewerId: number | null;
}

/**
 * The bit of each code in `standard_bits` (migration 0033): bit i is the i-th code, the map's
 * columns in order (practices, crosscutting concepts, core ideas).
 */
export const STANDARD_BITS: readonly string[] = [
  ...COVERAGE_COLUMNS.practices,
  ...COVERAGE_COLUMNS.crosscutting,
  ...COVERAGE_COLUMNS.coreIdeas,
].map((c) => c.key);

/** The statement's parameters: $1 the columns' codes, $2 teacher, $3 shared portfolio, $4 viewer. */
interface Parts {
  rows: string;
  /**
   * The artifacts counted first, per `key` (a portfolio, or a shared portfolio's member): `FROM …
   * WHERE …` over `a`, the key, and whether `a` is the personal portfolios' counts
   * (`portfolio_tag_counts`, kept by triggers: migration 0033) or the shared artifacts themselves
   * (their bits, from a covering index in the key's order).
   */
  artifacts: { key: string; from: string; counted: boolean };
  /** From those groups (`g`) to the map's rows: the row's id and `FROM g …`. */
  rollup: { row: string; from: string };
  /**
   * The scores from their counts per owner, shared portfolio, criterion and level
   * (`score_level_counts`, kept by triggers: migration 0033) when the caller sees them all: the
   * row's key and the condition over `c`; `null` to group the scores themselves.
   */
  counted: { key: string; where: string } | null;
  scoreKey: string;
  scoreFrom: string;
  scoreWhere: string;
}

const TEACHERS = `SELECT u.id, u.username AS name FROM users u WHERE u.role_id <> 4 AND ($2::int IS NULL OR u.id = $2)`;
const PERSONAL = {
  key: 'a.portfolio_id',
  from: `FROM portfolio_tag_counts a
    WHERE ($2::int IS NULL OR a.portfolio_id = ANY (ARRAY(SELECT p.id FROM portfolios p WHERE p.owner_id = $2)))`,
  counted: true,
};
const BY_PORTFOLIO_OWNER = `FROM g JOIN portfolios p ON p.id = g.key WHERE p.owner_id IS NOT NULL AND ($2::int IS NULL OR p.owner_id = $2)`;
const SHARED = `FROM shared_artifacts a WHERE ($3::int IS NULL OR a.shared_portfolio_id = $3)`;
const SCORED_SHARED = 'FROM scores s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id';

const PARTS: Record<CoverageSource, Parts> = {
  personalByOwner: {
    rows: TEACHERS,
    artifacts: PERSONAL,
    rollup: { row: 'p.owner_id', from: BY_PORTFOLIO_OWNER },
    counted: { key: 'c.owner_id', where: '($2::int IS NULL OR c.owner_id = $2)' },
    scoreKey: 'sa.owner_id',
    scoreFrom: SCORED_SHARED,
    scoreWhere: '($2::int IS NULL OR sa.owner_id = $2)',
  },
  personalByPortfolio: {
    rows: `SELECT p.id, p.name FROM portfolios p WHERE p.owner_id = $2`,
    artifacts: PERSONAL,
    rollup: { row: 'p.id', from: BY_PORTFOLIO_OWNER },
    counted: null,
    scoreKey: 'src.portfolio_id',
    scoreFrom: `${SCORED_SHARED} JOIN artifacts src ON src.id = sa.source_artifact_id JOIN portfolios sp ON sp.id = src.portfolio_id`,
    scoreWhere: 'sa.owner_id = $2 AND sp.owner_id = $2',
  },
  sharedByOwner: {
    rows: `SELECT u.id, u.username AS name FROM users u
           WHERE u.id IN (SELECT user_id FROM shared_portfolio_members WHERE shared_portfolio_id = $3
                          UNION SELECT owner_id FROM shared_artifacts WHERE shared_portfolio_id = $3)`,
    artifacts: { key: 'a.owner_id', from: SHARED, counted: false },
    rollup: { row: 'g.key', from: 'FROM g' },
    counted: { key: 'c.owner_id', where: 'c.shared_portfolio_id = $3' },
    scoreKey: 'sa.owner_id',
    scoreFrom: SCORED_SHARED,
    scoreWhere: 'sa.shared_portfolio_id = $3',
  },
  sharedByPortfolio: {
    rows: `SELECT sp.id, sp.name FROM shared_portfolios sp WHERE ($3::int IS NULL OR sp.id = $3)`,
    artifacts: { key: 'a.shared_portfolio_id', from: SHARED, counted: false },
    rollup: { row: 'g.key', from: 'FROM g' },
    counted: { key: 'c.shared_portfolio_id', where: '($3::int IS NULL OR c.shared_portfolio_id = $3)' },
    scoreKey: 'sa.shared_portfolio_id',
    scoreFrom: SCORED_SHARED,
    scoreWhere: '($3::int IS NULL OR sa.shared_portfolio_id = $3)',
  },
};

/** The bit of a column's code in `standard_bits` (from 0). */
function bitOf(code: string): number {
  const bit = STANDARD_BITS.indexOf(code);
  if (bit < 0) throw new Error(`${code} is not a coverage column`);
  return bit;
}

/** Scores per row, criterion and level, from their counts or (`viewer`: some of them) one by one. */
function perLevel(parts: Parts, limited: boolean): string {
  if (parts.counted && !limited)
    return `SELECT ${parts.counted.key} AS row_id, c.criterion_id, c.level_id, sum(c.n)::int AS n
    FROM score_level_counts c
    WHERE c.criterion_id IN (SELECT id FROM crit) AND ${parts.counted.where}
    GROUP BY 1, 2, 3`;
  return `SELECT ${parts.scoreKey} AS row_id, s.criterion_id, s.level_id, count(*)::int AS n
    ${parts.scoreFrom}
    WHERE s.criterion_id IN (SELECT id FROM crit) AND ${parts.scoreWhere}
      AND ($4::int IS NULL OR s.scorer_id = $4 OR sa.owner_id = $4)
    GROUP BY 1, 2, 3`;
}

/**
 * The whole map in one statement. Personal artifacts are read from their counts per portfolio
 * (one row each), shared ones from a covering index of each one's codes as bits
 * (`standard_bits`, generated from its tags: migration 0033) and counted per shared portfolio or
 * member; then summed per row: one count per column of the artifacts whose bits hold the
 * column's. Scores count for a column when their criterion's code is the column's (`SEP2`) or
 * one of its items (`PS2.A`): per row, each criterion's levels with their number of scores, as
 * parallel arrays (`cellsOf` turns them into the columns' counts and highest levels).
 */
function mapStatement(parts: Parts, columns: readonly string[], limited: boolean): string {
  // The masks and indexes are numbers computed here from the fixed list of codes, never from the request.
  const { counted } = parts.artifacts;
  const counts = columns
    .map((code, i) =>
      counted
        ? `sum(a.tagged[${bitOf(code) + 1}]) AS c${i}`
        : `count(*) FILTER (WHERE a.standard_bits & ${1 << bitOf(code)} <> 0) AS c${i}`,
    )
    .join(', ');
  const sums = columns.map((_, i) => `sum(g.c${i})::int`).join(', ');
  return `WITH params AS (SELECT $2::int AS teacher, $3::int AS shared, $4::int AS viewer),
  r AS (${parts.rows}),
  g AS (
    SELECT ${parts.artifacts.key} AS key, ${counted ? 'sum(a.n)' : 'count(*)'} AS n, ${counts}
    ${parts.artifacts.from}
    GROUP BY 1),
  tagged AS (
    SELECT ${parts.rollup.row} AS row_id, sum(g.n)::int AS n, ARRAY[${sums}] AS tagged
    ${parts.rollup.from}
    GROUP BY 1),
  crit AS MATERIALIZED (
    SELECT c.id, cols.i::int AS col, (SELECT count(*) FROM rubric_levels ll WHERE ll.criterion_id = c.id)::int AS of
    FROM rubric_criteria c JOIN unnest($1::text[]) WITH ORDINALITY AS cols (key, i)
      ON upper(c.code) = cols.key OR upper(c.code) LIKE cols.key || '.%'),
  per_level AS (${perLevel(parts, limited)}),
  scored AS (
    SELECT p.row_id, array_agg(crit.col) AS cols, array_agg(p.n) AS ns, array_agg(l.position) AS positions,
           array_agg(crit.of) AS ofs, array_agg(l.label) AS labels
    FROM per_level p JOIN crit ON crit.id = p.criterion_id JOIN rubric_levels l ON l.id = p.level_id
    GROUP BY p.row_id)
  SELECT r.id, r.name, coalesce(tagged.n, 0) AS artifacts, tagged.tagged,
         scored.cols, scored.ns, scored.positions, scored.ofs, scored.labels
  FROM r LEFT JOIN tagged ON tagged.row_id = r.id LEFT JOIN scored ON scored.row_id = r.id
  ORDER BY lower(r.name), r.id`;
}

interface MapRow {
  id: number;
  name: string;
  artifacts: number;
  tagged: number[] | null;
  /** Per criterion and level scored: its column (from 1), scores, level's position (from 0), the criterion's levels, label. */
  cols: number[] | null;
  ns: number[] | null;
  positions: number[] | null;
  ofs: number[] | null;
  labels: string[] | null;
}

/**
 * Per column: the scores, and the highest level among them relative to its criterion's levels
 * (level 3 of 4 is higher than level 2 of 3; at the same height the higher level, then the label
 * first in order).
 */
function cellsOf(r: MapRow, columns: number): Pick<CoverageRow, 'scores' | 'best'> {
  const scores = Array.from({ length: columns }, () => 0);
  const best: (LevelReached | null)[] = Array.from({ length: columns }, () => null);
  const height = (level: LevelReached) => (level.rank - 1) / Math.max(level.of - 1, 1);
  const cols = r.cols ?? [];
  for (let k = 0; k < cols.length; k += 1) {
    const col = cols[k]! - 1;
    scores[col] = scores[col]! + r.ns![k]!;
    const level = { label: r.labels![k]!, rank: r.positions![k]! + 1, of: r.ofs![k]! };
    const current = best[col];
    const higher =
      !current ||
      height(level) > height(current) ||
      (height(level) === height(current) &&
        (level.rank > current.rank || (level.rank === current.rank && level.label < current.label)));
    if (higher) best[col] = level;
  }
  return { scores, best };
}

const ROW_KIND: Record<CoverageSource, CoverageRow['kind']> = {
  personalByOwner: 'teacher',
  personalByPortfolio: 'portfolio',
  sharedByOwner: 'teacher',
  sharedByPortfolio: 'shared',
};

/** The artifacts behind one cell: $1 the column's code, $2 row, $3 teacher, $4 shared portfolio, $5 limit, $6 offset. */
const CELL_SOURCES: Record<CoverageSource, string> = {
  personalByOwner: `SELECT 'artifact' AS kind, a.id, a.responses, a.standard_codes, a.updated_at, p.id AS portfolio_id, p.name AS portfolio_name, p.owner_id
    FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE p.owner_id = $2 AND ($3::int IS NULL OR p.owner_id = $3)`,
  personalByPortfolio: `SELECT 'artifact' AS kind, a.id, a.responses, a.standard_codes, a.updated_at, p.id AS portfolio_id, p.name AS portfolio_name, p.owner_id
    FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE p.id = $2 AND p.owner_id = $3`,
  sharedByOwner: `SELECT 'shared' AS kind, a.id, a.responses, a.standard_codes, a.updated_at, sp.id AS portfolio_id, sp.name AS portfolio_name, a.owner_id
    FROM shared_artifacts a JOIN shared_portfolios sp ON sp.id = a.shared_portfolio_id WHERE a.owner_id = $2 AND sp.id = $4`,
  sharedByPortfolio: `SELECT 'shared' AS kind, a.id, a.responses, a.standard_codes, a.updated_at, sp.id AS portfolio_id, sp.name AS portfolio_name, a.owner_id
    FROM shared_artifacts a JOIN shared_portfolios sp ON sp.id = a.shared_portfolio_id WHERE sp.id = $2 AND ($4::int IS NULL OR sp.id = $4)`,
};

interface CellRow {
  total: number;
  items: {
    kind: 'artifact' | 'shared';
    id: number;
    title: string | null;
    portfolio_id: number;
    portfolio_name: string;
    owner_id: number;
    owner_username: string;
    updated_at: string;
  }[];
}

export const coverageRepository = {
  /** Every row of the map with its counts per column (`columns`: their codes, in order), in one statement. */
  async map(db: Queryable, filter: CoverageFilter, columns: readonly string[]): Promise<CoverageRow[]> {
    const { rows } = await db.query<MapRow>(mapStatement(PARTS[filter.source], columns, filter.viewerId !== null), [
      columns,
      filter.teacherId,
      filter.sharedPortfolioId,
      filter.viewerId,
    ]);
    return rows.map((r) => ({
      id: r.id,
      kind: ROW_KIND[filter.source],
      name: r.name,
      artifacts: r.artifacts,
      tagged: r.tagged ?? columns.map(() => 0),
      ...cellsOf(r, columns.length),
    }));
  },

  /** One page of the artifacts of `row` tagged with `column`'s code, newest change first, and how many there are. */
  async cell(
    db: Queryable,
    filter: CoverageFilter,
    row: number,
    column: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: CoverageArtifact[]; total: number }> {
    const { rows } = await db.query<CellRow>(
      `WITH params AS (SELECT $3::int AS teacher, $4::int AS shared),
       m AS (
         SELECT x.* FROM (${CELL_SOURCES[filter.source]}) x
         WHERE $1::text = ANY (x.standard_codes))
       SELECT (SELECT count(*) FROM m)::int AS total,
              coalesce((SELECT jsonb_agg(jsonb_build_object('kind', kind, 'id', id, 'title', title,
                  'portfolio_id', portfolio_id, 'portfolio_name', portfolio_name, 'owner_id', owner_id,
                  'owner_username', owner_username, 'updated_at', updated_at) ORDER BY updated_at DESC, id DESC)
                FROM (SELECT m.kind, m.id, m.responses ->> 'artifactName' AS title, m.portfolio_id, m.portfolio_name,
                             m.owner_id, u.username AS owner_username, m.updated_at
                      FROM m JOIN users u ON u.id = m.owner_id
                      ORDER BY m.updated_at DESC, m.id DESC LIMIT $5 OFFSET $6) page), '[]'::jsonb) AS items`,
      [column, row, filter.teacherId, filter.sharedPortfolioId, page.limit, page.offset],
    );
    const result = rows[0] ?? { total: 0, items: [] };
    return {
      total: result.total,
      items: result.items.map((i) => ({
        kind: i.kind,
        id: i.id,
        title: i.title ?? 'Untitled artifact',
        portfolio: { id: i.portfolio_id, name: i.portfolio_name },
        owner: { id: i.owner_id, username: i.owner_username },
        updated_at: iso(i.updated_at),
      })),
    };
  },
};
