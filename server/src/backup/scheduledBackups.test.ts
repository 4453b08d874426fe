import { mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createArtifact, createPortfolio, createResearcher, createTeacher } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { runAdmin } from '../admin.ts';
import { backupRunRepository } from '../repositories/backupRunRepository.ts';
import { verifyBackup } from './restore.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-scheduled-backups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const backupDir = path.join(dir, 'backups');
const t = await buildTestApp({ backups: { dir: backupDir, schedule: '30 2 * * *', keep: 2 } });

const backupsIn = () =>
  readdirSync(backupDir)
    .filter((name) => name.endsWith('.backup'))
    .sort();

describe('scheduled backups (BACKUP_DIR)', () => {
  it('are scheduled once for the installation, at BACKUP_SCHEDULE in UTC', async () => {
    const schedule = (
      await t.db.query<{ name: string; cron: string; timezone: string }>(
        `SELECT name, cron, timezone FROM ${t.app.jobs.schemaName}.schedule WHERE name = 'backups.scheduled'`,
      )
    ).rows;
    expect(schedule).toEqual([{ name: 'backups.scheduled', cron: '30 2 * * *', timezone: 'UTC' }]);
  });

  it('write a whole backup (0600) into the folder, keep the newest BACKUP_KEEP, and record each run', async () => {
    const teacher = await createTeacher(t);
    await createArtifact(t, await createPortfolio(t, teacher));
    for (let i = 0; i < 3; i += 1) {
      await t.app.services.backups!.runNow();
      await t.app.jobs.idle(60_000);
    }
    const files = backupsIn();
    expect(files).toHaveLength(2);
    for (const name of files) {
      expect(statSync(path.join(backupDir, name)).mode & 0o077).toBe(0);
      const manifest = await verifyBackup(path.join(backupDir, name));
      expect(manifest.tables.find((table) => table.name === 'users')!.rows).toBeGreaterThan(0);
    }
    const runs = await backupRunRepository.latest(t.db, 10);
    expect(runs.map((r) => r.ok)).toEqual([true, true, true]);
    expect(
      runs
        .slice(0, 2)
        .map((r) => path.basename(r.file!))
        .sort(),
    ).toEqual(files);
    expect(runs[0]!.size).toBe(statSync(path.join(backupDir, files[1]!)).size);
    const listed = await runAdmin(['backups'], t.config, t.db);
    expect(listed).toContain(`Scheduled backups: 30 2 * * * (UTC) into ${backupDir}, the newest 2 kept.`);
    expect(listed).toContain(`written, ${runs[0]!.size} bytes  ${runs[0]!.file}`);
  });

  it('tell every researcher when one fails, record it, and leave the job listed as failed', async () => {
    const researcher = await createResearcher(t);
    // The folder is gone, a file in its place (permissions would not stop the tests' root).
    renameSync(backupDir, `${backupDir}.kept`);
    writeFileSync(backupDir, 'not a folder');
    try {
      await t.app.services.backups!.runNow();
      await t.app.jobs.idle(60_000);
    } finally {
      rmSync(backupDir);
      renameSync(`${backupDir}.kept`, backupDir);
    }
    const [failed] = await backupRunRepository.latest(t.db, 1);
    expect(failed).toMatchObject({ ok: false, size: null });
    expect(failed!.error).toMatch(/ENOTDIR|not a directory/i);
    const mail = await t.mail.sentTo(researcher.user.email);
    expect(mail.subject).toBe('PracticeFolio: the scheduled backup failed');
    expect(mail.text).toContain(failed!.error!);
    expect(mail.text).toContain('The last backup that was written is');
    expect((await t.app.jobs.failed()).some((j) => j.kind === 'backups.scheduled')).toBe(true);
    expect(await runAdmin(['backups'], t.config, t.db)).toContain(`FAILED: ${failed!.error}`);
    // The backups already there are kept.
    expect(backupsIn()).toHaveLength(2);
  });

  it('leave files of other names in the folder alone', async () => {
    writeFileSync(path.join(backupDir, 'notes.txt'), 'mine');
    await t.app.services.backups!.runNow();
    await t.app.jobs.idle(60_000);
    expect(readdirSync(backupDir)).toContain('notes.txt');
    expect(backupsIn()).toHaveLength(2);
  });
});
