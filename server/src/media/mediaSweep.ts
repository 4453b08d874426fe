import { backupHoldsMedia } from '../backup/hold.ts';
import type { Queryable } from '../db/client.ts';
import type { ObjectStore } from './objectStore.ts';
import { FORMATS_PENDING, formatNames, keyOfFile } from './storedNames.ts';

/**
 * The crash sweep: deletes the files still recorded in `pending_uploads` (never committed, or
 * released for deletion), with their formats and what an upload cut off left in a bucket.
 */
export class MediaSweeper {
  constructor(
    private readonly db: Queryable,
    private readonly objects: ObjectStore,
  ) {}

  /**
   * Deletes the files of `node`'s own uploads from before it stopped, and of files released for
   * deletion (no node); the number of records swept.
   */
  async sweepLeftBehind(node: string | null): Promise<number> {
    // This node's own from before it stopped, and files released for deletion (no node): another
    // node's are uploads it may be receiving now (the housekeeping sweeps them once too old).
    const { rows } = await this.db.query<{ storage_key: string }>(
      'SELECT storage_key FROM pending_uploads WHERE node IS NULL OR node = $1',
      [node ?? ''],
    );
    return this.sweep(rows.map((r) => r.storage_key));
  }

  /**
   * Deletes the files of another node's uploads that never completed, once older than `olderThanMs`
   * (longer than any upload may take): that node stopped and did not come back (housekeeping).
   */
  async sweepAbandoned(olderThanMs: number): Promise<number> {
    const { rows } = await this.db.query<{ storage_key: string }>(
      `SELECT storage_key FROM pending_uploads WHERE created_at < ms_now() - $1 * interval '1 millisecond'`,
      [olderThanMs],
    );
    return this.sweep(rows.map((r) => r.storage_key));
  }

  /** Deletes what is stored under `keys` (a `formats:<key>` entry: only the formats of that key) and their records. */
  async sweep(keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    // A backup copying the files of its snapshot: they are deleted by a sweep after it.
    if (await backupHoldsMedia(this.db)) return 0;
    for (const entry of keys) {
      if (entry.startsWith(FORMATS_PENDING)) {
        await this.objects.remove(formatNames(entry.slice(FORMATS_PENDING.length)));
        continue;
      }
      const stored = (await this.objects.list(entry)).filter((name) => keyOfFile(name) === entry);
      await this.objects.remove([...stored, ...formatNames(entry)]);
      // An upload cut off in the middle (a crash) may have left parts in a bucket.
      await this.objects.dropUnfinished(entry);
    }
    await this.db.query('DELETE FROM pending_uploads WHERE storage_key = ANY($1::text[])', [keys]);
    return keys.length;
  }
}
