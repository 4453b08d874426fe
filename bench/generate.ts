/**
 * Generates a data set for the benchmarks straight in SQL (set-based inserts), into a migrated
 * database: teachers with portfolios and artifacts (some with image rows), shared portfolios with
 * members, shared artifacts, comments and reactions.
 */
import type { Db, Queryable } from '../server/src/db/client.ts';
import { COVERAGE_COLUMNS } from '../src/schemas/coverage.ts';
import { NGSS_PRACTICES_TEMPLATE } from '../src/schemas/rubricTemplates.ts';
import { BASIC_TEMPLATE } from '../server/src/db/template.ts';
import { hashPassword } from '../server/src/security/passwords.ts';

export interface DatasetSize {
  teachers: number;
  portfoliosPerTeacher: number;
  artifactsPerPortfolio: number;
  /** Every n-th artifact gets one image row (no file on disk). */
  imageEvery: number;
  sharedPortfolios: number;
  membersPerShared: number;
  sharedArtifactsPerShared: number;
  commentsPerSharedArtifact: number;
  reactionsPerSharedArtifact: number;
  /** Artifacts in one more portfolio of the benchmarks' teacher, the biggest one (0: none). */
  bigPortfolioArtifacts: number;
}

export const SMALL: DatasetSize = {
  teachers: 20,
  portfoliosPerTeacher: 1,
  artifactsPerPortfolio: 5,
  imageEvery: 2,
  sharedPortfolios: 2,
  membersPerShared: 10,
  sharedArtifactsPerShared: 10,
  commentsPerSharedArtifact: 3,
  reactionsPerSharedArtifact: 2,
  bigPortfolioArtifacts: 20,
};

/** 1,000 teachers, 100,000 artifacts, 200,000 comments (issue: acceptance performance). */
export const LARGE: DatasetSize = {
  teachers: 1000,
  portfoliosPerTeacher: 2,
  artifactsPerPortfolio: 50,
  imageEvery: 2,
  sharedPortfolios: 100,
  membersPerShared: 20,
  sharedArtifactsPerShared: 200,
  commentsPerSharedArtifact: 10,
  reactionsPerSharedArtifact: 3,
  bigPortfolioArtifacts: 200,
};

export const BENCH_PASSWORD = 'bench-password';

/** Fills the database; the first teacher is `teacher1@bench.example` (password `BENCH_PASSWORD`). */
export async function generateDataset(
  db: Db,
  size: DatasetSize,
): Promise<{ researcherEmail: string; teacherEmail: string; leadEmail: string }> {
  const hash = await hashPassword(BENCH_PASSWORD);
  const responses = JSON.stringify({
    artifactName: 'Generated artifact',
    unitTiming: 'Middle of unit',
    unitDay: 4,
    artifactCategory: ['Student work'],
    learningGoal: 'Students explain how forces change motion, using evidence from their investigation.',
    studentThinking: 'Most groups connected a bigger push to a longer roll.',
    standardFrameworkTags: ['Planning and carrying out investigations', 'PS2.A: Forces and Motion'],
  });
  const structure = JSON.stringify(BASIC_TEMPLATE);
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO users (username, email, role_id, password_hash)
       SELECT 'Teacher ' || g, 'teacher' || g || '@bench.example', CASE WHEN g % 50 = 0 THEN 3 ELSE 1 END, $2
       FROM generate_series(1, $1) g`,
      [size.teachers, hash],
    );
    await tx.query(
      `INSERT INTO users (username, email, role_id, password_hash) VALUES ('Bench Researcher', 'researcher@bench.example', 4, $1)`,
      [hash],
    );
    await tx.query(
      `INSERT INTO portfolios (owner_id, name, grades, subject, topic, structure)
       SELECT u.id, 'Portfolio ' || p || ' of ' || u.username, '["5th"]', 'Science', 'Forces', $2::jsonb
       FROM users u CROSS JOIN generate_series(1, $1) p WHERE u.role_id <> 4`,
      [size.portfoliosPerTeacher, structure],
    );
    await tx.query(
      `INSERT INTO artifacts (portfolio_id, structure, responses, parking_lot, next_caption, created_at, updated_at)
       SELECT p.id, $2::jsonb,
              jsonb_set(jsonb_set($3::jsonb, '{artifactName}', to_jsonb('Artifact ' || a || ' in ' || p.id)),
                '{standardFrameworkTags}', ${variedTags(4, 'p.id')}),
              a % 7 = 0, 1, ms_now() - (a || ' hours')::interval, ms_now() - (a || ' hours')::interval
       FROM portfolios p CROSS JOIN generate_series(1, $1) a WHERE p.id <> 1`,
      [size.artifactsPerPortfolio, structure, responses, ...TAG_LISTS],
    );
    await tx.query(
      `INSERT INTO media_files (kind, name, storage_key, ext, mime, size, width, height, formats)
       SELECT 'image', 'photo-' || a.id || '.jpg', 'benchkey' || lpad(a.id::text, 16, '0'), '.jpg', 'image/jpeg', 250000, 1600, 1200, NULL
       FROM artifacts a WHERE a.id % $1 = 0`,
      [size.imageEvery],
    );
    await tx.query(
      `INSERT INTO artifact_media (artifact_id, media_id, caption)
       SELECT substring(m.storage_key from 9)::int, m.id, 'A' FROM media_files m WHERE m.storage_key LIKE 'benchkey%'`,
    );
    const { rows: lead } = await tx.query<{ id: number }>(`SELECT id FROM users WHERE role_id = 3 ORDER BY id LIMIT 1`);
    const ownerId = lead[0]?.id ?? 1;
    await tx.query(
      `INSERT INTO shared_portfolios (owner_id, name, structure, template_structure, grades, subject, topic, plc_name, plc_goals)
       SELECT $2, 'Shared portfolio ' || s, $3::jsonb, $3::jsonb, '["5th","6th"]', 'Science', 'Forces', 'PLC ' || s, 'Goals'
       FROM generate_series(1, $1) s`,
      [size.sharedPortfolios, ownerId, structure],
    );
    await tx.query(
      `INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id)
       SELECT sp.id, u.id FROM shared_portfolios sp JOIN users u
         ON u.role_id <> 4 AND ((u.id + sp.id) % greatest(1, (SELECT count(*) FROM users) / $1) = 0 OR u.id = sp.owner_id)
       ON CONFLICT DO NOTHING`,
      [size.membersPerShared],
    );
    await tx.query(
      `INSERT INTO shared_artifacts (shared_portfolio_id, owner_id, structure, responses, next_caption, portfolio_topic, portfolio_subject, portfolio_grades)
       SELECT sp.id, coalesce(m.user_id, sp.owner_id), $2::jsonb,
              jsonb_set($3::jsonb, '{standardFrameworkTags}', ${variedTags(5, 'sp.id')}),
              1, 'Forces', 'Science', '["5th"]'
       FROM shared_portfolios sp CROSS JOIN generate_series(1, $1) a
       LEFT JOIN LATERAL (
         SELECT user_id FROM shared_portfolio_members WHERE shared_portfolio_id = sp.id ORDER BY user_id
         OFFSET a % $4 LIMIT 1
       ) m ON true`,
      [size.sharedArtifactsPerShared, structure, responses, size.membersPerShared, ...TAG_LISTS],
    );
    await tx.query(
      `INSERT INTO comments (shared_artifact_id, owner_id, text, updated_by)
       SELECT sa.id, sa.owner_id, 'Generated comment ' || c || ' on artifact ' || sa.id, sa.owner_id
       FROM shared_artifacts sa CROSS JOIN generate_series(1, $1) c`,
      [size.commentsPerSharedArtifact],
    );
    await tx.query(
      `INSERT INTO reactions (shared_artifact_id, owner_id, value)
       SELECT sa.id, m.user_id, (ARRAY['🔖','⭐','🌉','❓'])[1 + (m.user_id % 4)]
       FROM shared_artifacts sa JOIN LATERAL (
         SELECT user_id FROM shared_portfolio_members WHERE shared_portfolio_id = sa.shared_portfolio_id ORDER BY user_id LIMIT $1
       ) m ON true
       ON CONFLICT DO NOTHING`,
      [size.reactionsPerSharedArtifact],
    );
    await scoreEverySharedArtifact(tx);
  });
  const { rows } = await db.query<{ email: string }>(
    `SELECT u.email FROM users u JOIN shared_portfolio_members m ON m.user_id = u.id WHERE u.role_id = 1 ORDER BY u.id LIMIT 1`,
  );
  const { rows: leads } = await db.query<{ email: string }>(
    `SELECT email FROM users WHERE role_id = 3 ORDER BY id LIMIT 1`,
  );
  if (size.bigPortfolioArtifacts > 0 && rows[0]) {
    // The teacher's biggest portfolio: varied names, categories and timings, so that search and
    // Filter By have something to tell apart.
    await db.query(
      `WITH p AS (
         INSERT INTO portfolios (owner_id, name, grades, subject, topic, structure)
         SELECT id, 'Big portfolio', '["5th"]', 'Science', 'Forces', $3::jsonb FROM users WHERE email = $1 RETURNING id
       )
       INSERT INTO artifacts (portfolio_id, structure, responses, parking_lot, next_caption, created_at, updated_at)
       SELECT p.id, $3::jsonb,
              jsonb_set(jsonb_set(jsonb_set($4::jsonb, '{artifactName}', to_jsonb((ARRAY['Magnet maze','Ramp race','Pendulum','Friction lab','Balloon rocket'])[1 + a % 5] || ' ' || a)),
                '{artifactCategory}', (ARRAY['["Student work"]','["Lesson plan or materials"]','["Assessment"]','["Student work","Assessment"]'])[1 + a % 4]::jsonb),
                '{unitTiming}', to_jsonb((ARRAY['Beginning of unit','Middle of unit','End of unit'])[1 + a % 3])),
              a % 7 = 0, 1, ms_now() - (a || ' hours')::interval, ms_now() - (a || ' hours')::interval
       FROM p CROSS JOIN generate_series(1, $2) a`,
      [rows[0].email, size.bigPortfolioArtifacts, structure, responses],
    );
  }
  return {
    researcherEmail: 'researcher@bench.example',
    teacherEmail: rows[0]?.email ?? 'teacher1@bench.example',
    leadEmail: leads[0]?.email ?? 'teacher1@bench.example',
  };
}

/**
 * The artifacts' standards tags vary with the artifact's number `a` and its portfolio `p`: two
 * practices (of the eight), a crosscutting concept and a core idea item, so that the coverage map
 * has cells of every count. The three lists of `TAG_LISTS` are parameters `$n`, `$n+1`, `$n+2`.
 */
function variedTags(n: number, p: string): string {
  const [sep, ccc, dci] = [`$${n}::text[]`, `$${n + 1}::text[]`, `$${n + 2}::text[]`];
  return `jsonb_build_array((${sep})[1 + (a + ${p}) % 8], (${sep})[1 + (a * 3 + ${p} * 5 + 1) % 8],
    (${ccc})[1 + (a + ${p} * 2) % 7], (${dci})[1 + (a * 7 + ${p}) % cardinality(${dci})])`;
}
const TAG_LISTS = [
  COVERAGE_COLUMNS.practices.map((c) => c.label),
  COVERAGE_COLUMNS.crosscutting.map((c) => c.label),
  [
    'PS1.A: Structure and Properties of Matter',
    'PS2.A: Forces and Motion',
    'PS3.B: Conservation of Energy and Energy Transfer',
    'LS1.A: Structure and Function',
    'LS2.A: Interdependent Relationships in Ecosystems',
    'ESS2.D: Weather and Climate',
    'ETS1.B: Developing Possible Solutions',
  ],
];

/**
 * An installation-wide NGSS practices rubric (the shipped template), chosen by every shared
 * portfolio, and two whole-artifact scores on every shared artifact: one by the portfolio's owner,
 * one by the artifact's owner's neighbour among the members, on varied practices and levels.
 */
async function scoreEverySharedArtifact(tx: Queryable): Promise<void> {
  const criteria = NGSS_PRACTICES_TEMPLATE.criteria;
  await tx.query(
    `WITH r AS (INSERT INTO rubrics (name, description) VALUES ($1, $2) RETURNING id),
     v AS (INSERT INTO rubric_versions (rubric_id, number) SELECT id, 1 FROM r RETURNING id),
     c AS (INSERT INTO rubric_criteria (version_id, position, code, label)
           SELECT v.id, x.ord - 1, x.code, x.label FROM v, unnest($3::text[], $4::text[]) WITH ORDINALITY AS x (code, label, ord)
           RETURNING id, position)
     INSERT INTO rubric_levels (criterion_id, position, label, score)
     SELECT c.id, l.ord - 1, l.label, l.ord FROM c, unnest($5::text[]) WITH ORDINALITY AS l (label, ord)`,
    [
      NGSS_PRACTICES_TEMPLATE.name,
      NGSS_PRACTICES_TEMPLATE.description ?? '',
      criteria.map((c) => c.code ?? ''),
      criteria.map((c) => c.label),
      criteria[0]!.levels.map((l) => l.label),
    ],
  );
  await tx.query(
    `INSERT INTO shared_portfolio_rubrics (shared_portfolio_id, rubric_id) SELECT sp.id, r.id FROM shared_portfolios sp, rubrics r`,
  );
  await tx.query(
    `INSERT INTO scores (shared_artifact_id, version_id, criterion_id, level_id, scorer_id)
     SELECT sa.id, c.version_id, c.id, l.id, k.scorer
     FROM shared_artifacts sa JOIN shared_portfolios sp ON sp.id = sa.shared_portfolio_id
     CROSS JOIN LATERAL (VALUES (0, sp.owner_id), (1, coalesce(
       (SELECT min(user_id) FROM shared_portfolio_members m WHERE m.shared_portfolio_id = sp.id AND m.user_id > sa.owner_id),
       sp.owner_id))) AS k (n, scorer)
     JOIN rubric_criteria c ON c.position = (sa.id + k.n * 3) % 8
     JOIN rubric_levels l ON l.criterion_id = c.id AND l.position = (sa.id * (k.n + 3) + sa.owner_id) % 4`,
  );
}

/** Row counts of the main tables (for the results). */
export async function datasetCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [
    'users',
    'portfolios',
    'artifacts',
    'media_files',
    'shared_portfolios',
    'shared_artifacts',
    'comments',
    'reactions',
    'scores',
  ]) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    out[table] = rows[0]!.n;
  }
  return out;
}
