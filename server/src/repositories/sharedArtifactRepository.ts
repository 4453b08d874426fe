import type { Queryable } from '../db/client.ts';
import { REACTION_VALUES } from '#schemas/catalog';
import { captionLetters } from '#schemas/media';
import type { SharedArtifact, SharedArtifactBrief } from '#schemas/sharedPortfolio';
import type { Responses, Structure } from '#schemas/structure';
import { emptyMediaLists, mediaRepository } from './mediaRepository.ts';
import { iso, json } from './sql.ts';
import { access } from './access.ts';

/** What policies and writes need of a shared artifact. */
export interface SharedArtifactRecord {
  id: number;
  sharedPortfolioId: number;
  ownerId: number;
  structure: Structure;
  responses: Responses;
  nextCaption: number;
  portfolioTopic: string | null;
  portfolioSubject: string | null;
  portfolioGrades: string[];
  updatedAt: Date;
  /** Who last saved the answers (`null`: not known). */
  updatedBy: { id: number; username: string } | null;
  lockCode: string | null;
  lockedUntil: Date | null;
  lockedBy: { id: number; username: string } | null;
  /** When the holder's continuous hold began (kept after the lock ends, to count the next one). */
  lockStartedAt: Date | null;
}

interface Row {
  id: number;
  shared_portfolio_id: number;
  owner_id: number;
  owner_username: string;
  owner_email: string;
  structure: Structure;
  responses: Responses;
  next_caption: number;
  portfolio_topic: string | null;
  portfolio_subject: string | null;
  portfolio_grades: string[];
  created_at: Date;
  updated_at: Date;
}

/** The columns of a shared artifact in brief. */
type BriefRow = Pick<
  Row,
  | 'id'
  | 'shared_portfolio_id'
  | 'owner_id'
  | 'owner_username'
  | 'owner_email'
  | 'responses'
  | 'portfolio_grades'
  | 'created_at'
  | 'updated_at'
>;

/** The comment texts (oldest first) and the emoji reacted with, of each of the shared artifacts `ids`. */
async function discussionFacts(
  db: Queryable,
  ids: readonly number[],
): Promise<{ texts: Map<number, string[]>; flags: Map<number, Set<string>> }> {
  const { rows: comments } = await db.query<{ shared_artifact_id: number; text: string }>(
    `SELECT shared_artifact_id, text FROM comments WHERE shared_artifact_id = ANY($1::int[]) ORDER BY created_at, id`,
    [ids],
  );
  const { rows: reactions } = await db.query<{ shared_artifact_id: number; value: string }>(
    `SELECT DISTINCT shared_artifact_id, value FROM reactions WHERE shared_artifact_id = ANY($1::int[])`,
    [ids],
  );
  const texts = new Map<number, string[]>();
  for (const c of comments) {
    let list = texts.get(c.shared_artifact_id);
    if (!list) texts.set(c.shared_artifact_id, (list = []));
    list.push(c.text);
  }
  const flags = new Map<number, Set<string>>();
  for (const r of reactions) {
    let set = flags.get(r.shared_artifact_id);
    if (!set) flags.set(r.shared_artifact_id, (set = new Set()));
    set.add(r.value);
  }
  return { texts, flags };
}

/** A shared artifact in brief from its row and the facts of its discussion. */
function briefOf(
  r: BriefRow,
  texts: ReadonlyMap<number, string[]>,
  flags: ReadonlyMap<number, Set<string>>,
): SharedArtifactBrief {
  const commentTexts = texts.get(r.id) ?? [];
  const present = flags.get(r.id) ?? new Set<string>();
  return {
    id: r.id,
    sharedPortfolio: { id: r.shared_portfolio_id },
    parkingLot: false,
    owner: { id: r.owner_id, username: r.owner_username, email: r.owner_email },
    ownerUsername: r.owner_username,
    responses: r.responses,
    portfolioGrades: r.portfolio_grades,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    commentCount: commentTexts.length,
    commentTexts,
    reactions: Object.fromEntries(REACTION_VALUES.map((v) => [v, present.has(v)])),
  };
}

const SELECT = `SELECT sa.id, sa.shared_portfolio_id, sa.owner_id, u.username AS owner_username, u.email AS owner_email,
  sa.structure, sa.responses, sa.next_caption, sa.portfolio_topic, sa.portfolio_subject, sa.portfolio_grades, sa.created_at, sa.updated_at
  FROM shared_artifacts sa JOIN users u ON u.id = sa.owner_id`;

/** SQL for shared artifacts (their comments and reactions: `discussionRepository`). */
export const sharedArtifactRepository = {
  /** The artifact with what policies need, or `null`. */
  async findRecord(db: Queryable, id: number, lock = false): Promise<SharedArtifactRecord | null> {
    const { rows } = await db.query<{
      id: number;
      shared_portfolio_id: number;
      owner_id: number;
      structure: Structure;
      responses: Responses;
      next_caption: number;
      portfolio_topic: string | null;
      portfolio_subject: string | null;
      portfolio_grades: string[];
      updated_at: Date;
      updated_by: number | null;
      updated_by_username: string | null;
      lock_code: string | null;
      locked_until: Date | null;
      locked_by: number | null;
      locked_by_username: string | null;
      lock_started_at: Date | null;
    }>(
      `SELECT sa.id, sa.shared_portfolio_id, sa.owner_id, sa.structure, sa.responses, sa.next_caption, sa.portfolio_topic,
         sa.portfolio_subject, sa.portfolio_grades, sa.updated_at, sa.updated_by, u.username AS updated_by_username, sa.lock_code, sa.locked_until,
         sa.locked_by, l.username AS locked_by_username, sa.lock_started_at
       FROM shared_artifacts sa LEFT JOIN users l ON l.id = sa.locked_by LEFT JOIN users u ON u.id = sa.updated_by WHERE sa.id = $1${lock ? ' FOR UPDATE OF sa' : ''}`,
      [id],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      sharedPortfolioId: r.shared_portfolio_id,
      ownerId: r.owner_id,
      structure: r.structure,
      responses: r.responses,
      nextCaption: r.next_caption,
      portfolioTopic: r.portfolio_topic,
      portfolioSubject: r.portfolio_subject,
      portfolioGrades: r.portfolio_grades,
      updatedAt: new Date(r.updated_at),
      updatedBy: r.updated_by !== null ? { id: r.updated_by, username: r.updated_by_username ?? '' } : null,
      lockCode: r.lock_code,
      lockedUntil: r.locked_until ? new Date(r.locked_until) : null,
      lockedBy: r.locked_by !== null ? { id: r.locked_by, username: r.locked_by_username ?? '' } : null,
      lockStartedAt: r.lock_started_at ? new Date(r.lock_started_at) : null,
    };
  },

  /**
   * Full shared artifacts (media, comment counts and texts, reaction flags): by ids, by shared
   * portfolios, or those of the portfolios a user belongs to. Five queries whatever the count.
   */
  async load(
    db: Queryable,
    where: { ids?: readonly number[]; portfolioIds?: readonly number[]; memberId?: number },
  ): Promise<SharedArtifact[]> {
    const { rows } = await db.query<Row>(
      `${SELECT} WHERE ($1::int[] IS NULL OR sa.id = ANY($1::int[]))
         AND ($2::int[] IS NULL OR sa.shared_portfolio_id = ANY($2::int[]))
         AND ${access.memberFilter('sa.shared_portfolio_id', '$3')}
       ORDER BY sa.created_at DESC, sa.id DESC`,
      [where.ids ?? null, where.portfolioIds ?? null, where.memberId ?? null],
    );
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return [];
    const media = await mediaRepository.listFor(db, 'sharedArtifact', ids);
    const { texts, flags } = await discussionFacts(db, ids);
    return rows.map((r) => {
      const brief = briefOf(r, texts, flags);
      return {
        ...brief,
        structure: r.structure,
        nextCaption: captionLetters(r.next_caption),
        portfolioTopic: r.portfolio_topic,
        portfolioSubject: r.portfolio_subject,
        ...(media.get(r.id) ?? emptyMediaLists()),
      };
    });
  },

  /**
   * The shared artifacts of a shared portfolio in brief (the web's table): without the structure
   * and the files. Three queries whatever the count; same order as `load`.
   */
  async briefs(db: Queryable, sharedPortfolioId: number): Promise<SharedArtifactBrief[]> {
    const { rows } = await db.query<BriefRow>(
      `SELECT sa.id, sa.shared_portfolio_id, sa.owner_id, u.username AS owner_username, u.email AS owner_email,
         sa.responses, sa.portfolio_grades, sa.created_at, sa.updated_at
       FROM shared_artifacts sa JOIN users u ON u.id = sa.owner_id
       WHERE sa.shared_portfolio_id = $1
       ORDER BY sa.created_at DESC, sa.id DESC`,
      [sharedPortfolioId],
    );
    if (rows.length === 0) return [];
    const { texts, flags } = await discussionFacts(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => briefOf(r, texts, flags));
  },

  /** Creates a shared artifact (a copy); returns its id. */
  async create(
    db: Queryable,
    input: {
      sharedPortfolioId: number;
      ownerId: number;
      structure: Structure;
      responses: Responses;
      nextCaption: number;
      portfolioTopic: string | null;
      portfolioSubject: string | null;
      portfolioGrades: readonly string[];
    },
  ): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO shared_artifacts (shared_portfolio_id, owner_id, structure, responses, next_caption, portfolio_topic, portfolio_subject, portfolio_grades)
       VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8::jsonb) RETURNING id`,
      [
        input.sharedPortfolioId,
        input.ownerId,
        json(input.structure),
        json(input.responses),
        input.nextCaption,
        input.portfolioTopic,
        input.portfolioSubject,
        json(input.portfolioGrades),
      ],
    );
    return rows[0]!.id;
  },

  /** Replaces the responses, records who saved them and moves `updated_at` strictly forward. */
  async updateResponses(db: Queryable, id: number, responses: Responses, by: number): Promise<Date> {
    const { rows } = await db.query<{ updated_at: Date }>(
      `UPDATE shared_artifacts SET responses = $2::jsonb, updated_by = $3, updated_at = next_stamp(updated_at) WHERE id = $1 RETURNING updated_at`,
      [id, json(responses), by],
    );
    return rows[0]!.updated_at;
  },

  /** Deletes the artifact if it has no comments and no reactions; returns whether it did. */
  async deleteIfQuiet(db: Queryable, id: number): Promise<boolean> {
    const { rows } = await db.query<{ id: number }>(
      `DELETE FROM shared_artifacts sa WHERE sa.id = $1
         AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.shared_artifact_id = sa.id)
         AND NOT EXISTS (SELECT 1 FROM reactions r WHERE r.shared_artifact_id = sa.id)
       RETURNING sa.id`,
      [id],
    );
    return rows.length > 0;
  },

  /** Sets or clears the advisory edit lock (does not touch `updated_at`). */
  async setLock(
    db: Queryable,
    id: number,
    lock: { code: string; until: Date; by: number; startedAt: Date },
  ): Promise<void> {
    await db.query(
      `UPDATE shared_artifacts SET lock_code = $2, locked_until = $3, locked_by = $4, lock_started_at = $5 WHERE id = $1`,
      [id, lock.code, lock.until, lock.by, lock.startedAt],
    );
  },

  /** Ends the lock now; who held it and since when are kept (they count for that holder's next lock). */
  async endLock(db: Queryable, id: number): Promise<void> {
    await db.query(
      `UPDATE shared_artifacts SET lock_code = NULL, locked_until = LEAST(locked_until, ms_now()) WHERE id = $1`,
      [id],
    );
  },

  /** Remembers that the user read or acknowledged this version of the artifact (never going back). */
  async markSeen(db: Queryable, userId: number, artifactId: number, version: Date): Promise<void> {
    await db.query(
      `INSERT INTO shared_artifact_versions_seen (user_id, shared_artifact_id, version) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, shared_artifact_id) DO UPDATE
         SET version = GREATEST(shared_artifact_versions_seen.version, EXCLUDED.version), seen_at = now()`,
      [userId, artifactId, version],
    );
  },

  /** The version the user last read or acknowledged, or `null`. */
  async seenVersion(db: Queryable, userId: number, artifactId: number): Promise<Date | null> {
    const { rows } = await db.query<{ version: Date }>(
      'SELECT version FROM shared_artifact_versions_seen WHERE user_id = $1 AND shared_artifact_id = $2',
      [userId, artifactId],
    );
    return rows[0]?.version ?? null;
  },
};
