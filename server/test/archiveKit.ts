import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect } from 'vitest';
import { ArchiveJobSchema, ArchiveListResponseSchema, type ArchiveJob } from '#schemas/archive';
import { buildApp } from '../src/app.ts';
import { TestClock } from './clock.ts';
import type { TestUser } from './factories.ts';
import { CapturingMailer, createTestDb, TEST_JOBS, testAppOf, testConfig, type TestApp } from './helper.ts';
import { until } from './until.ts';

/**
 * The teacher archive's test kit: several app instances on one database and one data folder (as
 * several server processes), and the helpers that ask for, wait on and unzip archives. Call once
 * at the top of a test file.
 */
export async function archiveKit() {
  const SCRIPT = '<script>alert("x")</script>';
  // Progress recorded often, failed builds retried at once, a dead node noticed after 10 s.
  const FAST = { heartbeatMs: 50, retryDelaySeconds: 0, heartbeatSeconds: 10 };

  const db = await createTestDb();
  const config = testConfig({ ffmpegPath: '/usr/bin/ffmpeg' });
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  async function instance(archives: Parameters<typeof buildApp>[0]['archives'] = FAST): Promise<TestApp> {
    const mail = new CapturingMailer();
    const clock = new TestClock();
    const app = await buildApp({ config, db, mailer: mail, logger: false, archives, clock, jobs: TEST_JOBS });
    await app.ready();
    apps.push(app);
    return testAppOf(app, db, mail, config, clock);
  }

  const t = await instance();

  const list = async (who: TestUser, app: TestApp = t): Promise<ArchiveJob[]> => {
    const res = await app.api({ method: 'GET', url: '/archives', token: who.token });
    expect(res).toHaveStatus(200);
    return ArchiveListResponseSchema.parse(res.json());
  };

  const ask = async (who: TestUser, app: TestApp = t): Promise<ArchiveJob> => {
    const res = await app.api({ method: 'POST', url: '/archives', token: who.token });
    expect(res).toHaveStatus(200);
    return ArchiveJobSchema.parse(res.json());
  };

  /** A job as the database holds it (the builder's side of it). */
  async function jobRow(
    id: number,
  ): Promise<{ status: string; attempts: number; claimed_by: string | null; file_name: string | null } | null> {
    const { rows } = await db.query<{
      status: string;
      attempts: number;
      claimed_by: string | null;
      file_name: string | null;
    }>('SELECT status, attempts, claimed_by, file_name FROM archive_jobs WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  /** Waits until the owner's job reaches a final state (ready or failed), as her list shows it. */
  function settled(who: TestUser, jobId: number, timeout = 20_000): Promise<ArchiveJob> {
    return until(
      async () => (await list(who)).find((j) => j.id === jobId && (j.status === 'ready' || j.status === 'failed')),
      { timeout, what: `job ${jobId} ready or failed` },
    );
  }

  /** Queues a job for `who` directly in the database (as another process, or an earlier run, left it). */
  async function queuedJob(who: TestUser, state = ''): Promise<number> {
    const { rows } = await db.query<{ id: number }>(`INSERT INTO archive_jobs (owner_id) VALUES ($1) RETURNING id`, [
      who.user.id,
    ]);
    const id = rows[0]!.id;
    if (state) await db.query(`UPDATE archive_jobs SET ${state} WHERE id = $1`, [id]);
    return id;
  }

  /**
   * Runs `work` with `only`'s job workers alone taking jobs (none when `null`): the other
   * instances of this file pause theirs meanwhile.
   */
  async function alone<T>(only: TestApp | null, work: () => Promise<T>): Promise<T> {
    const others = apps.filter((app) => app !== only?.app);
    for (const app of others) await app.jobs.pause();
    try {
      return await work();
    } finally {
      for (const app of others) if (apps.includes(app)) await app.jobs.resume();
    }
  }

  async function closeInstance(instance: TestApp): Promise<void> {
    await instance.app.close();
    apps.splice(apps.indexOf(instance.app), 1);
  }

  const jobCount = async (who: TestUser): Promise<number> =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM archive_jobs WHERE owner_id = $1', [who.user.id]))
      .rows[0]!.n;

  const unzipped = mkdtempSync(path.join(os.tmpdir(), 'pf-archive-'));
  afterAll(() => rmSync(unzipped, { recursive: true, force: true }));

  /** Unzips a downloaded archive with Python's zipfile (a reader other than the writer); returns the folder. */
  function unzip(zip: Buffer): string {
    const dir = mkdtempSync(path.join(unzipped, 'zip-'));
    const file = path.join(dir, 'archive.zip');
    const out = path.join(dir, 'site');
    writeFileSync(file, zip);
    execFileSync('python3', ['-m', 'zipfile', '-e', file, out]);
    return out;
  }

  function entriesOf(dir: string, prefix = ''): string[] {
    return readdirSync(path.join(dir, prefix), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? entriesOf(dir, path.join(prefix, e.name)) : [path.join(prefix, e.name)]))
      .sort();
  }

  return {
    SCRIPT,
    FAST,
    db,
    config,
    apps,
    instance,
    t,
    list,
    ask,
    jobRow,
    settled,
    queuedJob,
    alone,
    closeInstance,
    jobCount,
    unzip,
    entriesOf,
  };
}
