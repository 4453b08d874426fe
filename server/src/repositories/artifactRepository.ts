import type { Queryable } from '../db/client.ts';
import type { Artifact } from '#schemas/artifact';
import type { ArtifactBrief } from '#schemas/portfolio';
import { captionLetters } from '#schemas/media';
import type { Responses, Structure } from '#schemas/structure';
import { emptyMediaLists, mediaRepository } from './mediaRepository.ts';
import { iso, json } from './sql.ts';

/** An artifact row with what policies need: its portfolio and that portfolio's owner. */
export interface ArtifactRecord {
  id: number;
  portfolioId: number;
  ownerId: number | null;
  parkingLot: boolean;
  structure: Structure;
  responses: Responses;
  nextCaption: number;
  updatedAt: string;
  /** `false` until the first save: such an artifact is listed nowhere and removed when abandoned. */
  saved: boolean;
}

interface ArtifactRow {
  id: number;
  portfolio_id: number;
  structure: Structure;
  responses: Responses;
  parking_lot: boolean;
  next_caption: number;
  saved: boolean;
  created_at: Date;
  updated_at: Date;
  portfolio_grades: string[];
  owner_id: number | null;
  owner_username: string | null;
  owner_email: string | null;
  /** Comments on the artifact's copies in shared portfolios (the feedback that comes back to it). */
  comment_count: number;
}

/** Comments on the artifact's copies in shared portfolios. */
const COMMENT_COUNT = `(SELECT count(*)::int FROM shared_artifacts copy JOIN comments c ON c.shared_artifact_id = copy.id WHERE copy.source_artifact_id = a.id) AS comment_count`;

const SELECT = `SELECT a.id, a.portfolio_id, a.structure, a.responses, a.parking_lot, a.next_caption, a.saved, a.created_at, a.updated_at,
  p.grades AS portfolio_grades, u.id AS owner_id, u.username AS owner_username, u.email AS owner_email,
  ${COMMENT_COUNT}
  FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id LEFT JOIN users u ON u.id = p.owner_id`;

/** SQL for personal artifacts. */
export const artifactRepository = {
  /** The artifact with what policies need, or `null`. */
  async findRecord(db: Queryable, id: number): Promise<ArtifactRecord | null> {
    const { rows } = await db.query<{
      id: number;
      portfolio_id: number;
      owner_id: number | null;
      parking_lot: boolean;
      structure: Structure;
      responses: Responses;
      next_caption: number;
      updated_at: Date;
      saved: boolean;
    }>(
      `SELECT a.id, a.portfolio_id, p.owner_id, a.parking_lot, a.structure, a.responses, a.next_caption, a.updated_at, a.saved
       FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE a.id = $1`,
      [id],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          portfolioId: r.portfolio_id,
          ownerId: r.owner_id,
          parkingLot: r.parking_lot,
          structure: r.structure,
          responses: r.responses,
          nextCaption: r.next_caption,
          updatedAt: iso(r.updated_at),
          saved: r.saved,
        }
      : null;
  },

  /**
   * Full artifacts (with media) by id or by portfolio; three queries whatever the count. Lists
   * (by portfolio or owner) hold saved artifacts only; an artifact asked for by its id is given
   * whether saved or not (its own editor).
   */
  async load(
    db: Queryable,
    where: { ids?: readonly number[]; portfolioIds?: readonly number[]; ownerId?: number },
  ): Promise<Artifact[]> {
    const { rows } = await db.query<ArtifactRow>(
      `${SELECT} WHERE ($1::int[] IS NULL OR a.id = ANY($1::int[]))
         AND ($2::int[] IS NULL OR a.portfolio_id = ANY($2::int[]))
         AND ($3::int IS NULL OR p.owner_id = $3)
         AND ($1::int[] IS NOT NULL OR a.saved)
       ORDER BY a.created_at DESC, a.id DESC`,
      [where.ids ?? null, where.portfolioIds ?? null, where.ownerId ?? null],
    );
    const media = await mediaRepository.listFor(
      db,
      'artifact',
      rows.map((r) => r.id),
    );
    return rows.map((r) => {
      const lists = media.get(r.id) ?? emptyMediaLists();
      const owner = { id: r.owner_id ?? 0, username: r.owner_username ?? '', email: r.owner_email ?? '' };
      return {
        id: r.id,
        portfolio: { id: r.portfolio_id },
        parkingLot: r.parking_lot,
        created_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
        structure: r.structure,
        responses: r.responses,
        nextCaption: captionLetters(r.next_caption),
        owner,
        ownerUsername: owner.username,
        portfolioGrades: r.portfolio_grades,
        commentCount: r.comment_count,
        commentTexts: [],
        saved: r.saved,
        ...lists,
      };
    });
  },

  /**
   * The saved artifacts of a portfolio in brief (the web's table): one query, without the
   * structure and the files. Same order as `load`.
   */
  async briefs(db: Queryable, portfolioId: number): Promise<ArtifactBrief[]> {
    const { rows } = await db.query<
      Pick<
        ArtifactRow,
        'id' | 'responses' | 'parking_lot' | 'created_at' | 'updated_at' | 'owner_username' | 'comment_count'
      >
    >(
      `SELECT a.id, a.responses, a.parking_lot, a.created_at, a.updated_at, u.username AS owner_username, ${COMMENT_COUNT}
       FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id LEFT JOIN users u ON u.id = p.owner_id
       WHERE a.portfolio_id = $1 AND a.saved
       ORDER BY a.created_at DESC, a.id DESC`,
      [portfolioId],
    );
    return rows.map((r) => ({
      id: r.id,
      parkingLot: r.parking_lot,
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
      responses: r.responses,
      ownerUsername: r.owner_username ?? '',
      commentCount: r.comment_count,
      commentTexts: [],
    }));
  },

  /** Creates an artifact and returns its id; `saved: false` for one that is kept only once saved. */
  async create(
    db: Queryable,
    input: { portfolioId: number; structure: Structure; responses: Responses; parkingLot: boolean; saved?: boolean },
  ): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO artifacts (portfolio_id, structure, responses, parking_lot, saved) VALUES ($1, $2::jsonb, $3::jsonb, $4, $5) RETURNING id`,
      [input.portfolioId, json(input.structure), json(input.responses), input.parkingLot, input.saved ?? true],
    );
    return rows[0]!.id;
  },

  /** Replaces responses and the parking-lot flag; the artifact is saved from now on. */
  async update(db: Queryable, id: number, input: { responses: Responses; parkingLot: boolean }): Promise<void> {
    await db.query(
      `UPDATE artifacts SET responses = $2::jsonb, parking_lot = $3, saved = true, updated_at = next_stamp(updated_at) WHERE id = $1`,
      [id, json(input.responses), input.parkingLot],
    );
  },

  /** Never-saved artifacts created before `olderThanMs` ago (abandoned). */
  async abandonedIds(db: Queryable, olderThanMs: number): Promise<number[]> {
    const { rows } = await db.query<{ id: number }>(
      `SELECT id FROM artifacts WHERE NOT saved AND created_at < ms_now() - make_interval(secs => $1::double precision / 1000) ORDER BY id`,
      [olderThanMs],
    );
    return rows.map((r) => r.id);
  },

  /** The never-saved artifacts of a portfolio. */
  async unsavedIdsIn(db: Queryable, portfolioId: number): Promise<number[]> {
    const { rows } = await db.query<{ id: number }>(
      'SELECT id FROM artifacts WHERE portfolio_id = $1 AND NOT saved ORDER BY id',
      [portfolioId],
    );
    return rows.map((r) => r.id);
  },

  /** Records that the artifact changed (a file of it went): its `updated_at` moves on. */
  async touch(db: Queryable, id: number): Promise<void> {
    await db.query('UPDATE artifacts SET updated_at = next_stamp(updated_at) WHERE id = $1', [id]);
  },

  /** Deletes artifacts by id (their media links go with them). */
  async deleteMany(db: Queryable, ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await db.query('DELETE FROM artifacts WHERE id = ANY($1::int[])', [ids]);
  },

  /** Locks the artifact row for the rest of the transaction and returns its current state. */
  async lockRecord(db: Queryable, id: number): Promise<ArtifactRecord | null> {
    await db.query('SELECT id FROM artifacts WHERE id = $1 FOR UPDATE', [id]);
    return artifactRepository.findRecord(db, id);
  },
};
