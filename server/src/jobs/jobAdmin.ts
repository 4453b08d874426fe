import type pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { Queryable } from '../db/client.ts';
import { connectionOf, errorText, installed, schemaOf } from './jobDatabase.ts';

/** A job that failed for good, for the administrator. */
export interface FailedJob {
  id: string;
  kind: string;
  attempts: number;
  error: string;
  failedAt: string;
  data: unknown;
}

/** How many jobs of each kind wait, run and failed for good. */
export async function jobCounts(
  db: Queryable,
): Promise<{ kind: string; waiting: number; active: number; failed: number }[]> {
  const schema = await schemaOf(db);
  if (!(await installed(db, schema))) return [];
  const { rows } = await db.query<{ name: string; waiting: number; active: number; failed: number }>(
    `SELECT q.name,
       count(*) FILTER (WHERE j.state IN ('created', 'retry'))::int AS waiting,
       count(*) FILTER (WHERE j.state = 'active')::int AS active,
       count(*) FILTER (WHERE j.state = 'failed')::int AS failed
     FROM ${schema}.queue q LEFT JOIN ${schema}.job j ON j.name = q.name
     GROUP BY q.name ORDER BY q.name`,
  );
  return rows.map((r) => ({ kind: r.name, waiting: r.waiting, active: r.active, failed: r.failed }));
}

/** Jobs that failed for good (after their retries), newest first. */
export async function failedJobs(db: Queryable, limit = 50): Promise<FailedJob[]> {
  const schema = await schemaOf(db);
  if (!(await installed(db, schema))) return [];
  const { rows } = await db.query<{
    id: string;
    name: string;
    retry_count: number;
    output: unknown;
    completed_on: Date | null;
    data: unknown;
  }>(
    `SELECT id, name, retry_count, output, completed_on, data FROM ${schema}.job
     WHERE state = 'failed' ORDER BY completed_on DESC NULLS LAST LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.name,
    attempts: r.retry_count + 1,
    error: errorText(r.output),
    failedAt: (r.completed_on ?? new Date(0)).toISOString(),
    data: r.data,
  }));
}

/**
 * Queues the failed job `id` again (its attempts counted afresh), through `boss` or an engine
 * opened for it; `false` when no job with that id failed for good.
 */
export async function retryFailedJob(
  db: Queryable,
  id: string,
  boss?: PgBoss,
  settings?: pg.ClientConfig,
): Promise<boolean> {
  const schema = await schemaOf(db);
  if (!/^[0-9a-f-]{36}$/i.test(id) || !(await installed(db, schema))) return false;
  const { rows } = await db.query<{ name: string }>(
    `SELECT name FROM ${schema}.job WHERE id = $1::uuid AND state = 'failed'`,
    [id],
  );
  const name = rows[0]?.name;
  if (!name) return false;
  if (boss) {
    await boss.retry(name, id);
    return true;
  }
  if (!settings) throw new Error('no job engine to retry the job with');
  const own = new PgBoss({
    ...connectionOf(settings),
    schema,
    max: 1,
    supervise: false,
    schedule: false,
    migrate: false,
  });
  own.on('error', () => undefined);
  await own.start();
  try {
    await own.retry(name, id);
  } finally {
    await own.stop({ graceful: false });
  }
  return true;
}

/**
 * Installs (or upgrades) the job engine's schema in `db` without running anything: for a
 * database that is copied afterwards (the tests' migrated template).
 */
export async function installJobSchema(db: Queryable, settings: pg.ClientConfig): Promise<void> {
  const boss = new PgBoss({
    ...connectionOf(settings),
    schema: await schemaOf(db),
    max: 1,
    migrate: true,
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false });
}
