import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PgBoss } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { archiveKit } from '../../test/archiveKit.ts';
import { createArtifact, createPortfolio, createTeacher } from '../../test/factories.ts';
import { until } from '../../test/until.ts';

// The archive builder in the background, across server instances, and the housekeeping of old archives.
const { FAST, db, config, instance, t, list, ask, jobRow, settled, alone, closeInstance } = await archiveKit();

/**
 * A node takes the build of `archiveId` (its job, and its row as `builder(jobId)` names it) and
 * dies at once: no heartbeat, no hand-back.
 */
async function takenByLostNode(archiveId: number, builder: (jobId: string) => string): Promise<void> {
  const lost = new PgBoss({ ...(db.settings!() as object), schema: t.app.jobs.schemaName, max: 1 });
  lost.on('error', () => undefined);
  await lost.start();
  const [taken] = await lost.fetch<{ archiveId: number }>('archives.build');
  expect(taken?.data.archiveId).toBe(archiveId);
  await db.query(`UPDATE archive_jobs SET status = 'building', claimed_by = $2, attempts = 1 WHERE id = $1`, [
    archiveId,
    builder(taken!.id),
  ]);
  await lost.stop({ graceful: false, close: true });
}

describe('the background builder', () => {
  it('hands a build back when its server stops, and another instance finishes it', async () => {
    let reached!: () => void;
    const atStep = new Promise<void>((resolve) => (reached = resolve));
    const first = await instance({ ...FAST, onStep: () => (reached(), new Promise(() => undefined)) });
    const tess = await createTeacher(first);
    const job = await alone(first, async () => {
      const portfolio = await createPortfolio(first, tess);
      await createArtifact(first, portfolio, { parkingLot: false });
      await createArtifact(first, portfolio, { parkingLot: false });
      const queued = await ask(tess, first);
      await atStep;
      expect((await jobRow(queued.id))?.status).toBe('building');
      // Its progress reaches the list.
      await until(async () => (await list(tess, first))[0]!.progress > 0, { what: 'progress in the list' });
      await closeInstance(first);
      return queued;
    });
    // Handed back at once, not counted as a failed attempt, and no half-written file left behind.
    expect(await jobRow(job.id)).toMatchObject({ status: 'queued', attempts: 0, claimed_by: null });
    expect(readdirSync(path.join(config.dataDir, 'archives')).filter((f) => f.startsWith('.'))).toEqual([]);

    const second = await instance();
    const done = await settled(tess, job.id);
    expect(done.status).toBe('ready');
    expect(await jobRow(job.id)).toMatchObject({ status: 'ready', attempts: 1 });
    // Whichever running instance finished it, the teacher hears of it once.
    const sent = [...t.mail.sent, ...second.mail.sent].filter((m) => m.to === tess.user.email);
    expect(sent.map((m) => m.subject)).toEqual(['Your PracticeFolio archive is ready']);
    await closeInstance(second);
  });

  it('gives a build whose node died (no heartbeat) to another node', async () => {
    const tess = await createTeacher(t);
    const job = await alone(null, async () => {
      const queued = await ask(tess);
      await takenByLostNode(queued.id, (jobId) => jobId);
      return queued;
    });
    expect((await jobRow(job.id))?.status).toBe('building');
    // The engine notices the missing heartbeat (10 s) and another node builds it.
    const done = await settled(tess, job.id, 40_000);
    expect(done.status).toBe('ready');
    expect(await jobRow(job.id)).toMatchObject({ status: 'ready', attempts: 2 });
  }, 60_000);

  it('on start, queues again at once a build whose process on this machine was killed, not waiting for its heartbeat', async () => {
    // A process that has ended: its id is free.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const tess = await createTeacher(t);
    const job = await alone(null, async () => {
      const queued = await ask(tess);
      await takenByLostNode(queued.id, (jobId) => `${jobId}@${os.hostname()}:${dead}`);
      return queued;
    });
    const started = Date.now();
    const restarted = await instance();
    const done = await settled(tess, job.id);
    expect(done.status).toBe('ready');
    // Long before the missed heartbeat (10 s here) would have handed it over.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await jobRow(job.id)).toMatchObject({ status: 'ready', attempts: 1 });
    await closeInstance(restarted);
  });

  it('gives up a build that fails every time, and the teacher may ask again', async () => {
    const failing = await instance({
      ...FAST,
      onStep: () => Promise.reject(new Error('the disk is full')),
    });
    const tess = await createTeacher(failing);
    const portfolio = await createPortfolio(failing, tess);
    await createArtifact(failing, portfolio, { parkingLot: false });
    const id = await alone(failing, async () => {
      const queued = await ask(tess, failing);
      const failed = await settled(tess, queued.id);
      expect(failed).toMatchObject({ status: 'failed', size: null });
      return queued.id;
    });
    // Tried three times (the first and two retries), then given up.
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 3 });
    const listed = await t.app.jobs.failed();
    expect(
      listed.find((j) => j.kind === 'archives.build' && (j.data as { archiveId: number }).archiveId === id),
    ).toMatchObject({ attempts: 3, error: 'the disk is full' });
    expect(await t.api({ method: 'GET', url: `/archives/${id}/download`, token: tess.token })).toBeApiError(
      404,
      'Archive not found.',
    );
    await closeInstance(failing);
    // The teacher may ask again.
    expect((await settled(tess, (await ask(tess)).id)).status).toBe('ready');
  }, 30_000);

  it('builds each archive once when several nodes take jobs at once', async () => {
    const a = await instance();
    const b = await instance();
    const teachers = await Promise.all(Array.from({ length: 6 }, () => createTeacher(t)));
    const jobs = await Promise.all(teachers.map((who, i) => ask(who, i % 2 ? a : b)));
    for (const [i, job] of jobs.entries()) expect((await settled(teachers[i]!, job.id)).status).toBe('ready');
    const { rows } = await db.query<{ attempts: number }>(
      'SELECT attempts FROM archive_jobs WHERE id = ANY($1::int[])',
      [jobs.map((j) => j.id)],
    );
    expect(rows.map((r) => r.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
    // One e-mail each, whichever node built it.
    const sent = [...t.mail.sent, ...a.mail.sent, ...b.mail.sent];
    for (const who of teachers) expect(sent.filter((m) => m.to === who.user.email)).toHaveLength(1);
    await closeInstance(a);
    await closeInstance(b);
  });

  it('takes no job and leaves no timer once its server has closed', async () => {
    const quiet = await instance();
    const tess = await createTeacher(quiet);
    await closeInstance(quiet);
    expect(quiet.clock.pending).toBe(0);
    // With every other node paused, a job waits past several polls of the closed one.
    await alone(null, async () => {
      const job = await ask(tess);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await jobRow(job.id))?.status).toBe('queued');
    });
    const [job] = await list(tess);
    expect((await settled(tess, job!.id)).status).toBe('ready');
  });
});

describe('housekeeping', () => {
  it('removes expired archives with their files', async () => {
    const tess = await createTeacher(t);
    const job = await ask(tess);
    await settled(tess, job.id);
    const record = (await jobRow(job.id))!;
    const file = path.join(config.dataDir, 'archives', record.file_name!);
    expect(statSync(file).isFile()).toBe(true);
    await db.query(`UPDATE archive_jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [job.id]);
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).toBeApiError(
      404,
      'This archive has expired. Ask for a new one.',
    );
    expect(await list(tess)).toEqual([]);
    await t.app.archives.prune();
    expect(await jobRow(job.id)).toBeNull();
    expect(existsSync(file)).toBe(false);
  });
});
