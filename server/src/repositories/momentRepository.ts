import type { Queryable } from '../db/client.ts';
import type { CaptionTrack, CaptionTrackSummary, Cue, Note } from '#schemas/moments';
import { iso, json } from './sql.ts';

/** A moment as stored: a video, a start and an optional end (seconds). */
export interface StoredMoment {
  mediaId: number;
  start: number;
  end: number | null;
}

interface NoteRow {
  id: number;
  artifact_id: number;
  media_id: number;
  owner_id: number;
  moment_start: number;
  moment_end: number | null;
  text: string;
  created_at: Date;
  updated_at: Date;
}

const NOTE_COLUMNS = 'id, artifact_id, media_id, owner_id, moment_start, moment_end, text, created_at, updated_at';

function toNote(r: NoteRow): Note {
  return {
    id: r.id,
    artifact: r.artifact_id,
    media: r.media_id,
    start: Number(r.moment_start),
    end: r.moment_end === null ? null : Number(r.moment_end),
    text: r.text,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

interface CaptionRow {
  id: number;
  media_id: number;
  artifact_id: number | null;
  shared_artifact_id: number | null;
  created_by: number | null;
  language: string;
  label: string;
  cues: Cue[];
  created_at: Date;
  updated_at: Date;
}

const CAPTION_COLUMNS =
  'id, media_id, artifact_id, shared_artifact_id, created_by, language, label, cues, created_at, updated_at';

/** Where a caption track is kept: a personal artifact or a shared one (each holds its own tracks). */
export interface CaptionHolder {
  holder: 'artifact' | 'sharedArtifact';
  holderId: number;
}

const HOLDER_COLUMN = { artifact: 'artifact_id', sharedArtifact: 'shared_artifact_id' } as const;

/** The holder of a stored track. */
export const holderOf = (r: Pick<CaptionRow, 'artifact_id' | 'shared_artifact_id'>): CaptionHolder =>
  r.artifact_id !== null
    ? { holder: 'artifact', holderId: r.artifact_id }
    : { holder: 'sharedArtifact', holderId: r.shared_artifact_id! };

/** The public form of a caption track for a caller who may (or may not) edit it. */
export function toCaptionTrack(r: CaptionRow, canEdit: boolean): CaptionTrack {
  return { ...toCaptionSummary({ ...r, cue_count: r.cues.length }, canEdit), cues: r.cues };
}

/** A track in a video's list: without its cues. */
export function toCaptionSummary(
  r: Omit<CaptionRow, 'cues'> & { cue_count: number },
  canEdit: boolean,
): CaptionTrackSummary {
  return {
    id: r.id,
    media: r.media_id,
    language: r.language,
    label: r.label,
    cueCount: Number(r.cue_count),
    url: `/captions/${r.id}/track.vtt`,
    canEdit,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** One moment comment of a video of a shared artifact, for the exports. */
export interface MomentComment {
  id: number;
  author: string;
  start: number;
  end: number | null;
  text: string;
  createdAt: Date;
}

/** SQL for private notes, caption tracks and moments. */
export const momentRepository = {
  /** The notes of an artifact, by video then time. */
  async notes(db: Queryable, artifactId: number): Promise<Note[]> {
    const { rows } = await db.query<NoteRow>(
      `SELECT ${NOTE_COLUMNS} FROM artifact_notes WHERE artifact_id = $1 ORDER BY media_id, moment_start, moment_end NULLS FIRST, id`,
      [artifactId],
    );
    return rows.map(toNote);
  },

  /** One note with its owner, or `null`. */
  async findNote(db: Queryable, id: number): Promise<(Note & { ownerId: number }) | null> {
    const { rows } = await db.query<NoteRow>(`SELECT ${NOTE_COLUMNS} FROM artifact_notes WHERE id = $1`, [id]);
    return rows[0] ? { ...toNote(rows[0]), ownerId: rows[0].owner_id } : null;
  },

  async addNote(
    db: Queryable,
    input: { artifactId: number; ownerId: number; moment: StoredMoment; text: string },
  ): Promise<Note> {
    const { rows } = await db.query<NoteRow>(
      `INSERT INTO artifact_notes (artifact_id, media_id, owner_id, moment_start, moment_end, text)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${NOTE_COLUMNS}`,
      [input.artifactId, input.moment.mediaId, input.ownerId, input.moment.start, input.moment.end, input.text],
    );
    return toNote(rows[0]!);
  },

  /**
   * Under a lock on this video's notes of this artifact (held to the end of the transaction): how
   * many there are and their characters in all, leaving out note `except` (the one being changed).
   */
  async lockNoteTotals(
    tx: Queryable,
    artifactId: number,
    mediaId: number,
    except: number | null = null,
  ): Promise<{ count: number; chars: number }> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('artifact-notes:' || $1::text || ':' || $2::text))`, [
      artifactId,
      mediaId,
    ]);
    const { rows } = await tx.query<{ count: number; chars: number }>(
      `SELECT count(*)::int AS count, coalesce(sum(char_length(text)), 0)::int AS chars FROM artifact_notes
       WHERE artifact_id = $1 AND media_id = $2 AND id IS DISTINCT FROM $3`,
      [artifactId, mediaId, except],
    );
    return rows[0]!;
  },

  async updateNote(
    db: Queryable,
    id: number,
    change: { text: string; start: number; end: number | null },
  ): Promise<Note> {
    const { rows } = await db.query<NoteRow>(
      `UPDATE artifact_notes SET text = $2, moment_start = $3, moment_end = $4, updated_at = next_stamp(updated_at)
       WHERE id = $1 RETURNING ${NOTE_COLUMNS}`,
      [id, change.text, change.start, change.end],
    );
    return toNote(rows[0]!);
  },

  async deleteNote(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM artifact_notes WHERE id = $1', [id]);
  },

  /**
   * Turns the notes of a personal artifact into moment comments by `ownerId` on a shared
   * artifact (the same videos and times); only notes on videos the shared artifact holds.
   */
  async copyNotesAsComments(
    db: Queryable,
    artifactId: number,
    sharedArtifactId: number,
    ownerId: number,
  ): Promise<void> {
    await db.query(
      `INSERT INTO comments (shared_artifact_id, owner_id, text, updated_by, media_id, moment_start, moment_end)
       SELECT $2, $3, n.text, $3, n.media_id, n.moment_start, n.moment_end
       FROM artifact_notes n
       WHERE n.artifact_id = $1
         AND EXISTS (SELECT 1 FROM shared_artifact_media sm WHERE sm.shared_artifact_id = $2 AND sm.media_id = n.media_id)
       ORDER BY n.media_id, n.moment_start, n.id`,
      [artifactId, sharedArtifactId, ownerId],
    );
  },

  /** Whether comments or reactions of a shared artifact are placed at moments of one of its videos. */
  async hasMomentsOn(db: Queryable, sharedArtifactId: number, mediaId: number): Promise<boolean> {
    const { rows } = await db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM comments WHERE shared_artifact_id = $1 AND media_id = $2)
           OR EXISTS (SELECT 1 FROM reactions WHERE shared_artifact_id = $1 AND media_id = $2) AS found`,
      [sharedArtifactId, mediaId],
    );
    return rows[0]!.found;
  },

  /** The moment comments on one video of a shared artifact, by time. */
  async momentComments(db: Queryable, sharedArtifactId: number, mediaId: number): Promise<MomentComment[]> {
    const { rows } = await db.query<{
      id: number;
      username: string;
      moment_start: number;
      moment_end: number | null;
      text: string;
      created_at: Date;
    }>(
      `SELECT c.id, u.username, c.moment_start, c.moment_end, c.text, c.created_at
       FROM comments c JOIN users u ON u.id = c.owner_id
       WHERE c.shared_artifact_id = $1 AND c.media_id = $2
       ORDER BY c.moment_start, c.moment_end NULLS FIRST, c.created_at, c.id`,
      [sharedArtifactId, mediaId],
    );
    return rows.map((r) => ({
      id: r.id,
      author: r.username,
      start: Number(r.moment_start),
      end: r.moment_end === null ? null : Number(r.moment_end),
      text: r.text,
      createdAt: new Date(r.created_at),
    }));
  },

  /** The tracks of one video as one artifact holds them, by label, without their cues (counted, and their stored size). */
  async captions(
    db: Queryable,
    where: CaptionHolder,
    mediaId: number,
  ): Promise<(Omit<CaptionRow, 'cues'> & { cue_count: number; bytes: number })[]> {
    const { rows } = await db.query<Omit<CaptionRow, 'cues'> & { cue_count: number; bytes: number }>(
      `SELECT id, media_id, artifact_id, shared_artifact_id, created_by, language, label, created_at, updated_at,
         jsonb_array_length(cues) AS cue_count, octet_length(cues::text) AS bytes
       FROM caption_tracks WHERE ${HOLDER_COLUMN[where.holder]} = $1 AND media_id = $2 ORDER BY label, id`,
      [where.holderId, mediaId],
    );
    return rows;
  },

  async findCaption(db: Queryable, id: number): Promise<CaptionRow | null> {
    const { rows } = await db.query<CaptionRow>(`SELECT ${CAPTION_COLUMNS} FROM caption_tracks WHERE id = $1`, [id]);
    return rows[0] ?? null;
  },

  async addCaption(
    db: Queryable,
    input: { where: CaptionHolder; mediaId: number; language: string; label: string; cues: Cue[]; createdBy: number },
  ): Promise<CaptionRow> {
    const { rows } = await db.query<CaptionRow>(
      `INSERT INTO caption_tracks (${HOLDER_COLUMN[input.where.holder]}, media_id, language, label, cues, created_by)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING ${CAPTION_COLUMNS}`,
      [input.where.holderId, input.mediaId, input.language, input.label, json(input.cues), input.createdBy],
    );
    return rows[0]!;
  },

  async updateCaption(
    db: Queryable,
    id: number,
    input: { language: string; label: string; cues: Cue[] },
  ): Promise<CaptionRow> {
    const { rows } = await db.query<CaptionRow>(
      `UPDATE caption_tracks SET language = $2, label = $3, cues = $4::jsonb, updated_at = next_stamp(updated_at) WHERE id = $1 RETURNING ${CAPTION_COLUMNS}`,
      [id, input.language, input.label, json(input.cues)],
    );
    return rows[0]!;
  },

  async deleteCaption(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM caption_tracks WHERE id = $1', [id]);
  },
};
