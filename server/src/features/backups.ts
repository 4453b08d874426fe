import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ROLE_IDS } from '#schemas/user';
import { writeBackup } from '../backup/backup.ts';
import { authenticated } from '../http/auth.ts';
import { backupFailedMessage } from '../mail/messages.ts';
import { backupRunRepository } from '../repositories/backupRunRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import { backupRoutes } from '../routes/backupRoutes.ts';
import { BACKUP_RUN_MAX_SECONDS, createBackupStatusService } from '../services/backupStatusService.ts';

/** The names of scheduled backups: `practicefolio-<UTC time>.backup` (sorted by name = by time). */
const BACKUP_NAME = /^practicefolio-\d{8}T\d{6}\.\d{3}Z\.backup$/;

/**
 * Scheduled backups (`BACKUP_DIR`): the `backups.scheduled` job, at `BACKUP_SCHEDULE` (UTC) on one
 * node of the installation, writes a backup (decision 040) into that folder, keeps the newest
 * `BACKUP_KEEP`, records each run (`npm run admin -- backups`), and e-mails the researchers when
 * one fails. Researchers see the last run on Manage Users (`GET /backups/status`), on or off.
 */
export async function backupsFeature(app: FastifyInstance): Promise<void> {
  const settings = app.config.backups;
  app.services.backupStatus = createBackupStatusService(app.serviceContext);
  await app.register(authenticated(backupRoutes));
  app.services.backups = null;
  if (!settings) return;
  await mkdir(settings.dir, { recursive: true, mode: 0o700 });
  const { db, log } = app;
  const scheduled = app.jobs.define({
    name: 'backups.scheduled',
    group: 'backups',
    data: z.object({}).strict(),
    async run() {
      const file = path.join(settings.dir, `practicefolio-${new Date().toISOString().replace(/[-:]/g, '')}.backup`);
      const run = await backupRunRepository.start(db, file);
      try {
        const report = await writeBackup(db, app.mediaStore.objects, file);
        await backupRunRepository.finish(db, run, { size: report.size });
        log.info({ file, size: report.size }, 'scheduled backup written');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await backupRunRepository.finish(db, run, { error: message });
        log.error({ err: error, file }, 'scheduled backup failed');
        await tellResearchers(message);
        throw error;
      }
      await keepNewest(settings.dir, settings.keep);
      await backupRunRepository.prune(db, Math.max(settings.keep, 50));
    },
    // A failed backup is not tried again before the next one: the researchers are told.
    retryLimit: 0,
    retryDelaySeconds: 0,
    expireInSeconds: BACKUP_RUN_MAX_SECONDS,
    heartbeatSeconds: 60,
    maxQueued: 1,
    busyMessage: 'A backup is already waiting to be taken.',
    concurrency: 1,
    policy: 'stately',
    cron: settings.schedule,
  });

  async function tellResearchers(error: string): Promise<void> {
    const lastGood = (await backupRunRepository.latest(db, 50)).find((r) => r.ok && r.file);
    const researchers = (await userRepository.list(db, { role: ROLE_IDS.researcher })).filter((u) => !u.blocked);
    for (const researcher of researchers) {
      const message = backupFailedMessage(researcher, {
        at: new Date(),
        error,
        lastGood: lastGood ? { at: lastGood.startedAt, file: lastGood.file! } : null,
      });
      try {
        await app.serviceContext.mailer.send(message);
      } catch (mailError) {
        log.warn({ err: mailError }, 'could not e-mail a failed backup');
      }
    }
  }

  app.services.backups = {
    async runNow() {
      await app.jobs.send(scheduled, {});
    },
  };
}

/** Deletes the scheduled backups of `dir` beyond the newest `keep` (other files are left alone). */
async function keepNewest(dir: string, keep: number): Promise<void> {
  const names = (await readdir(dir)).filter((name) => BACKUP_NAME.test(name)).sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) await rm(path.join(dir, name), { force: true });
}
