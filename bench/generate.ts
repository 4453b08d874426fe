/**
 * Generates a data set for the benchmarks straight in SQL (set-based inserts), into a migrated
 * database: teachers with portfolios and artifacts (some with image rows), shared portfolios with
 * members, shared artifacts, comments and reactions.
 */
import type { Db } from '../server/src/db/client.ts';
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
       SELECT p.id, $2::jsonb, jsonb_set($3::jsonb, '{artifactName}', to_jsonb('Artifact ' || a || ' in ' || p.id)), a % 7 = 0, 1,
              ms_now() - (a || ' hours')::interval, ms_now() - (a || ' hours')::interval
       FROM portfolios p CROSS JOIN generate_series(1, $1) a WHERE p.id <> 1`,
      [size.artifactsPerPortfolio, structure, responses],
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
       SELECT sp.id, sp.owner_id, $2::jsonb, $3::jsonb, 1, 'Forces', 'Science', '["5th"]'
       FROM shared_portfolios sp CROSS JOIN generate_series(1, $1) a`,
      [size.sharedArtifactsPerShared, structure, responses],
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
  ]) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    out[table] = rows[0]!.n;
  }
  return out;
}
