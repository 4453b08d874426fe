import type { Queryable } from '../db/client.ts';
import type { Media, MediaFormats, MediaKind } from '#schemas/media';
import { captionLetters } from '#schemas/media';
import { iso, json } from './sql.ts';

/** What holds media: a personal artifact or a shared artifact. */
export type Holder = 'artifact' | 'sharedArtifact';

const HOLDER = {
  artifact: { links: 'artifact_media', fk: 'artifact_id', table: 'artifacts' },
  sharedArtifact: { links: 'shared_artifact_media', fk: 'shared_artifact_id', table: 'shared_artifacts' },
} as const;

/** The stored kind of each endpoint segment. */
export const KIND_OF: Record<MediaKind, 'image' | 'video' | 'document'> = {
  images: 'image',
  videos: 'video',
  documents: 'document',
};
const SEGMENT_OF = { image: 'images', video: 'videos', document: 'documents' } as const;

/** A `media_files` row as `MEDIA_COLUMNS` reads it. */
export interface MediaRow {
  id: number;
  kind: 'image' | 'video' | 'document';
  name: string;
  storage_key: string;
  ext: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  formats: MediaFormats | null;
  duration: number | null;
  created_at: Date;
  updated_at: Date;
}

export const MEDIA_COLUMNS =
  'm.id, m.kind, m.name, m.storage_key, m.ext, m.mime, m.size, m.width, m.height, m.formats, m.duration, m.created_at, m.updated_at';

/** How one holder holds a file: its caption letter, alt text and description. */
export interface MediaLink {
  caption: string;
  alt: string;
  description: string;
}

/** The public form of a media row as one holder holds it. */
export function toMedia(row: MediaRow, link: MediaLink): Media {
  const { caption } = link;
  return {
    id: row.id,
    name: row.name,
    caption,
    alternativeText: null,
    hash: row.storage_key,
    ext: row.ext,
    mime: row.mime,
    size: Math.round((Number(row.size) / 1024) * 100) / 100,
    width: row.width,
    height: row.height,
    url: `/uploads/${row.storage_key}${row.ext}`,
    previewUrl: null,
    formats: row.formats,
    provider: 'local',
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    alt: link.alt,
    description: link.description,
    duration: row.duration === null ? null : Number(row.duration),
  };
}

/** Media lists of one holder, by kind, in caption order. */
export interface MediaLists {
  images: Media[];
  videos: Media[];
  documents: Media[];
}

export const emptyMediaLists = (): MediaLists => ({ images: [], videos: [], documents: [] });

/** Letters sort A…Z, AA…ZZ, AAA…: by length, then alphabetically. */
const CAPTION_ORDER = 'length(l.caption), l.caption';

/** SQL for the links of uploaded files to artifacts (the stored files themselves: `mediaFileRepository`). */
export const mediaRepository = {
  /** The media of many holders at once (one query), grouped by holder id. */
  async listFor(db: Queryable, holder: Holder, ids: readonly number[]): Promise<Map<number, MediaLists>> {
    const h = HOLDER[holder];
    const result = new Map<number, MediaLists>();
    if (ids.length === 0) return result;
    const { rows } = await db.query<MediaRow & MediaLink & { holder_id: number }>(
      `SELECT l.${h.fk} AS holder_id, l.caption, l.alt, l.description, ${MEDIA_COLUMNS}
       FROM ${h.links} l JOIN media_files m ON m.id = l.media_id
       WHERE l.${h.fk} = ANY($1::int[]) ORDER BY ${CAPTION_ORDER}`,
      [ids],
    );
    for (const row of rows) {
      let lists = result.get(row.holder_id);
      if (!lists) result.set(row.holder_id, (lists = emptyMediaLists()));
      lists[SEGMENT_OF[row.kind]].push(toMedia(row, row));
    }
    return result;
  },

  /** One file linked to one holder with the given kind, or `null`. */
  async findLinked(
    db: Queryable,
    holder: Holder,
    holderId: number,
    mediaId: number,
    kind?: MediaKind,
  ): Promise<Media | null> {
    const h = HOLDER[holder];
    const { rows } = await db.query<MediaRow & MediaLink>(
      `SELECT l.caption, l.alt, l.description, ${MEDIA_COLUMNS} FROM ${h.links} l JOIN media_files m ON m.id = l.media_id
       WHERE l.${h.fk} = $1 AND l.media_id = $2 AND ($3::text IS NULL OR m.kind = $3)`,
      [holderId, mediaId, kind ? KIND_OF[kind] : null],
    );
    return rows[0] ? toMedia(rows[0], rows[0]) : null;
  },

  /** A file as one holder holds it, with its kind and stored name (for moments and captions), or `null`. */
  async findHeld(
    db: Queryable,
    holder: Holder,
    holderId: number,
    mediaId: number,
  ): Promise<{
    id: number;
    kind: 'image' | 'video' | 'document';
    name: string;
    fileName: string;
    duration: number | null;
  } | null> {
    const h = HOLDER[holder];
    const { rows } = await db.query<{
      id: number;
      kind: 'image' | 'video' | 'document';
      name: string;
      storage_key: string;
      ext: string;
      duration: number | null;
    }>(
      `SELECT m.id, m.kind, m.name, m.storage_key, m.ext, m.duration FROM ${h.links} l JOIN media_files m ON m.id = l.media_id
       WHERE l.${h.fk} = $1 AND l.media_id = $2`,
      [holderId, mediaId],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          kind: r.kind,
          name: r.name,
          fileName: `${r.storage_key}${r.ext}`,
          duration: r.duration === null ? null : Number(r.duration),
        }
      : null;
  },

  /** Records a video's length once it is known. */
  async setDuration(db: Queryable, mediaId: number, seconds: number): Promise<void> {
    await db.query('UPDATE media_files SET duration = $2 WHERE id = $1 AND duration IS NULL', [mediaId, seconds]);
  },

  /** Changes the alt text and/or description of a file as one holder holds it; returns whether it is held. */
  async setText(
    db: Queryable,
    holder: Holder,
    holderId: number,
    mediaId: number,
    text: { alt?: string | undefined; description?: string | undefined },
  ): Promise<boolean> {
    const h = HOLDER[holder];
    const { rows } = await db.query<{ media_id: number }>(
      `UPDATE ${h.links} SET alt = coalesce($3, alt), description = coalesce($4, description)
       WHERE ${h.fk} = $1 AND media_id = $2 RETURNING media_id`,
      [holderId, mediaId, text.alt ?? null, text.description ?? null],
    );
    return rows.length > 0;
  },

  /**
   * Stores a file's row and links it to the holder with the next caption letter. The holder row
   * is locked while its letter is taken, so concurrent uploads never share or skip a letter.
   * `touch` moves the holder's `updated_at` (personal artifacts; shared ones keep theirs).
   * Returns `null` when the holder no longer exists.
   */
  async insertAndLink(
    db: Queryable,
    holder: Holder,
    holderId: number,
    file: {
      kind: 'image' | 'video' | 'document';
      name: string;
      storageKey: string;
      ext: string;
      mime: string;
      size: number;
      width: number | null;
      height: number | null;
      formats: MediaFormats | null;
      uploadedBy: number | null;
      /** A video's length in seconds, when known. */
      duration?: number | null;
      alt?: string;
      description?: string;
    },
    touch: boolean,
  ): Promise<Media | null> {
    const h = HOLDER[holder];
    const { rows: counter } = await db.query<{ index: number }>(
      `UPDATE ${h.table} SET next_caption = next_caption + 1${touch ? ', updated_at = next_stamp(updated_at)' : ''}
       WHERE id = $1 RETURNING next_caption - 1 AS index`,
      [holderId],
    );
    if (!counter[0]) return null; // deleted while the file was arriving
    const caption = captionLetters(counter[0].index);
    const { rows } = await db.query<MediaRow>(
      `INSERT INTO media_files (kind, name, storage_key, ext, mime, size, width, height, formats, uploaded_by, duration)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)
       RETURNING id, kind, name, storage_key, ext, mime, size, width, height, formats, duration, created_at, updated_at`,
      [
        file.kind,
        file.name,
        file.storageKey,
        file.ext,
        file.mime,
        file.size,
        file.width,
        file.height,
        file.formats ? json(file.formats) : null,
        file.uploadedBy,
        file.duration ?? null,
      ],
    );
    const row = rows[0]!;
    const link = { caption, alt: file.alt ?? '', description: file.description ?? '' };
    await db.query(
      `INSERT INTO ${h.links} (${h.fk}, media_id, caption, alt, description) VALUES ($1, $2, $3, $4, $5)`,
      [holderId, row.id, caption, link.alt, link.description],
    );
    return toMedia(row, link);
  },

  /** Copies every media link of a personal or shared artifact to a shared artifact, keeping captions, alt text and descriptions. */
  async copyLinks(db: Queryable, from: Holder, fromId: number, toSharedArtifactId: number): Promise<void> {
    const h = HOLDER[from];
    await db.query(
      `INSERT INTO shared_artifact_media (shared_artifact_id, media_id, caption, alt, description)
       SELECT $2, media_id, caption, alt, description FROM ${h.links} WHERE ${h.fk} = $1`,
      [fromId, toSharedArtifactId],
    );
    // The copy starts with its own copies of the caption tracks: edits on it never reach the source.
    await db.query(
      `INSERT INTO caption_tracks (shared_artifact_id, media_id, language, label, cues, created_by, created_at, updated_at)
       SELECT $2, media_id, language, label, cues, created_by, created_at, updated_at FROM caption_tracks WHERE ${h.fk} = $1 ORDER BY id`,
      [fromId, toSharedArtifactId],
    );
  },

  /** Removes one link, that holder's caption tracks of the file (and, from a personal artifact, the owner's notes on it); returns whether it existed. */
  async unlink(db: Queryable, holder: Holder, holderId: number, mediaId: number): Promise<boolean> {
    const h = HOLDER[holder];
    if (holder === 'artifact')
      await db.query('DELETE FROM artifact_notes WHERE artifact_id = $1 AND media_id = $2', [holderId, mediaId]);
    await db.query(`DELETE FROM caption_tracks WHERE ${h.fk} = $1 AND media_id = $2`, [holderId, mediaId]);
    const { rows } = await db.query<{ media_id: number }>(
      `DELETE FROM ${h.links} WHERE ${h.fk} = $1 AND media_id = $2 RETURNING media_id`,
      [holderId, mediaId],
    );
    return rows.length > 0;
  },

  /** The media ids one holder holds now. */
  async idsHeldBy(db: Queryable, holder: Holder, holderId: number): Promise<number[]> {
    const h = HOLDER[holder];
    const { rows } = await db.query<{ media_id: number }>(
      `SELECT media_id FROM ${h.links} WHERE ${h.fk} = $1 ORDER BY media_id`,
      [holderId],
    );
    return rows.map((r) => r.media_id);
  },

  /** Media ids the given holders hold or their histories keep (before deleting the holders). */
  async idsOf(db: Queryable, holder: Holder, holderIds: readonly number[]): Promise<number[]> {
    if (holderIds.length === 0) return [];
    const h = HOLDER[holder];
    const { rows } = await db.query<{ media_id: number }>(
      `SELECT media_id FROM ${h.links} WHERE ${h.fk} = ANY($1::int[])
       UNION SELECT media_id FROM artifact_version_media WHERE ${h.fk} = ANY($1::int[])`,
      [holderIds],
    );
    return rows.map((r) => r.media_id);
  },
};
