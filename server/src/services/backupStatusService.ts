import path from 'node:path';
import type { BackupRun as BackupRunBody, BackupStatus } from '#schemas/backup';
import type { User } from '#schemas/user';
import { forbidden } from '../errors.ts';
import { canManageUsers } from '../policies/userPolicy.ts';
import { backupRunRepository, type BackupRun } from '../repositories/backupRunRepository.ts';
import type { ServiceContext } from './context.ts';
import { USER_MESSAGES } from './userService.ts';

/**
 * The longest a scheduled backup may take: the job engine gives up on it then, so a run not
 * ended after this long was stopped with its node and is no longer being written.
 */
export const BACKUP_RUN_MAX_SECONDS = 12 * 3600;

/**
 * `message` with every absolute path in it cut to its last part (`open '/srv/backups/x.tmp'` →
 * `open 'x.tmp'`): the browser learns which file, not where the server keeps it.
 */
export function withoutPaths(message: string): string {
  return message.replace(/(^|[\s'"`(=,])\/(?:[^\s'"`()]*\/)?([^\s'"`()/]*)/g, '$1$2');
}

const fileName = (file: string | null): string | null => (file === null ? null : path.basename(file));

function endedRun(run: BackupRun): BackupRunBody {
  const times = { started_at: run.startedAt.toISOString(), finished_at: run.finishedAt!.toISOString() };
  return run.ok
    ? { ok: true, ...times, file: fileName(run.file), size: run.size ?? 0, error: null }
    : { ok: false, ...times, file: fileName(run.file), size: null, error: withoutPaths(run.error ?? '') };
}

/** What researchers see of the scheduled backups (decision 040) on Manage Users. */
export function createBackupStatusService(ctx: ServiceContext) {
  const { db, config } = ctx;
  return {
    /**
     * Whether scheduled backups are on (their schedule in UTC and how many are kept), the latest
     * run that ended and the run under way, with file names but not the server's folders.
     * @throws 403 for anyone but a researcher.
     */
    async status(actor: User): Promise<BackupStatus> {
      if (!canManageUsers(actor)) throw forbidden(USER_MESSAGES.onlyResearchers);
      const [last, running] = await Promise.all([
        backupRunRepository.lastFinished(db),
        backupRunRepository.running(db, BACKUP_RUN_MAX_SECONDS),
      ]);
      const { backups } = config;
      return {
        schedule: backups ? { cron: backups.schedule, timeZone: 'UTC', keep: backups.keep } : null,
        lastRun: last ? endedRun(last) : null,
        running: running ? { started_at: running.startedAt.toISOString(), file: fileName(running.file) } : null,
      };
    },
  };
}
