import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';
import { STANDARDS_ALIASES, STANDARDS_PANELS } from './standards.ts';

/**
 * The coverage map (decision 056): how often a teacher's, a shared portfolio's or the whole
 * installation's artifacts are tagged with each NGSS practice, crosscutting concept or core idea,
 * and the highest rubric level reached on it.
 */

export const COVERAGE_DIMENSIONS = ['practices', 'crosscutting', 'coreIdeas'] as const;
export type CoverageDimension = (typeof COVERAGE_DIMENSIONS)[number];
export const COVERAGE_SCOPES = ['teacher', 'shared', 'installation'] as const;
export type CoverageScope = (typeof COVERAGE_SCOPES)[number];
export const COVERAGE_ROW_KINDS = ['teachers', 'portfolios'] as const;
export type CoverageRowKind = (typeof COVERAGE_ROW_KINDS)[number];

/** Which coverage map a client asks for: its scope (`id`: the teacher or shared portfolio, `null` for the installation), rows and columns. */
export interface CoverageRequest {
  scope: CoverageScope;
  id: number | null;
  rows: CoverageRowKind;
  dimension: CoverageDimension;
}

/** The artifacts behind one cell come in pages of this many at most. */
export const COVERAGE_PAGE_MAX = 50;

/** One column of the map: a code (`SEP1`, `CCC4`, `PS2`) and the framework's label. */
export interface CoverageColumn {
  key: string;
  label: string;
}

const panelItems = (panel: string): readonly string[] =>
  STANDARDS_PANELS.find((p) => p.panel === panel)?.sections.flatMap((s) => s.items) ?? [];

const numbered = (prefix: string, items: readonly string[]): CoverageColumn[] =>
  items.map((label, i) => ({ key: `${prefix}${i + 1}`, label }));

/** The core ideas (`PS1` … `ETS1`): one column per heading, its items (`PS1.A: …`) counted under it. */
const coreIdeas: CoverageColumn[] = STANDARDS_PANELS.flatMap((p) => p.sections)
  .filter((s) => s.heading.startsWith('Core Idea '))
  .map((s) => {
    const [code = '', label = ''] = s.heading.slice('Core Idea '.length).split(': ');
    return { key: code, label };
  });

/** The columns of each dimension, in the framework's order. */
export const COVERAGE_COLUMNS: Readonly<Record<CoverageDimension, readonly CoverageColumn[]>> = {
  practices: numbered('SEP', panelItems('Practices for K-12 Science Classrooms')),
  crosscutting: numbered('CCC', panelItems('Crosscutting Concepts')),
  coreIdeas,
};

/**
 * Every stored tag that counts for a column of `dimension`: the web's labels, the mobile apps'
 * spellings (reference §10.3) and, for core ideas, their items and headings.
 */
export function coverageTags(dimension: CoverageDimension): { tag: string; column: string }[] {
  const out: { tag: string; column: string }[] = [];
  if (dimension === 'coreIdeas') {
    for (const s of STANDARDS_PANELS.flatMap((p) => p.sections)) {
      const code = /^Core Idea ([A-Z]+\d)/.exec(s.heading)?.[1];
      if (!code) continue;
      for (const tag of [s.heading, ...s.items]) out.push({ tag, column: code });
    }
  } else {
    for (const c of COVERAGE_COLUMNS[dimension]) out.push({ tag: c.label, column: c.key });
  }
  const byTag = new Map(out.map((o) => [o.tag, o.column]));
  for (const [alias, label] of Object.entries(STANDARDS_ALIASES)) {
    const column = byTag.get(label);
    if (column) out.push({ tag: alias, column });
  }
  return out;
}

const choice = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z.enum(values, { error: () => `${name} must be one of: ${values.join(', ')}.` });

/** Which map: the scope (`id`: the teacher or shared portfolio; none for the installation), its rows and its columns. */
const coverageSelection = {
  scope: choice(COVERAGE_SCOPES, 'scope'),
  id: IdParamSchema.optional(),
  rows: choice(COVERAGE_ROW_KINDS, 'rows').default('teachers'),
  dimension: choice(COVERAGE_DIMENSIONS, 'dimension').default('practices'),
};

const needsId = (q: { scope: CoverageScope; id?: number | undefined }) =>
  (q.scope === 'installation') === (q.id === undefined);
const ID_MESSAGE = {
  message: 'id is required for a teacher or shared scope, and not allowed for the installation.',
  path: ['id'],
};

/** `GET /coverage`. */
export const CoverageQuerySchema = lazySchema(() => z.strictObject(coverageSelection).refine(needsId, ID_MESSAGE));
export type CoverageQuery = z.output<typeof CoverageQuerySchema>;

/** `GET /coverage/artifacts`: one cell (`row`: a teacher's or a portfolio's id, `column`: its code), a page of it. */
export const CoverageCellQuerySchema = lazySchema(() =>
  z
    .strictObject({
      ...coverageSelection,
      row: IdParamSchema,
      column: z.string().regex(/^[A-Z]{2,3}[0-9]$/, 'column must be a column code such as SEP1, CCC2 or PS3.'),
      page: z
        .string()
        .regex(/^[0-9]{1,4}$/, 'page must be a whole number from 1 to 1000.')
        .transform(Number)
        .pipe(
          z
            .number()
            .int()
            .min(1, 'page must be a whole number from 1 to 1000.')
            .max(1000, 'page must be a whole number from 1 to 1000.'),
        )
        .default(1),
    })
    .refine(needsId, ID_MESSAGE),
);
export type CoverageCellQuery = z.output<typeof CoverageCellQuerySchema>;

/** The highest level reached in a cell: its label, its place among the criterion's levels (1 = lowest). */
export const LevelReachedSchema = lazySchema(() =>
  z.object({
    label: z.string(),
    rank: z.number().int().min(1),
    of: z.number().int().min(1),
  }),
);
export type LevelReached = z.infer<typeof LevelReachedSchema>;

/** One row: a teacher (`kind` teacher) or a portfolio (personal or shared), with one entry per column. */
export const CoverageRowSchema = lazySchema(() =>
  z.object({
    id: IdSchema,
    kind: z.enum(['teacher', 'portfolio', 'shared']),
    name: z.string(),
    /** Artifacts in the row (tagged or not). */
    artifacts: z.number().int().min(0),
    /** Per column: artifacts tagged with it. */
    tagged: z.array(z.number().int().min(0)),
    /** Per column: scores given on its criterion that the caller may see. */
    scores: z.array(z.number().int().min(0)),
    /** Per column: the highest level among those scores. */
    best: z.array(LevelReachedSchema.nullable()),
  }),
);
export type CoverageRow = z.infer<typeof CoverageRowSchema>;

export const CoverageSchema = lazySchema(() =>
  z
    .object({
      scope: z.enum(COVERAGE_SCOPES),
      /** The teacher's or shared portfolio's name; `null` for the installation. */
      name: z.string().nullable(),
      rowKind: z.enum(COVERAGE_ROW_KINDS),
      dimension: z.enum(COVERAGE_DIMENSIONS),
      columns: z.array(z.object({ key: z.string(), label: z.string() })),
      rows: z.array(CoverageRowSchema),
    })
    .meta({ id: 'Coverage' }),
);
export type Coverage = z.infer<typeof CoverageSchema>;

/** An artifact behind a cell: a personal one (`artifact`) or a shared one (`shared`). */
export const CoverageArtifactSchema = lazySchema(() =>
  z.object({
    kind: z.enum(['artifact', 'shared']),
    id: IdSchema,
    title: z.string(),
    /** The personal or shared portfolio holding it. */
    portfolio: z.object({ id: IdSchema, name: z.string() }),
    owner: z.object({ id: IdSchema, username: z.string() }),
    updated_at: TimestampSchema,
  }),
);
export type CoverageArtifact = z.infer<typeof CoverageArtifactSchema>;

export const CoverageArtifactPageSchema = lazySchema(() =>
  z
    .object({
      items: z.array(CoverageArtifactSchema),
      total: z.number().int().min(0),
      page: z.number().int().min(1),
      pageSize: z.number().int().min(1),
    })
    .meta({ id: 'CoverageArtifactPage' }),
);
export type CoverageArtifactPage = z.infer<typeof CoverageArtifactPageSchema>;
