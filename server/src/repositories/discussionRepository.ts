import type { Queryable } from '../db/client.ts';
import type { Comment, Reaction } from '#schemas/sharedArtifact';
import type { StoredMoment } from './momentRepository.ts';
import { iso } from './sql.ts';

/** The columns of the populated `owner` and `sharedArtifact` of a comment (`c`) or reaction (`r`). */
const discussionColumns = (t: 'c' | 'r') => `${t}.owner_id, u.username, u.email, ${t}.shared_artifact_id,
  sa.shared_portfolio_id, sa.owner_id AS sa_owner_id, sa.created_at AS sa_created_at, sa.updated_at AS sa_updated_at`;
const discussionJoins = (t: 'c' | 'r') =>
  `JOIN users u ON u.id = ${t}.owner_id JOIN shared_artifacts sa ON sa.id = ${t}.shared_artifact_id`;

const COMMENT_SELECT = `SELECT c.id, c.text, ${discussionColumns('c')}, c.created_at, c.updated_at, c.updated_by,
  c.media_id, c.moment_start, c.moment_end
  FROM comments c ${discussionJoins('c')}`;
const REACTION_SELECT = `SELECT r.id, r.value, ${discussionColumns('r')}, r.created_at, r.updated_at,
  r.media_id, r.moment_start, r.moment_end
  FROM reactions r ${discussionJoins('r')}`;

interface DiscussionRow {
  id: number;
  owner_id: number;
  username: string;
  email: string;
  shared_artifact_id: number;
  shared_portfolio_id: number;
  sa_owner_id: number;
  sa_created_at: Date;
  sa_updated_at: Date;
  created_at: Date;
  updated_at: Date;
  media_id: number | null;
  moment_start: number | null;
  moment_end: number | null;
}

/** The moment a comment or reaction is anchored to, or `null` for the whole artifact. */
function momentOf(r: DiscussionRow): Comment['moment'] {
  if (r.media_id === null || r.moment_start === null) return null;
  return { media: r.media_id, start: Number(r.moment_start), end: r.moment_end === null ? null : Number(r.moment_end) };
}

interface CommentRow extends DiscussionRow {
  text: string;
  updated_by: number | null;
}

/** `owner` and `sharedArtifact` as the mobile apps read them (maps). */
function populated(r: DiscussionRow): Pick<Comment, 'owner' | 'sharedArtifact'> {
  return {
    owner: { id: r.owner_id, username: r.username, email: r.email },
    sharedArtifact: {
      id: r.shared_artifact_id,
      sharedPortfolio: r.shared_portfolio_id,
      owner: r.sa_owner_id,
      created_at: iso(r.sa_created_at),
      updated_at: iso(r.sa_updated_at),
    },
  };
}

function toComment(r: CommentRow): Comment {
  return {
    id: r.id,
    text: r.text,
    ...populated(r),
    username: r.username,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    updated_by: r.updated_by,
    moment: momentOf(r),
  };
}

interface ReactionRow extends DiscussionRow {
  value: string;
}

function toReaction(r: ReactionRow): Reaction {
  return {
    id: r.id,
    value: r.value,
    ...populated(r),
    created_by: r.owner_id,
    updated_by: r.owner_id,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    moment: momentOf(r),
  };
}

/** SQL for the comments and reactions on shared artifacts. */
export const discussionRepository = {
  /** The comments of an artifact, oldest first. */
  async comments(db: Queryable, artifactId: number): Promise<Comment[]> {
    const { rows } = await db.query<CommentRow>(
      `${COMMENT_SELECT} WHERE c.shared_artifact_id = $1 ORDER BY c.created_at, c.id`,
      [artifactId],
    );
    return rows.map(toComment);
  },

  /** The reactions of an artifact. */
  async reactions(db: Queryable, artifactId: number): Promise<Reaction[]> {
    const { rows } = await db.query<ReactionRow>(`${REACTION_SELECT} WHERE r.shared_artifact_id = $1 ORDER BY r.id`, [
      artifactId,
    ]);
    return rows.map(toReaction);
  },

  /** Comments on artifacts of shared portfolios the user belongs to. */
  async commentsForMember(db: Queryable, userId: number): Promise<Comment[]> {
    const { rows } = await db.query<CommentRow>(
      `${COMMENT_SELECT}
       JOIN shared_portfolio_members m ON m.shared_portfolio_id = sa.shared_portfolio_id AND m.user_id = $1
       ORDER BY c.created_at, c.id`,
      [userId],
    );
    return rows.map(toComment);
  },

  /** Reactions on artifacts of shared portfolios the user belongs to. */
  async reactionsForMember(db: Queryable, userId: number): Promise<Reaction[]> {
    const { rows } = await db.query<ReactionRow>(
      `${REACTION_SELECT}
       JOIN shared_portfolio_members m ON m.shared_portfolio_id = sa.shared_portfolio_id AND m.user_id = $1
       ORDER BY r.id`,
      [userId],
    );
    return rows.map(toReaction);
  },

  /** One comment with its artifact's shared portfolio, or `null`. */
  async findComment(db: Queryable, id: number): Promise<(Comment & { sharedPortfolioId: number }) | null> {
    const { rows } = await db.query<CommentRow>(`${COMMENT_SELECT} WHERE c.id = $1`, [id]);
    return rows[0] ? { ...toComment(rows[0]), sharedPortfolioId: rows[0].shared_portfolio_id } : null;
  },

  /** Adds a comment (at a moment of a video, when given); returns its id. */
  async addComment(
    db: Queryable,
    artifactId: number,
    ownerId: number,
    text: string,
    moment: StoredMoment | null = null,
  ): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO comments (shared_artifact_id, owner_id, text, updated_by, media_id, moment_start, moment_end)
       VALUES ($1, $2, $3, $2, $4, $5, $6) RETURNING id`,
      [artifactId, ownerId, text, moment?.mediaId ?? null, moment?.start ?? null, moment?.end ?? null],
    );
    return rows[0]!.id;
  },

  /** Changes a comment's text, and its moment unless `moment` is `undefined` (`null`: the whole artifact). */
  async editComment(db: Queryable, id: number, text: string, by: number, moment?: StoredMoment | null): Promise<void> {
    if (moment === undefined) {
      await db.query(
        `UPDATE comments SET text = $2, updated_by = $3, updated_at = next_stamp(updated_at) WHERE id = $1`,
        [id, text, by],
      );
      return;
    }
    await db.query(
      `UPDATE comments SET text = $2, updated_by = $3, updated_at = next_stamp(updated_at), media_id = $4, moment_start = $5, moment_end = $6
       WHERE id = $1`,
      [id, text, by, moment?.mediaId ?? null, moment?.start ?? null, moment?.end ?? null],
    );
  },

  /** Deletes a comment. */
  async deleteComment(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM comments WHERE id = $1', [id]);
  },

  /** How many comments the artifacts of a shared portfolio have. */
  async portfolioCommentCount(db: Queryable, sharedPortfolioId: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM comments c JOIN shared_artifacts sa ON sa.id = c.shared_artifact_id WHERE sa.shared_portfolio_id = $1`,
      [sharedPortfolioId],
    );
    return rows[0]!.n;
  },

  /**
   * Adds the user's reaction (or finds the one they already have): on the whole artifact one per
   * value; at a moment one per value, video and start time.
   */
  async addReaction(
    db: Queryable,
    artifactId: number,
    ownerId: number,
    value: string,
    moment: StoredMoment | null = null,
  ): Promise<Reaction> {
    if (moment === null) {
      await db.query(
        `INSERT INTO reactions (shared_artifact_id, owner_id, value) VALUES ($1, $2, $3)
         ON CONFLICT (shared_artifact_id, owner_id, value) WHERE media_id IS NULL DO NOTHING`,
        [artifactId, ownerId, value],
      );
      const { rows } = await db.query<ReactionRow>(
        `${REACTION_SELECT} WHERE r.shared_artifact_id = $1 AND r.owner_id = $2 AND r.value = $3 AND r.media_id IS NULL`,
        [artifactId, ownerId, value],
      );
      return toReaction(rows[0]!);
    }
    await db.query(
      `INSERT INTO reactions (shared_artifact_id, owner_id, value, media_id, moment_start, moment_end) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (shared_artifact_id, owner_id, value, media_id, moment_start) WHERE media_id IS NOT NULL DO NOTHING`,
      [artifactId, ownerId, value, moment.mediaId, moment.start, moment.end],
    );
    const { rows } = await db.query<ReactionRow>(
      `${REACTION_SELECT} WHERE r.shared_artifact_id = $1 AND r.owner_id = $2 AND r.value = $3 AND r.media_id = $4 AND r.moment_start = $5`,
      [artifactId, ownerId, value, moment.mediaId, moment.start],
    );
    return toReaction(rows[0]!);
  },

  /** One reaction with its artifact's shared portfolio, or `null`. */
  async findReaction(db: Queryable, id: number): Promise<(Reaction & { sharedPortfolioId: number }) | null> {
    const { rows } = await db.query<ReactionRow>(`${REACTION_SELECT} WHERE r.id = $1`, [id]);
    return rows[0] ? { ...toReaction(rows[0]), sharedPortfolioId: rows[0].shared_portfolio_id } : null;
  },

  /** Deletes a reaction. */
  async deleteReaction(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM reactions WHERE id = $1', [id]);
  },
};
