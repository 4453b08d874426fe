import path from 'node:path';
import { z } from 'zod';

/**
 * The environment variables of the scheduled backups (`BACKUP_DIR`, `BACKUP_SCHEDULE`,
 * `BACKUP_KEEP`) and of the backup before migrations that change existing data
 * (`BACKUP_BEFORE_MIGRATIONS`).
 */
export const BackupEnvSchema = z.object({
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_SCHEDULE: z
    .string()
    .trim()
    .regex(
      /^(\S+\s+){4}\S+$/,
      'must be a cron schedule in UTC (minute hour day month weekday), e.g. "30 2 * * *" for every day at 02:30',
    )
    .default('30 2 * * *'),
  BACKUP_KEEP: z.coerce
    .number({ error: 'must be a number of backups' })
    .int('must be a whole number of backups')
    .min(1, 'must keep at least 1 backup')
    .max(1000, 'must be at most 1000 backups')
    .default(7),
  BACKUP_BEFORE_MIGRATIONS: z.enum(['on', 'off'], { error: 'must be on or off' }).optional(),
});

/** Where scheduled backups go, when (cron, UTC), and how many of the newest are kept. */
export interface BackupSettings {
  dir: string;
  schedule: string;
  keep: number;
}

/** The scheduled backups; `null` without `BACKUP_DIR`. */
export function backupSettings(e: z.infer<typeof BackupEnvSchema>): BackupSettings | null {
  return e.BACKUP_DIR ? { dir: path.resolve(e.BACKUP_DIR), schedule: e.BACKUP_SCHEDULE, keep: e.BACKUP_KEEP } : null;
}

/**
 * Where the backup before migrations that change existing data goes (decision 041): `BACKUP_DIR`,
 * or `DATA_DIR/backups`. On by default for the embedded database and wherever `BACKUP_DIR` is set;
 * `BACKUP_BEFORE_MIGRATIONS=on` turns it on for `DATABASE_URL` too, `off` turns it off.
 */
export function backupBeforeMigrations(
  e: z.infer<typeof BackupEnvSchema>,
  where: { dataDir: string; embedded: boolean },
): { dir: string } | null {
  const on = e.BACKUP_BEFORE_MIGRATIONS ? e.BACKUP_BEFORE_MIGRATIONS === 'on' : where.embedded || !!e.BACKUP_DIR;
  if (!on) return null;
  return { dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : path.join(where.dataDir, 'backups') };
}
