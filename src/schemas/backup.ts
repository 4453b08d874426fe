import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { TimestampSchema } from './common.ts';

/** The name of a backup file, never the folder it is in: the server's paths are not shown. */
export const BackupFileNameSchema = lazySchema(() =>
  z
    .string()
    .min(1)
    .regex(/^[^/\\]+$/, 'must be a file name without a folder'),
);

/** `GET /backups/status` takes no parameters. */
export const BackupStatusQuerySchema = lazySchema(() => z.strictObject({}));

/** When scheduled backups run (cron, UTC) and how many are kept; `null` in the status when they are off. */
export const BackupScheduleSchema = lazySchema(() =>
  z.object({
    cron: z.string().min(1),
    timeZone: z.literal('UTC'),
    keep: z.number().int().positive(),
  }),
);
export type BackupSchedule = z.infer<typeof BackupScheduleSchema>;

/** A scheduled backup that ended: written (with its size in bytes) or failed (with why). */
export const BackupRunSchema = lazySchema(() =>
  z
    .discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        started_at: TimestampSchema,
        finished_at: TimestampSchema,
        file: BackupFileNameSchema.nullable(),
        size: z.number().int().nonnegative(),
        error: z.null(),
      }),
      z.object({
        ok: z.literal(false),
        started_at: TimestampSchema,
        finished_at: TimestampSchema,
        file: BackupFileNameSchema.nullable(),
        size: z.null(),
        error: z.string(),
      }),
    ])
    .meta({ id: 'BackupRun' }),
);
export type BackupRun = z.infer<typeof BackupRunSchema>;

/**
 * `GET /backups/status` (researchers): whether scheduled backups are on, the latest one that
 * ended, and the one being written now, if any.
 */
export const BackupStatusSchema = lazySchema(() =>
  z
    .object({
      schedule: BackupScheduleSchema.nullable(),
      lastRun: BackupRunSchema.nullable(),
      running: z.object({ started_at: TimestampSchema, file: BackupFileNameSchema.nullable() }).nullable(),
    })
    .meta({ id: 'BackupStatus' }),
);
export type BackupStatus = z.infer<typeof BackupStatusSchema>;
