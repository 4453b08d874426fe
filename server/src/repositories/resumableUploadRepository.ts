import type { MediaKind } from '#schemas/media';
import type { Queryable } from '../db/client.ts';

/** A resumable upload, as `resumable_uploads` keeps it (a finished one until its expiry). */
export interface ResumableUploadRow {
  id: string;
  ownerId: number;
  target: 'artifact' | 'sharedArtifact';
  portfolioId: number;
  artifactId: number;
  kind: MediaKind;
  name: string;
  alt: string | null;
  description: string | null;
  length: number;
  offset: number;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** A request is turning it into its file record (or did). */
  finishing: boolean;
  /** The file record it became, once finished (`null` before, or when that file was deleted). */
  mediaId: number | null;
  finished: boolean;
}

type NewRow = Omit<ResumableUploadRow, 'offset' | 'finishing' | 'mediaId' | 'finished'>;

const COLUMNS = `id, owner_id AS "ownerId", target, portfolio_id AS "portfolioId", artifact_id AS "artifactId",
  kind, name, alt, description, length::float8 AS length, upload_offset::float8 AS "offset",
  (extract(epoch FROM expires_at) * 1000)::float8 AS "expiresAt", finishing,
  media_id AS "mediaId", finished_at IS NOT NULL AS finished`;

const at = (ms: number) => new Date(ms).toISOString();

/** SQL for the unfinished resumable uploads (their quota reservations and expiry). */
export const resumableUploadRepository = {
  /** Records a new upload (call under the owner's quota lock, after checking the reservation fits). */
  async insert(db: Queryable, row: NewRow): Promise<void> {
    await db.query(
      `INSERT INTO resumable_uploads (id, owner_id, target, portfolio_id, artifact_id, kind, name, alt, description, length, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        row.id,
        row.ownerId,
        row.target,
        row.portfolioId,
        row.artifactId,
        row.kind,
        row.name,
        row.alt,
        row.description,
        row.length,
        at(row.expiresAt),
      ],
    );
  },

  async find(db: Queryable, id: string): Promise<ResumableUploadRow | null> {
    const { rows } = await db.query<ResumableUploadRow>(`SELECT ${COLUMNS} FROM resumable_uploads WHERE id = $1`, [id]);
    return rows[0] ?? null;
  },

  /** How many unfinished uploads a person has. */
  async countOf(db: Queryable, ownerId: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM resumable_uploads WHERE owner_id = $1 AND finished_at IS NULL',
      [ownerId],
    );
    return rows[0]!.n;
  },

  /** Bytes arrived: the new offset, and the upload expires `expiresAt` (a day after this last byte). */
  async progressed(db: Queryable, id: string, offset: number, expiresAt: number): Promise<void> {
    await db.query('UPDATE resumable_uploads SET upload_offset = $2, expires_at = $3 WHERE id = $1', [
      id,
      offset,
      at(expiresAt),
    ]);
  },

  /**
   * Claims a finished upload for the request that turns it into its file record: the row, or
   * `null` when another request already does (or did).
   */
  async claim(db: Queryable, id: string, expiresAt: number): Promise<ResumableUploadRow | null> {
    // It expires later again: a node that stopped in the middle leaves it to the housekeeping.
    const { rows } = await db.query<ResumableUploadRow>(
      `UPDATE resumable_uploads SET finishing = true, expires_at = $2 WHERE id = $1 AND NOT finishing AND finished_at IS NULL RETURNING ${COLUMNS}`,
      [id, at(expiresAt)],
    );
    return rows[0] ?? null;
  },

  /** Hands a claimed upload back (its finishing failed for a reason a repeated request may not meet). */
  async unclaim(db: Queryable, id: string): Promise<void> {
    await db.query('UPDATE resumable_uploads SET finishing = false WHERE id = $1', [id]);
  },

  /**
   * In the transaction that records its file: the upload is finished and became `mediaId` (its
   * reservation ends as the file's bytes start to count).
   */
  async finished(tx: Queryable, id: string, mediaId: number): Promise<void> {
    await tx.query('UPDATE resumable_uploads SET finished_at = ms_now(), media_id = $2 WHERE id = $1', [id, mediaId]);
  },

  /** Forgets an unfinished upload whose parts were deleted (a finished one stays until its expiry). */
  async removeUnfinished(db: Queryable, id: string): Promise<void> {
    await db.query('DELETE FROM resumable_uploads WHERE id = $1 AND finished_at IS NULL', [id]);
  },

  /** Forgets an upload (finished, terminated or expired): its reservation is given back. */
  async remove(db: Queryable, id: string): Promise<void> {
    await db.query('DELETE FROM resumable_uploads WHERE id = $1', [id]);
  },

  /** The uploads that expired before `now`. */
  async expiredIds(db: Queryable, now: number): Promise<string[]> {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM resumable_uploads WHERE expires_at < $1 ORDER BY expires_at',
      [at(now)],
    );
    return rows.map((r) => r.id);
  },
};
