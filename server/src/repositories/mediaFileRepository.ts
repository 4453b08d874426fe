import type { Queryable } from '../db/client.ts';
import type { MediaFormats } from '#schemas/media';
import { MEDIA_COLUMNS, type MediaRow } from './mediaRepository.ts';

/** Files to delete from disk once the transaction that released them has committed. */
export interface OrphanFiles {
  keys: string[];
  files: string[];
}

/**
 * SQL for the stored files themselves: whether one may be served and to whom, which artifact of a
 * person holds it, the upload quota, and the "to delete" list of files no artifact holds any more.
 * Which artifact holds which file (and how) is `mediaRepository`.
 */
export const mediaFileRepository = {
  /** A stored file is now kept by its row: it is no longer "to delete" (call in the row's transaction). */
  async keepUpload(db: Queryable, storageKey: string): Promise<void> {
    await db.query('DELETE FROM pending_uploads WHERE storage_key = $1', [storageKey]);
  },

  /**
   * Deletes the rows of those files no artifact holds any more, nor any artifact's history, and
   * records their files as "to delete" (pending_uploads) in the same transaction; returns their
   * keys and file names.
   */
  async deleteOrphans(db: Queryable, mediaIds: readonly number[]): Promise<OrphanFiles> {
    if (mediaIds.length === 0) return { keys: [], files: [] };
    const { rows } = await db.query<{ storage_key: string; ext: string; formats: MediaFormats | null }>(
      `DELETE FROM media_files m WHERE m.id = ANY($1::int[])
         AND NOT EXISTS (SELECT 1 FROM artifact_media a WHERE a.media_id = m.id)
         AND NOT EXISTS (SELECT 1 FROM shared_artifact_media s WHERE s.media_id = m.id)
         AND NOT EXISTS (SELECT 1 FROM artifact_version_media v WHERE v.media_id = m.id)
       RETURNING m.storage_key, m.ext, m.formats`,
      [mediaIds],
    );
    const files = rows.flatMap((r) => [
      `${r.storage_key}${r.ext}`,
      ...Object.values(r.formats ?? {}).flatMap((f) => (f ? [f.url.replace(/^\/uploads\//, '')] : [])),
    ]);
    const keys = rows.map((r) => r.storage_key);
    if (keys.length > 0) {
      await db.query(`INSERT INTO pending_uploads (storage_key) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [
        keys,
      ]);
    }
    return { keys, files };
  },

  /**
   * Gives a stored video its poster (formats and picture size) once it is made; `false` when no
   * video is stored under `key` any more, or it already has one.
   */
  async setPoster(
    db: Queryable,
    key: string,
    poster: { width: number | null; height: number | null; formats: MediaFormats | null },
  ): Promise<boolean> {
    const { rows } = await db.query(
      `UPDATE media_files SET formats = $2::jsonb, width = $3, height = $4
       WHERE storage_key = $1 AND kind = 'video' AND formats IS NULL RETURNING id`,
      [key, JSON.stringify(poster.formats), poster.width, poster.height],
    );
    return rows.length > 0;
  },

  /**
   * In the inserting transaction: waits for the person's other uploads to commit or roll back
   * (an advisory lock per person until the end of the transaction), so that the bytes counted
   * next include every file accepted before this one and parallel uploads cannot pass the quota.
   */
  async lockQuota(tx: Queryable, userId: number): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('upload-quota:' || $1::text))`, [userId]);
  },

  /**
   * How many bytes the files a person uploaded take (originals; their previews are small), with the
   * caption tracks she wrote and the lengths her unfinished resumable uploads reserve (but that of
   * `except`, the upload being finished).
   */
  async bytesUploadedBy(db: Queryable, userId: number, except: string | null = null): Promise<number> {
    const { rows } = await db.query<{ n: string | number }>(
      `SELECT (SELECT coalesce(sum(size), 0) FROM media_files WHERE uploaded_by = $1)
            + (SELECT coalesce(sum(octet_length(cues::text)), 0) FROM caption_tracks WHERE created_by = $1)
            + (SELECT coalesce(sum(length), 0) FROM resumable_uploads
                 WHERE owner_id = $1 AND finished_at IS NULL AND id IS DISTINCT FROM $2) AS n`,
      [userId, except],
    );
    return Number(rows[0]!.n);
  },

  /**
   * The artifact of a user holding a stored file (by its storage key): their own personal one
   * first, else a shared one in a shared portfolio they belong to (the newest); `null` if none.
   */
  async findHolderArtifact(
    db: Queryable,
    storageKey: string,
    userId: number,
  ): Promise<{
    kind: 'personal' | 'shared';
    id: number;
    portfolioId: number;
    title: string | null;
    alt: string;
  } | null> {
    const { rows } = await db.query<{
      kind: 'personal' | 'shared';
      id: number;
      portfolioId: number;
      title: string | null;
      alt: string;
    }>(
      `SELECT * FROM (
         SELECT 'personal' AS kind, a.id, a.portfolio_id AS "portfolioId", a.responses->>'artifactName' AS title, am.alt, 0 AS rank, a.updated_at
           FROM media_files m JOIN artifact_media am ON am.media_id = m.id JOIN artifacts a ON a.id = am.artifact_id
           JOIN portfolios p ON p.id = a.portfolio_id
          WHERE m.storage_key = $1 AND p.owner_id = $2
         UNION ALL
         SELECT 'shared', sa.id, sa.shared_portfolio_id, sa.responses->>'artifactName', sm.alt, 1, sa.updated_at
           FROM media_files m JOIN shared_artifact_media sm ON sm.media_id = m.id JOIN shared_artifacts sa ON sa.id = sm.shared_artifact_id
           JOIN shared_portfolio_members mem ON mem.shared_portfolio_id = sa.shared_portfolio_id AND mem.user_id = $2
          WHERE m.storage_key = $1
       ) held ORDER BY rank, updated_at DESC LIMIT 1`,
      [storageKey, userId],
    );
    const row = rows[0];
    return row ? { kind: row.kind, id: row.id, portfolioId: row.portfolioId, title: row.title, alt: row.alt } : null;
  },

  /**
   * The media row behind a served file name (`<key><ext>` or `<format>_<key><ext>`), with
   * whether `userId` may read an artifact that holds it (owner, member, researcher), or the
   * history of one that held it (owner, member, researcher).
   */
  async findServable(
    db: Queryable,
    storageKey: string,
    user: { id: number; isResearcher: boolean },
  ): Promise<{ media: MediaRow; allowed: boolean } | null> {
    const { rows } = await db.query<MediaRow & { allowed: boolean }>(
      `SELECT ${MEDIA_COLUMNS},
         ($2::boolean AND (EXISTS (SELECT 1 FROM artifact_media am WHERE am.media_id = m.id)
                           OR EXISTS (SELECT 1 FROM shared_artifact_media sm WHERE sm.media_id = m.id)
                           OR EXISTS (SELECT 1 FROM artifact_version_media vm WHERE vm.media_id = m.id)))
         OR EXISTS (SELECT 1 FROM artifact_media am JOIN artifacts a ON a.id = am.artifact_id
                    JOIN portfolios p ON p.id = a.portfolio_id WHERE am.media_id = m.id AND p.owner_id = $3)
         OR EXISTS (SELECT 1 FROM shared_artifact_media sm JOIN shared_artifacts sa ON sa.id = sm.shared_artifact_id
                    JOIN shared_portfolio_members mem ON mem.shared_portfolio_id = sa.shared_portfolio_id
                    WHERE sm.media_id = m.id AND mem.user_id = $3)
         OR EXISTS (SELECT 1 FROM shared_artifact_media sm JOIN shared_artifacts sa ON sa.id = sm.shared_artifact_id
                    JOIN invitations i ON i.shared_portfolio_id = sa.shared_portfolio_id
                    WHERE sm.media_id = m.id AND i.to_user_id = $3)
         OR EXISTS (SELECT 1 FROM artifact_version_media vm JOIN artifacts a ON a.id = vm.artifact_id
                    JOIN portfolios p ON p.id = a.portfolio_id WHERE vm.media_id = m.id AND p.owner_id = $3)
         OR EXISTS (SELECT 1 FROM artifact_version_media vm JOIN shared_artifacts sa ON sa.id = vm.shared_artifact_id
                    JOIN shared_portfolio_members mem ON mem.shared_portfolio_id = sa.shared_portfolio_id
                    WHERE vm.media_id = m.id AND mem.user_id = $3) AS allowed
       FROM media_files m WHERE m.storage_key = $1`,
      [storageKey, user.isResearcher, user.id],
    );
    const row = rows[0];
    return row ? { media: row, allowed: row.allowed } : null;
  },
};

/** Where the media files are (`media_location`); `null` before the first start records it. */
export interface MediaLocation {
  store: 'local' | 's3';
  bucket: string | null;
}

export const mediaLocationRepository = {
  async find(db: Queryable): Promise<MediaLocation | null> {
    const { rows } = await db.query<MediaLocation>('SELECT store, bucket FROM media_location');
    return rows[0] ?? null;
  },

  /** Records the first location; an existing one stays (another node recorded it first). */
  async recordFirst(db: Queryable, location: MediaLocation): Promise<void> {
    await db.query('INSERT INTO media_location (store, bucket) VALUES ($1, $2) ON CONFLICT (only_row) DO NOTHING', [
      location.store,
      location.bucket,
    ]);
  },

  /** Switches to a new location (after every file was copied there). */
  async switchTo(db: Queryable, location: MediaLocation): Promise<void> {
    await db.query(
      `INSERT INTO media_location (store, bucket) VALUES ($1, $2)
       ON CONFLICT (only_row) DO UPDATE SET store = excluded.store, bucket = excluded.bucket, switched_at = now()`,
      [location.store, location.bucket],
    );
  },

  /** The names of every stored file the media rows keep: each original and its formats. */
  async storedNames(db: Queryable): Promise<{ name: string; mime: string }[]> {
    const { rows } = await db.query<{ storage_key: string; ext: string; mime: string; formats: unknown }>(
      'SELECT storage_key, ext, mime, formats FROM media_files ORDER BY id',
    );
    return rows.flatMap((row) => [
      { name: `${row.storage_key}${row.ext}`, mime: row.mime },
      ...Object.values((row.formats ?? {}) as Record<string, { name: string } | null>)
        .filter((format): format is { name: string } => Boolean(format?.name))
        .map((format) => ({ name: format.name, mime: 'image/jpeg' })),
    ]);
  },
};
