import type { BackupStatus } from '../schemas/backup.ts';

const SCHEDULE = { cron: '30 2 * * *', timeZone: 'UTC', keep: 7 } as const;

/** The server's answers about the scheduled backups, one of each kind. */
export const BACKUP_STATUSES = {
  written: {
    schedule: SCHEDULE,
    lastRun: {
      ok: true,
      started_at: '2026-11-29T02:30:00.000Z',
      finished_at: '2026-11-29T02:31:10.000Z',
      file: 'practicefolio-20261129T023000.000Z.backup',
      size: 1_288_490_189,
      error: null,
    },
    running: null,
  },
  failed: {
    schedule: SCHEDULE,
    lastRun: {
      ok: false,
      started_at: '2026-11-30T02:30:00.000Z',
      finished_at: '2026-11-30T02:30:04.000Z',
      file: 'practicefolio-20261130T023000.000Z.backup',
      size: null,
      error: 'ENOSPC: no space left on device',
    },
    running: null,
  },
  never: { schedule: SCHEDULE, lastRun: null, running: null },
  off: { schedule: null, lastRun: null, running: null },
} satisfies Record<string, BackupStatus>;
