import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { archiveKit } from '../../test/archiveKit.ts';
import { createArtifact, createPortfolio, createTeacher } from '../../test/factories.ts';
import { until } from '../../test/until.ts';

// The archive builder in the background, across server instances, and the housekeeping of old archives.
const { FAST, db, config, instance, t, list, ask, jobRow, settled, queuedJob, alone, closeInstance } =
  await archiveKit();

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
      // Its progress reaches the list through the lease renewals.
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
  });

  it('takes up a job whose builder died (its lease lapsed)', async () => {
    const tess = await createTeacher(t);
    const id = await queuedJob(
      tess,
      `status = 'building', claimed_by = 'elsewhere:1:crashed', lease_until = now() - interval '1 second', attempts = 1`,
    );
    await instance();
    const done = await settled(tess, id);
    expect(done.status).toBe('ready');
    expect((await jobRow(id))?.attempts).toBe(2);
  });

  it('on start, takes up at once a job whose process on this machine was killed, before its lease lapses', async () => {
    // A process that has ended: its id is free.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const tess = await createTeacher(t);
    const theo = await createTeacher(t);
    const killed = await queuedJob(
      tess,
      `status = 'building', claimed_by = '${os.hostname()}:${dead}:killed', lease_until = now() + interval '1 hour', attempts = 1`,
    );
    // A job of a process that runs (this one) is left to its builder.
    const live = await queuedJob(
      theo,
      `status = 'building', claimed_by = '${os.hostname()}:${process.pid}:alive', lease_until = now() + interval '1 hour', attempts = 1`,
    );
    await instance();
    const done = await settled(tess, killed);
    expect(done.status).toBe('ready');
    expect((await jobRow(killed))?.attempts).toBe(2);
    expect(await jobRow(live)).toMatchObject({
      status: 'building',
      claimed_by: `${os.hostname()}:${process.pid}:alive`,
    });
    await db.query(
      `UPDATE archive_jobs SET status = 'failed', claimed_by = NULL, lease_until = NULL, finished_at = now(), expires_at = now() WHERE id = $1`,
      [live],
    );
  });

  it('gives up a job that was taken up too often without finishing', async () => {
    const tess = await createTeacher(t);
    const id = await queuedJob(
      tess,
      `status = 'building', claimed_by = 'elsewhere:1:crashed', lease_until = now() - interval '1 second', attempts = 3`,
    );
    const failed = await settled(tess, id);
    expect(failed).toMatchObject({ status: 'failed', size: null });
    expect(await t.api({ method: 'GET', url: `/archives/${id}/download`, token: tess.token })).toBeApiError(
      404,
      'Archive not found.',
    );
    // The teacher may ask again.
    await settled(tess, (await ask(tess)).id);
  });

  it('gives each job to one claimer when two servers claim at once', async () => {
    const a = await instance({ pollMs: 3_600_000, heartbeatMs: 50, leaseMs: 60_000 });
    const b = await instance({ pollMs: 3_600_000, heartbeatMs: 50, leaseMs: 60_000 });
    await alone(a, async () => {
      // b pauses with the others: both only claim, when told to.
      const teachers = await Promise.all(Array.from({ length: 6 }, () => createTeacher(t)));
      const jobs = await Promise.all(teachers.map((who) => queuedJob(who)));
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).app.archives.worker.claim()),
      );
      const claimed = claims.flatMap((c) => (c ? [c.id] : []));
      // Every job claimed, none twice (a job an earlier test left waiting may be among them).
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed).toEqual(expect.arrayContaining(jobs));
      expect(claims.filter((c) => c === null).length).toBeGreaterThan(0);
      const { rows } = await db.query<{ attempts: number }>(
        'SELECT attempts FROM archive_jobs WHERE id = ANY($1::int[])',
        [jobs],
      );
      expect(rows.map((r) => r.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
      await closeInstance(a);
      await closeInstance(b);
    });
  });

  it('stops its builder and timers when the server closes', async () => {
    const quiet = await instance();
    const tess = await createTeacher(quiet);
    await closeInstance(quiet);
    // A closed server leaves no timer set.
    expect(quiet.clock.pending).toBe(0);
    // A closed server, or a stopped builder, builds nothing: with every other instance paused, a
    // job waits while their clocks move on past many polls (a look for jobs started then is waited for).
    await alone(t, async () => {
      await t.app.archives.worker.stop();
      const id = await queuedJob(tess);
      for (const stopped of [quiet, t]) {
        stopped.clock.advance(FAST.pollMs * 10);
        await stopped.app.archives.worker.idle();
      }
      expect((await jobRow(id))?.status).toBe('queued');
      t.app.archives.worker.start();
      expect((await settled(tess, id)).status).toBe('ready');
    });
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
