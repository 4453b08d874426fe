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
   * Claims the oldest job that waits, or whose builder's lease lapsed (its process died), for
   * `workerId` until `leaseMs` from now. Rows another transaction is claiming are skipped, so
   * each job goes to one claimer.
   */
  async claim(db: Queryable, workerId: string, leaseMs: number): Promise<ArchiveJobRecord | null> {
    const { rows } = await db.query<JobRow>(
      `UPDATE archive_jobs SET status = 'building', claimed_by = $1, lease_until = now() + make_interval(secs => $2 / 1000.0),
         attempts = attempts + 1, started_at = coalesce(started_at, now())
       WHERE id = (
         SELECT id FROM archive_jobs
         WHERE status = 'queued' OR (status = 'building' AND (lease_until IS NULL OR lease_until < now()))
         ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${JOB_COLUMNS}`,
      [workerId, leaseMs],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** Renews the lease and records the progress; `false` when the job is no longer this worker's. */
  async renew(db: Queryable, id: number, workerId: string, progress: number, leaseMs: number): Promise<boolean> {
    const { rows } = await db.query(
      `UPDATE archive_jobs SET progress = $3, lease_until = now() + make_interval(secs => $4 / 1000.0)
       WHERE id = $1 AND claimed_by = $2 AND status = 'building' RETURNING id`,
      [id, workerId, Math.min(1, Math.max(0, progress)), leaseMs],
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

  /** Marks the job failed (kept a while so that its owner sees it, then pruned). */
  async fail(db: Queryable, id: number, workerId: string, error: string, keepDays: number): Promise<void> {
    await db.query(
      `UPDATE archive_jobs SET status = 'failed', error = $3, finished_at = now(), expires_at = now() + make_interval(days => $4),
         claimed_by = NULL, lease_until = NULL
       WHERE id = $1 AND claimed_by = $2 AND status = 'building'`,
      [id, workerId, error.slice(0, 1000), keepDays],
    );
  },

  /**
   * Hands a job back to the queue (its builder is stopping); another process or the next start
   * takes it up. A stop is no failure: the claim does not count as an attempt.
   */
  async release(db: Queryable, id: number, workerId: string): Promise<void> {
    await db.query(
      `UPDATE archive_jobs SET status = 'queued', claimed_by = NULL, lease_until = NULL, attempts = greatest(attempts - 1, 0)
       WHERE id = $1 AND claimed_by = $2 AND status = 'building'`,
      [id, workerId],
    );
  },

  /** The jobs being built by builders whose id starts with `prefix` (`<host>:`), whatever their lease. */
  async claimedOn(db: Queryable, prefix: string): Promise<{ id: number; claimedBy: string }[]> {
    const { rows } = await db.query<{ id: number; claimed_by: string }>(
      `SELECT id, claimed_by FROM archive_jobs WHERE status = 'building' AND starts_with(claimed_by, $1) ORDER BY id`,
      [prefix],
    );
    return rows.map((r) => ({ id: r.id, claimedBy: r.claimed_by }));
  },

  /**
   * Puts back in the queue a job whose builder is known dead (its process is gone), before its
   * lease lapses; the claim still counts as an attempt. `false` when another builder holds it now.
   */
  async handBack(db: Queryable, id: number, claimedBy: string): Promise<boolean> {
    const { rows } = await db.query(
      `UPDATE archive_jobs SET status = 'queued', claimed_by = NULL, lease_until = NULL
       WHERE id = $1 AND claimed_by = $2 AND status = 'building' RETURNING id`,
      [id, claimedBy],
    );
    return rows.length > 0;
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
