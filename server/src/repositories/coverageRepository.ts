import type { CoverageArtifact, CoverageRow, LevelReached } from '#schemas/coverage';
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

/** The statement's parameters: $1 columns, $2 tags, $3 their columns, $4 teacher, $5 shared portfolio, $6 viewer. */
interface Parts {
  rows: string;
  artifacts: string;
  scoreKey: string;
  scoreFrom: string;
  scoreWhere: string;
}

const TEACHERS = `SELECT u.id, u.username AS name FROM users u WHERE u.role_id <> 4 AND ($4::int IS NULL OR u.id = $4)`;
const PERSONAL = `FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE p.owner_id IS NOT NULL AND ($4::int IS NULL OR p.owner_id = $4)`;
const SHARED = `FROM shared_artifacts a WHERE ($5::int IS NULL OR a.shared_portfolio_id = $5)`;
const SCORED_SHARED = 'FROM scores s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id';

const PARTS: Record<CoverageSource, Parts> = {
  personalByOwner: {
    rows: TEACHERS,
    artifacts: `SELECT p.owner_id AS row_id, a.id, a.responses ${PERSONAL}`,
    scoreKey: 'sa.owner_id',
    scoreFrom: SCORED_SHARED,
    scoreWhere: '($4::int IS NULL OR sa.owner_id = $4)',
  },
  personalByPortfolio: {
    rows: `SELECT p.id, p.name FROM portfolios p WHERE p.owner_id = $4`,
    artifacts: `SELECT p.id AS row_id, a.id, a.responses ${PERSONAL}`,
    scoreKey: 'src.portfolio_id',
    scoreFrom: `${SCORED_SHARED} JOIN artifacts src ON src.id = sa.source_artifact_id JOIN portfolios sp ON sp.id = src.portfolio_id`,
    scoreWhere: 'sa.owner_id = $4 AND sp.owner_id = $4',
  },
  sharedByOwner: {
    rows: `SELECT u.id, u.username AS name FROM users u
           WHERE u.id IN (SELECT user_id FROM shared_portfolio_members WHERE shared_portfolio_id = $5
                          UNION SELECT owner_id FROM shared_artifacts WHERE shared_portfolio_id = $5)`,
    artifacts: `SELECT a.owner_id AS row_id, a.id, a.responses ${SHARED}`,
    scoreKey: 'sa.owner_id',
    scoreFrom: SCORED_SHARED,
    scoreWhere: 'sa.shared_portfolio_id = $5',
  },
  sharedByPortfolio: {
    rows: `SELECT sp.id, sp.name FROM shared_portfolios sp WHERE ($5::int IS NULL OR sp.id = $5)`,
    artifacts: `SELECT a.shared_portfolio_id AS row_id, a.id, a.responses ${SHARED}`,
    scoreKey: 'sa.shared_portfolio_id',
    scoreFrom: SCORED_SHARED,
    scoreWhere: '($5::int IS NULL OR sa.shared_portfolio_id = $5)',
  },
};

const TAG_LIST = `CASE WHEN jsonb_typeof(a.responses -> 'standardFrameworkTags') = 'array'
  THEN a.responses -> 'standardFrameworkTags' ELSE '[]'::jsonb END`;

/**
 * The whole map in one statement: every row, and per column (in `columns`' order) its tagged
 * artifacts, the scores on the column's criterion (its code is the column's, e.g. `SEP2`, or one
 * of its items, e.g. `PS2.A`) and the highest level among them, relative to its criterion's levels.
 */
function mapStatement(parts: Parts): string {
  return `WITH params AS (SELECT $4::int AS teacher, $5::int AS shared, $6::int AS viewer),
  cols AS (SELECT key, ord FROM unnest($1::text[]) WITH ORDINALITY AS c (key, ord)),
  tag_map AS (SELECT tag, col FROM unnest($2::text[], $3::text[]) AS m (tag, col)),
  r AS (${parts.rows}),
  art AS MATERIALIZED (SELECT x.row_id, x.id, x.responses AS responses FROM (${parts.artifacts}) x),
  counts AS (SELECT row_id, count(*)::int AS n FROM art GROUP BY row_id),
  tagged AS (
    SELECT a.row_id, m.col, count(DISTINCT a.id)::int AS n
    FROM art a CROSS JOIN LATERAL jsonb_array_elements_text(${TAG_LIST}) t (tag)
    JOIN tag_map m ON m.tag = t.tag
    GROUP BY a.row_id, m.col),
  sc AS MATERIALIZED (
    SELECT ${parts.scoreKey} AS row_id, cols.key AS col, l.label, l.position,
           (SELECT count(*) FROM rubric_levels ll WHERE ll.criterion_id = c.id)::int AS of
    ${parts.scoreFrom}
    JOIN rubric_criteria c ON c.id = s.criterion_id
    JOIN cols ON upper(c.code) = cols.key OR upper(c.code) LIKE cols.key || '.%'
    JOIN rubric_levels l ON l.id = s.level_id
    WHERE ${parts.scoreWhere} AND ($6::int IS NULL OR s.scorer_id = $6 OR sa.owner_id = $6)),
  scored AS (SELECT row_id, col, count(*)::int AS n FROM sc GROUP BY row_id, col),
  best AS (
    SELECT DISTINCT ON (row_id, col) row_id, col, label, position + 1 AS rank, of
    FROM sc ORDER BY row_id, col, position::float / greatest(of - 1, 1) DESC, position DESC)
  SELECT r.id, r.name, coalesce(counts.n, 0) AS artifacts,
         array_agg(coalesce(tagged.n, 0) ORDER BY cols.ord) AS tagged,
         array_agg(coalesce(scored.n, 0) ORDER BY cols.ord) AS scores,
         jsonb_agg(CASE WHEN best.row_id IS NULL THEN NULL
                   ELSE jsonb_build_object('label', best.label, 'rank', best.rank, 'of', best.of) END
                   ORDER BY cols.ord) AS best
  FROM r CROSS JOIN cols
  LEFT JOIN counts ON counts.row_id = r.id
  LEFT JOIN tagged ON tagged.row_id = r.id AND tagged.col = cols.key
  LEFT JOIN scored ON scored.row_id = r.id AND scored.col = cols.key
  LEFT JOIN best ON best.row_id = r.id AND best.col = cols.key
  GROUP BY r.id, r.name, counts.n
  ORDER BY lower(r.name), r.id`;
}

interface MapRow {
  id: number;
  name: string;
  artifacts: number;
  tagged: number[];
  scores: number[];
  best: (LevelReached | null)[];
}

const ROW_KIND: Record<CoverageSource, CoverageRow['kind']> = {
  personalByOwner: 'teacher',
  personalByPortfolio: 'portfolio',
  sharedByOwner: 'teacher',
  sharedByPortfolio: 'shared',
};

/** The artifacts behind one cell: $1 tags, $2 row, $3 teacher, $4 shared portfolio, $5 limit, $6 offset. */
const CELL_SOURCES: Record<CoverageSource, string> = {
  personalByOwner: `SELECT 'artifact' AS kind, a.id, a.responses, a.updated_at, p.id AS portfolio_id, p.name AS portfolio_name, p.owner_id
    FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE p.owner_id = $2 AND ($3::int IS NULL OR p.owner_id = $3)`,
  personalByPortfolio: `SELECT 'artifact' AS kind, a.id, a.responses, a.updated_at, p.id AS portfolio_id, p.name AS portfolio_name, p.owner_id
    FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE p.id = $2 AND p.owner_id = $3`,
  sharedByOwner: `SELECT 'shared' AS kind, a.id, a.responses, a.updated_at, sp.id AS portfolio_id, sp.name AS portfolio_name, a.owner_id
    FROM shared_artifacts a JOIN shared_portfolios sp ON sp.id = a.shared_portfolio_id WHERE a.owner_id = $2 AND sp.id = $4`,
  sharedByPortfolio: `SELECT 'shared' AS kind, a.id, a.responses, a.updated_at, sp.id AS portfolio_id, sp.name AS portfolio_name, a.owner_id
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
  /** Every row of the map with its counts per column (one statement). */
  async map(
    db: Queryable,
    filter: CoverageFilter,
    columns: readonly string[],
    tags: readonly { tag: string; column: string }[],
  ): Promise<CoverageRow[]> {
    const { rows } = await db.query<MapRow>(mapStatement(PARTS[filter.source]), [
      columns,
      tags.map((t) => t.tag),
      tags.map((t) => t.column),
      filter.teacherId,
      filter.sharedPortfolioId,
      filter.viewerId,
    ]);
    return rows.map((r) => ({ ...r, kind: ROW_KIND[filter.source] }));
  },

  /** One page of the artifacts of `row` tagged with any of `tags`, newest change first, and how many there are. */
  async cell(
    db: Queryable,
    filter: CoverageFilter,
    row: number,
    tags: readonly string[],
    page: { limit: number; offset: number },
  ): Promise<{ items: CoverageArtifact[]; total: number }> {
    const { rows } = await db.query<CellRow>(
      `WITH params AS (SELECT $3::int AS teacher, $4::int AS shared),
       m AS (
         SELECT x.* FROM (${CELL_SOURCES[filter.source]}) x
         WHERE jsonb_typeof(x.responses -> 'standardFrameworkTags') = 'array'
           AND x.responses -> 'standardFrameworkTags' ?| $1::text[])
       SELECT (SELECT count(*) FROM m)::int AS total,
              coalesce((SELECT jsonb_agg(jsonb_build_object('kind', kind, 'id', id, 'title', title,
                  'portfolio_id', portfolio_id, 'portfolio_name', portfolio_name, 'owner_id', owner_id,
                  'owner_username', owner_username, 'updated_at', updated_at) ORDER BY updated_at DESC, id DESC)
                FROM (SELECT m.kind, m.id, m.responses ->> 'artifactName' AS title, m.portfolio_id, m.portfolio_name,
                             m.owner_id, u.username AS owner_username, m.updated_at
                      FROM m JOIN users u ON u.id = m.owner_id
                      ORDER BY m.updated_at DESC, m.id DESC LIMIT $5 OFFSET $6) page), '[]'::jsonb) AS items`,
      [tags, row, filter.teacherId, filter.sharedPortfolioId, page.limit, page.offset],
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
