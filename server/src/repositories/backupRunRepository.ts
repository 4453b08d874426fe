import type { Queryable } from '../db/client.ts';

/** One scheduled backup: running (`ok` null), written, or failed. */
export interface BackupRun {
  id: number;
  startedAt: Date;
  finishedAt: Date | null;
  file: string | null;
  size: number | null;
  ok: boolean | null;
  error: string | null;
}

interface RunRow {
  id: number;
  started_at: Date;
  finished_at: Date | null;
  file: string | null;
  size: string | null;
  ok: boolean | null;
  error: string | null;
}

const toRun = (r: RunRow): BackupRun => ({
  id: r.id,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  file: r.file,
  size: r.size === null ? null : Number(r.size),
  ok: r.ok,
  error: r.error,
});

/** SQL for the record of the scheduled backups. */
export const backupRunRepository = {
  /** Records that a backup into `file` starts. */
  async start(db: Queryable, file: string): Promise<number> {
    const { rows } = await db.query<{ id: number }>('INSERT INTO backup_runs (file) VALUES ($1) RETURNING id', [file]);
    return rows[0]!.id;
  },

  /** Records how a backup ended. */
  async finish(db: Queryable, id: number, outcome: { size: number } | { error: string }): Promise<void> {
    await db.query('UPDATE backup_runs SET finished_at = ms_now(), ok = $2, size = $3, error = $4 WHERE id = $1', [
      id,
      !('error' in outcome),
      'size' in outcome ? outcome.size : null,
      'error' in outcome ? outcome.error.slice(0, 2000) : null,
    ]);
  },

  /** The latest runs, newest first. */
  async latest(db: Queryable, limit: number): Promise<BackupRun[]> {
    const { rows } = await db.query<RunRow>(
      'SELECT id, started_at, finished_at, file, size, ok, error FROM backup_runs ORDER BY started_at DESC, id DESC LIMIT $1',
      [limit],
    );
    return rows.map(toRun);
  },

  /** The run that ended last (written or failed), if any. */
  async lastFinished(db: Queryable): Promise<BackupRun | null> {
    const { rows } = await db.query<RunRow>(
      'SELECT id, started_at, finished_at, file, size, ok, error FROM backup_runs WHERE finished_at IS NOT NULL ORDER BY finished_at DESC, id DESC LIMIT 1',
    );
    return rows[0] ? toRun(rows[0]) : null;
  },

  /**
   * The run being written now: the newest one not ended, started less than `maxSeconds` ago (one
   * older is a run whose node stopped before it could record its end).
   */
  async running(db: Queryable, maxSeconds: number): Promise<BackupRun | null> {
    const { rows } = await db.query<RunRow>(
      `SELECT id, started_at, finished_at, file, size, ok, error FROM backup_runs
        WHERE finished_at IS NULL AND started_at > ms_now() - make_interval(secs => $1)
        ORDER BY started_at DESC, id DESC LIMIT 1`,
      [maxSeconds],
    );
    return rows[0] ? toRun(rows[0]) : null;
  },

  /** Forgets runs older than the newest `keep` (their files are gone too). */
  async prune(db: Queryable, keep: number): Promise<void> {
    await db.query(
      'DELETE FROM backup_runs WHERE id NOT IN (SELECT id FROM backup_runs ORDER BY started_at DESC, id DESC LIMIT $1)',
      [keep],
    );
  },
};
