import type { Queryable } from '../../db/client.ts';
import type { Responses, Structure } from '#schemas/structure';
import { HOLDER_LINKS, stamps, type FileHolder, type StampColumns } from './mappers.ts';
import type { StoredVersionRow } from './researchVersionRows.ts';

/** A stored version as the archive reads it: with its author's user name (`null`: none, or gone). */
export interface ArchiveVersionRow extends StoredVersionRow {
  author: string | null;
}

// What a teacher's archive holds, read for one teacher: her portfolios and their artifacts, her
// shared artifacts with their comments, and the files and caption tracks of all of them.

/** A file of an artifact as the archive reads it. */
export interface ArchiveMediaRow {
  holderId: number;
  id: number;
  kind: 'image' | 'video' | 'document';
  name: string;
  storageKey: string;
  ext: string;
  mime: string;
  size: number;
  caption: string;
  alt: string;
  description: string;
}

/** A personal portfolio of the teacher. */
export interface ArchivePortfolioRow {
  id: number;
  name: string;
  subject: string | null;
  topic: string | null;
  grades: string[];
  structure: Structure;
  createdAt: string;
  updatedAt: string;
}

/** A saved artifact of one of her portfolios. */
export interface ArchiveArtifactRow {
  id: number;
  portfolioId: number;
  structure: Structure;
  responses: Responses;
  parkingLot: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A shared artifact she owns, with its shared portfolio. */
export interface ArchiveSharedArtifactRow {
  id: number;
  sharedPortfolioId: number;
  sharedPortfolioName: string;
  structure: Structure;
  responses: Responses;
  createdAt: string;
  updatedAt: string;
}

/** A comment on one of her shared artifacts. */
export interface ArchiveCommentRow {
  id: number;
  sharedArtifactId: number;
  author: string;
  text: string;
  createdAt: string;
  updatedAt: string;
  mediaId: number | null;
  momentStart: number | null;
  momentEnd: number | null;
}

/** The captions of one video of one artifact, in one language. */
export interface ArchiveCaptionTrack {
  holderId: number;
  mediaId: number;
  language: string;
  cues: { start: number; end: number; text: string }[];
}

/** SQL for the teacher's own work that her archive is built from. */
export const archiveContentRepository = {
  /** The teacher's user name and e-mail, or `null`. */
  async owner(db: Queryable, ownerId: number): Promise<{ username: string; email: string } | null> {
    const { rows } = await db.query<{ username: string; email: string }>(
      'SELECT username, email FROM users WHERE id = $1',
      [ownerId],
    );
    return rows[0] ?? null;
  },

  /** Her personal portfolios, by name. */
  async portfolios(db: Queryable, ownerId: number): Promise<ArchivePortfolioRow[]> {
    const { rows } = await db.query<
      StampColumns & {
        id: number;
        name: string;
        subject: string | null;
        topic: string | null;
        grades: string[];
        structure: Structure;
      }
    >(
      `SELECT id, name, subject, topic, grades, structure, created_at, updated_at FROM portfolios
       WHERE owner_id = $1 ORDER BY lower(name), id`,
      [ownerId],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      subject: r.subject,
      topic: r.topic,
      grades: r.grades,
      structure: r.structure,
      ...stamps(r),
    }));
  },

  /** The saved artifacts of one portfolio, oldest first. */
  async artifacts(db: Queryable, portfolioId: number): Promise<ArchiveArtifactRow[]> {
    const { rows } = await db.query<
      StampColumns & {
        id: number;
        portfolio_id: number;
        structure: Structure;
        responses: Responses;
        parking_lot: boolean;
      }
    >(
      `SELECT id, portfolio_id, structure, responses, parking_lot, created_at, updated_at FROM artifacts
       WHERE portfolio_id = $1 AND saved ORDER BY created_at, id`,
      [portfolioId],
    );
    return rows.map((r) => ({
      id: r.id,
      portfolioId: r.portfolio_id,
      structure: r.structure,
      responses: r.responses,
      parkingLot: r.parking_lot,
      ...stamps(r),
    }));
  },

  /** The shared artifacts she owns, by shared portfolio, oldest first. */
  async sharedArtifacts(db: Queryable, ownerId: number): Promise<ArchiveSharedArtifactRow[]> {
    const { rows } = await db.query<
      StampColumns & {
        id: number;
        shared_portfolio_id: number;
        shared_portfolio_name: string;
        structure: Structure;
        responses: Responses;
      }
    >(
      `SELECT sa.id, sa.shared_portfolio_id, sp.name AS shared_portfolio_name, sa.structure, sa.responses, sa.created_at, sa.updated_at
       FROM shared_artifacts sa JOIN shared_portfolios sp ON sp.id = sa.shared_portfolio_id
       WHERE sa.owner_id = $1 ORDER BY lower(sp.name), sp.id, sa.created_at, sa.id`,
      [ownerId],
    );
    return rows.map((r) => ({
      id: r.id,
      sharedPortfolioId: r.shared_portfolio_id,
      sharedPortfolioName: r.shared_portfolio_name,
      structure: r.structure,
      responses: r.responses,
      ...stamps(r),
    }));
  },

  /** The comments on the given shared artifacts with their authors' user names, oldest first. */
  async comments(db: Queryable, sharedArtifactIds: readonly number[]): Promise<ArchiveCommentRow[]> {
    if (sharedArtifactIds.length === 0) return [];
    const { rows } = await db.query<
      StampColumns & {
        id: number;
        shared_artifact_id: number;
        author: string;
        text: string;
        media_id: number | null;
        moment_start: number | null;
        moment_end: number | null;
      }
    >(
      `SELECT c.id, c.shared_artifact_id, u.username AS author, c.text, c.created_at, c.updated_at, c.media_id, c.moment_start, c.moment_end
       FROM comments c JOIN users u ON u.id = c.owner_id
       WHERE c.shared_artifact_id = ANY($1::int[]) ORDER BY c.created_at, c.id`,
      [sharedArtifactIds],
    );
    return rows.map((r) => ({
      id: r.id,
      sharedArtifactId: r.shared_artifact_id,
      author: r.author,
      text: r.text,
      ...stamps(r),
      mediaId: r.media_id,
      momentStart: r.moment_start,
      momentEnd: r.moment_end,
    }));
  },

  /** The caption tracks of the videos of these artifacts (each artifact holds its own), by language. */
  async captionTracks(db: Queryable, holder: FileHolder, holderIds: readonly number[]): Promise<ArchiveCaptionTrack[]> {
    if (holderIds.length === 0) return [];
    const { fk } = HOLDER_LINKS[holder];
    const { rows } = await db.query<{
      holder_id: number;
      media_id: number;
      language: string;
      cues: { start: number; end: number; text: string }[];
    }>(
      `SELECT ${fk} AS holder_id, media_id, language, cues FROM caption_tracks WHERE ${fk} = ANY($1::int[]) ORDER BY lower(language), id`,
      [holderIds],
    );
    return rows.map((r) => ({ holderId: r.holder_id, mediaId: r.media_id, language: r.language, cues: r.cues }));
  },

  /** The files of personal (`artifact`) or shared artifacts, in caption order. */
  async media(db: Queryable, holder: FileHolder, holderIds: readonly number[]): Promise<ArchiveMediaRow[]> {
    if (holderIds.length === 0) return [];
    const { links, fk } = HOLDER_LINKS[holder];
    const { rows } = await db.query<{
      holder_id: number;
      id: number;
      kind: 'image' | 'video' | 'document';
      name: string;
      storage_key: string;
      ext: string;
      mime: string;
      size: number;
      caption: string;
      alt: string;
      description: string;
    }>(
      `SELECT l.${fk} AS holder_id, m.id, m.kind, m.name, m.storage_key, m.ext, m.mime, m.size, l.caption, l.alt, l.description
       FROM ${links} l JOIN media_files m ON m.id = l.media_id
       WHERE l.${fk} = ANY($1::int[]) ORDER BY length(l.caption), l.caption`,
      [holderIds],
    );
    return rows.map((r) => ({
      holderId: r.holder_id,
      id: r.id,
      kind: r.kind,
      name: r.name,
      storageKey: r.storage_key,
      ext: r.ext,
      mime: r.mime,
      size: Number(r.size),
      caption: r.caption,
      alt: r.alt,
      description: r.description,
    }));
  },

  /** How many saved artifacts her portfolios hold, and the distinct files of all her work (count and bytes). */
  async totals(db: Queryable, ownerId: number): Promise<{ artifacts: number; media: number; bytes: number }> {
    const { rows } = await db.query<{ artifacts: number; media: number; bytes: number }>(
      `WITH mine AS (
         SELECT am.media_id FROM artifact_media am JOIN artifacts a ON a.id = am.artifact_id JOIN portfolios p ON p.id = a.portfolio_id
         WHERE p.owner_id = $1 AND a.saved
         UNION
         SELECT sam.media_id FROM shared_artifact_media sam JOIN shared_artifacts sa ON sa.id = sam.shared_artifact_id WHERE sa.owner_id = $1)
       SELECT (SELECT count(*)::int FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE p.owner_id = $1 AND a.saved) AS artifacts,
              count(m.id)::int AS media, coalesce(sum(m.size), 0)::bigint AS bytes
       FROM mine JOIN media_files m ON m.id = mine.media_id`,
      [ownerId],
    );
    const r = rows[0];
    return { artifacts: r?.artifacts ?? 0, media: r?.media ?? 0, bytes: Number(r?.bytes ?? 0) };
  },

  /** The histories of artifacts (decision 049's versions), artifact by artifact in number order. */
  async versions(db: Queryable, holder: FileHolder, holderIds: readonly number[]): Promise<ArchiveVersionRow[]> {
    if (holderIds.length === 0) return [];
    const { fk } = HOLDER_LINKS[holder];
    const { rows } = await db.query<ArchiveVersionRow>(
      `SELECT v.${fk} AS holder_id, v.number, v.author_id, u.username AS author, v.client, v.restored_from,
         v.full_answers, v.answers, v.changed, v.files, v.created_at
       FROM artifact_versions v LEFT JOIN users u ON u.id = v.author_id
       WHERE v.${fk} = ANY($1::int[]) ORDER BY v.${fk}, v.number`,
      [holderIds],
    );
    return rows;
  },
};
