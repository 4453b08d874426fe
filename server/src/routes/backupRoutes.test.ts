import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupStatusSchema, type BackupStatus } from '#schemas/backup';
import { createLead, createResearcher, createTeacher, recordBackupRun } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { withoutPaths } from '../services/backupStatusService.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'pf-backup-status-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const backupDir = path.join(root, 'kept', 'backups');

/** The status as a researcher reads it, checked against the contract. */
async function statusOf(t: TestApp, token: string): Promise<{ status: BackupStatus; raw: string }> {
  const res = await t.api({ method: 'GET', url: '/backups/status', token });
  expect(res).toHaveStatus(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return { status: BackupStatusSchema.parse(res.json()), raw: res.body };
}

describe('GET /backups/status with scheduled backups off', async () => {
  const t = await buildTestApp();

  it('is for researchers only: anonymous 401, teachers and PLC leads 403', async () => {
    expect(await t.api({ method: 'GET', url: '/backups/status' })).toBeApiError(401, 'You need to log in.');
    for (const who of [await createTeacher(t), await createLead(t)]) {
      expect(await t.api({ method: 'GET', url: '/backups/status', token: who.token })).toBeApiError(
        403,
        'Only researchers can manage users.',
      );
    }
    const researcher = await createResearcher(t);
    expect(await t.api({ method: 'GET', url: '/backups/status', token: researcher.token })).toHaveStatus(200);
  });

  it('says they are off, with no run', async () => {
    const researcher = await createResearcher(t);
    expect((await statusOf(t, researcher.token)).status).toEqual({ schedule: null, lastRun: null, running: null });
  });

  it('takes no query parameters', async () => {
    const researcher = await createResearcher(t);
    expect(await t.api({ method: 'GET', url: '/backups/status?dir=1', token: researcher.token })).toBeApiError(400);
  });
});

describe('GET /backups/status with scheduled backups on', async () => {
  // A schedule that does not come round while the tests run: the runs are recorded by hand.
  const t = await buildTestApp({ backups: { dir: backupDir, schedule: '0 3 1 1 *', keep: 5 } });
  const researcher = await createResearcher(t);
  const fileIn = (name: string) => path.join(backupDir, name);

  it('gives the schedule (UTC) and how many are kept, before any backup ran', async () => {
    const { status, raw } = await statusOf(t, researcher.token);
    expect(status).toEqual({ schedule: { cron: '0 3 1 1 *', timeZone: 'UTC', keep: 5 }, lastRun: null, running: null });
    expect(raw).not.toContain(root);
  });

  it('gives the last backup written: when it ended, its size and its file name, not its folder', async () => {
    const run = await recordBackupRun(t, fileIn('practicefolio-20261129T023000.000Z.backup'), {
      size: 1_288_490_189,
    });
    const { status, raw } = await statusOf(t, researcher.token);
    expect(status.lastRun).toEqual({
      ok: true,
      started_at: run.startedAt.toISOString(),
      finished_at: run.finishedAt!.toISOString(),
      file: 'practicefolio-20261129T023000.000Z.backup',
      size: 1_288_490_189,
      error: null,
    });
    expect(status.running).toBeNull();
    expect(raw).not.toContain(root);
  });

  it('gives a failed backup with its error, the paths in it cut to file names', async () => {
    const file = fileIn('practicefolio-20261130T023000.000Z.backup');
    const run = await recordBackupRun(t, file, { error: `ENOSPC: no space left on device, write '${file}.part'` });
    const { status, raw } = await statusOf(t, researcher.token);
    expect(status.lastRun).toMatchObject({
      ok: false,
      file: 'practicefolio-20261130T023000.000Z.backup',
      size: null,
      error: "ENOSPC: no space left on device, write 'practicefolio-20261130T023000.000Z.backup.part'",
    });
    expect(raw).not.toContain(root);
    // The operator's own list keeps the whole message.
    expect(run.error).toContain(file);
    expect(status.lastRun?.finished_at).toBe(run.finishedAt!.toISOString());
  });

  it('gives the backup being written now next to the last one that ended', async () => {
    const before = (await statusOf(t, researcher.token)).status.lastRun;
    const run = await recordBackupRun(t, fileIn('practicefolio-20261201T023000.000Z.backup'));
    const { status, raw } = await statusOf(t, researcher.token);
    expect(status.running).toEqual({
      started_at: run.startedAt.toISOString(),
      file: 'practicefolio-20261201T023000.000Z.backup',
    });
    expect(status.lastRun).toEqual(before);
    expect(raw).not.toContain(root);
    // The job records its end: it is the last run then, and nothing runs.
    await t.db.query(`UPDATE backup_runs SET finished_at = ms_now(), ok = true, size = 2048 WHERE id = $1`, [run.id]);
    const after = (await statusOf(t, researcher.token)).status;
    expect(after.running).toBeNull();
    expect(after.lastRun).toMatchObject({ ok: true, size: 2048, file: 'practicefolio-20261201T023000.000Z.backup' });
  });

  it('does not count as running a backup whose node stopped before it ended (older than the job may last)', async () => {
    const run = await recordBackupRun(t, fileIn('practicefolio-20261202T023000.000Z.backup'));
    await t.db.query(`UPDATE backup_runs SET started_at = ms_now() - interval '13 hours' WHERE id = $1`, [run.id]);
    const { status } = await statusOf(t, researcher.token);
    expect(status.running).toBeNull();
    expect(status.lastRun).toMatchObject({ ok: true, size: 2048 });
  });
});

describe('withoutPaths', () => {
  it('cuts absolute paths to their last part and leaves the rest of the message', () => {
    expect(withoutPaths("EACCES: permission denied, mkdir '/var/backups/pf'")).toBe(
      "EACCES: permission denied, mkdir 'pf'",
    );
    expect(withoutPaths('ENOTDIR: not a directory, open /srv/a/b.backup.tmp')).toBe(
      'ENOTDIR: not a directory, open b.backup.tmp',
    );
    expect(withoutPaths('/data/x failed (see /data/log/y.txt)')).toBe('x failed (see y.txt)');
    expect(withoutPaths('S3 said no at https://s3.example.org/bucket/key')).toBe(
      'S3 said no at https://s3.example.org/bucket/key',
    );
    expect(withoutPaths('disk full')).toBe('disk full');
  });
});
