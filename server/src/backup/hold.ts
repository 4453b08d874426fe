import type { Queryable } from '../db/client.ts';

/**
 * The advisory lock a backup holds (exclusively, per schema) from before its snapshot until its
 * last media file is copied. Whoever deletes stored files of media rows checks it first: while a
 * backup runs, the files stay (their keys in `pending_uploads`, deleted by a later sweep), so that
 * every file the backup's snapshot names is still there when it is copied.
 */
export const BACKUP_LOCK = 25_039;

/** The statement that takes the hold (session level, in the backup's own connection). */
export const TAKE_HOLD = 'SELECT pg_advisory_lock($1, hashtext(current_schema()))';

/**
 * Whether a backup holds the media now. A row deleted (committed) before this check is either
 * outside every running backup's snapshot, or that backup took its hold before the deletion and
 * still holds it.
 */
export async function backupHoldsMedia(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ free: boolean }>(
    'SELECT pg_try_advisory_xact_lock_shared($1, hashtext(current_schema())) AS free',
    [BACKUP_LOCK],
  );
  return rows[0]?.free === false;
}
