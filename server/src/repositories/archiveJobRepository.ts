import type { Queryable } from '../db/client.ts';
import type { ArchiveCounts, ArchiveJob, ArchiveStatus } from '#schemas/archive';
import { iso } from './sql.ts';

interface JobRow {
  id: number;
  owner_id: number;
  status: ArchiveStatus;
  progress: number;
  portfolio_count: number;
  artifact_count: number;
  shared_count: number;
  comment_count: number;
  media_count: number;
  size: number | null;
  file_name: string | null;
  attempts: number;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
}

const JOB_COLUMNS = `id, owner_id, status, progress, portfolio_count, artifact_count, shared_count, comment_count, media_count,
  size, file_name, attempts, created_at, finished_at, expires_at`;

/** A job as the server keeps it. */
export interface ArchiveJobRecord {
  id: number;
  ownerId: number;
  status: ArchiveStatus;
  fileName: string | null;
  attempts: number;
  job: ArchiveJob;
}

function toRecord(row: JobRow): ArchiveJobRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    status: row.status,
    fileName: row.file_name,
    attempts: row.attempts,
    job: {
      id: row.id,
      status: row.status,
      progress: row.progress,
      counts: {
        portfolios: row.portfolio_count,
        artifacts: row.artifact_count,
        sharedArtifacts: row.shared_count,
        comments: row.comment_count,
        media: row.media_count,
      },
      size: row.size,
      created_at: iso(row.created_at),
      finished_at: row.finished_at ? iso(row.finished_at) : null,
      expires_at: row.expires_at ? iso(row.expires_at) : null,
    },
  };
}

const ACTIVE = `status IN ('queued', 'building')`;

/** SQL for the queue of teachers' archives (the teacher's work they hold: \`reporting/archiveContentRepository.ts\`). */
export const archiveJobRepository = {
  /** Queues a job for `ownerId`; `null` when one is already under way. */
  async create(db: Queryable, ownerId: number): Promise<ArchiveJobRecord | null> {
    const { rows } = await db.query<JobRow>(
      `INSERT INTO archive_jobs (owner_id) VALUES ($1)
       ON CONFLICT (owner_id) WHERE ${ACTIVE} DO NOTHING RETURNING ${JOB_COLUMNS}`,
      [ownerId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** The owner's jobs that are not expired, newest first. */
  async listFor(db: Queryable, ownerId: number): Promise<ArchiveJobRecord[]> {
    const { rows } = await db.query<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM archive_jobs WHERE owner_id = $1 AND (expires_at IS NULL OR expires_at > now())
       ORDER BY created_at DESC, id DESC`,
      [ownerId],
    );
    return rows.map(toRecord);
  },

  /** One job, or `null`. */
  async find(db: Queryable, id: number): Promise<ArchiveJobRecord | null> {
    const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM archive_jobs WHERE id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /**
   * Takes the job for the build `workerId` (the engine runs one build of a job at a time; a
   * build whose node died is replaced by the next one); `null` when it is no longer waiting or
   * building (ready, failed, deleted).
   */
  async take(db: Queryable, id: number, workerId: string): Promise<ArchiveJobRecord | null> {
    const { rows } = await db.query<JobRow>(
      `UPDATE archive_jobs SET status = 'building', claimed_by = $2, lease_until = NULL,
         attempts = attempts + 1, started_at = coalesce(started_at, now())
       WHERE id = $1 AND ${ACTIVE} RETURNING ${JOB_COLUMNS}`,
      [id, workerId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** Records the progress; `false` when the job is no longer this build's. */
  async renew(db: Queryable, id: number, workerId: string, progress: number): Promise<boolean> {
    const { rows } = await db.query(
      `UPDATE archive_jobs SET progress = $3 WHERE id = $1 AND claimed_by = $2 AND status = 'building' RETURNING id`,
      [id, workerId, Math.min(1, Math.max(0, progress))],
    );
    return rows.length > 0;
  },

  /** Records what the archive holds. */
  async setCounts(db: Queryable, id: number, workerId: string, counts: ArchiveCounts): Promise<void> {
    await db.query(
      `UPDATE archive_jobs SET portfolio_count = $3, artifact_count = $4, shared_count = $5, comment_count = $6, media_count = $7
       WHERE id = $1 AND claimed_by = $2`,
      [id, workerId, counts.portfolios, counts.artifacts, counts.sharedArtifacts, counts.comments, counts.media],
    );
  },

  /** Marks the job ready with its file; `false` when it is no longer this worker's (the file must then go). */
  async finish(
    db: Queryable,
    id: number,
    workerId: string,
    file: { name: string; size: number; validDays: number },
  ): Promise<ArchiveJobRecord | null> {
    const { rows } = await db.query<JobRow>(
      `UPDATE archive_jobs SET status = 'ready', progress = 1, file_name = $3, size = $4, finished_at = now(),
         expires_at = now() + make_interval(days => $5), claimed_by = NULL, lease_until = NULL, error = NULL
       WHERE id = $1 AND claimed_by = $2 AND status = 'building' RETURNING ${JOB_COLUMNS}`,
      [id, workerId, file.name, file.size, file.validDays],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /**
   * Marks a job that is still waiting or building failed for good (kept a while so that its owner
   * sees it, then pruned); `false` when it had already ended.
   */
  async giveUp(db: Queryable, id: number, error: string, keepDays: number): Promise<boolean> {
    const { rows } = await db.query(
      `UPDATE archive_jobs SET status = 'failed', error = coalesce(error, $2), finished_at = now(),
         expires_at = now() + make_interval(days => $3), claimed_by = NULL, lease_until = NULL
       WHERE id = $1 AND ${ACTIVE} RETURNING id`,
      [id, error.slice(0, 1000), keepDays],
    );
    return rows.length > 0;
  },

  /**
   * Puts a job this build holds back in the queue: its node stops (`error` null: not counted as
   * an attempt), or the build failed (`error` kept for the teacher if it was the last attempt).
   */
  async release(db: Queryable, id: number, workerId: string, error: string | null): Promise<void> {
    await db.query(
      `UPDATE archive_jobs SET status = 'queued', claimed_by = NULL, lease_until = NULL,
         attempts = CASE WHEN $3::text IS NULL THEN greatest(attempts - 1, 0) ELSE attempts END,
         error = coalesce(left($3::text, 1000), error)
       WHERE id = $1 AND claimed_by = $2 AND status = 'building'`,
      [id, workerId, error],
    );
  },

  /** The jobs being built by builders whose id contains `marker` (`@<host>:`). */
  async buildingOn(db: Queryable, marker: string): Promise<{ id: number; claimedBy: string }[]> {
    const { rows } = await db.query<{ id: number; claimed_by: string }>(
      `SELECT id, claimed_by FROM archive_jobs WHERE status = 'building' AND strpos(claimed_by, $1) > 0 ORDER BY id`,
      [marker],
    );
    return rows.map((r) => ({ id: r.id, claimedBy: r.claimed_by }));
  },

  /** Deletes a job that was never queued for building (the queue was full). */
  async remove(db: Queryable, id: number): Promise<void> {
    await db.query(`DELETE FROM archive_jobs WHERE id = $1 AND status = 'queued'`, [id]);
  },

  /**
   * Keeps the owner's `keep` newest ready archives and deletes the older ones (a new archive
   * replaces the oldest); returns the file names to remove.
   */
  async deleteOlderReady(db: Queryable, ownerId: number, keep: number): Promise<string[]> {
    const { rows } = await db.query<{ file_name: string | null }>(
      `DELETE FROM archive_jobs WHERE owner_id = $1 AND status = 'ready' AND id NOT IN (
         SELECT id FROM archive_jobs WHERE owner_id = $1 AND status = 'ready' ORDER BY finished_at DESC, id DESC LIMIT $2)
       RETURNING file_name`,
      [ownerId, keep],
    );
    return rows.flatMap((r) => (r.file_name ? [r.file_name] : []));
  },

  /** Deletes expired jobs and returns the file names to remove. */
  async deleteExpired(db: Queryable): Promise<string[]> {
    const { rows } = await db.query<{ file_name: string | null }>(
      'DELETE FROM archive_jobs WHERE expires_at <= now() RETURNING file_name',
    );
    return rows.flatMap((r) => (r.file_name ? [r.file_name] : []));
  },

  /** Every file name a job still refers to (the rest of the archives folder is stray). */
  async fileNames(db: Queryable): Promise<Set<string>> {
    const { rows } = await db.query<{ file_name: string }>(
      'SELECT file_name FROM archive_jobs WHERE file_name IS NOT NULL',
    );
    return new Set(rows.map((r) => r.file_name));
  },
};
