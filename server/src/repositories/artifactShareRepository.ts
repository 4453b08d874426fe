import type { Queryable } from '../db/client.ts';
import { RESERVED_KEYS } from '#schemas/structure';

/** A comment as a personal artifact's owner sees it under a copy. */
export interface ShareComment {
  id: number;
  text: string;
  owner: { id: number; username: string };
  createdAt: Date;
}

/** SQL for the link from a personal artifact to its copies in shared portfolios. */
export const artifactShareRepository = {
  /** The shared portfolios and copies of a personal artifact, with their comment counts. */
  async sharesOf(
    db: Queryable,
    artifactId: number,
  ): Promise<
    { spId: number; spName: string; saId: number; title: string | null; sharedAt: Date; commentCount: number }[]
  > {
    const { rows } = await db.query<{
      sp_id: number;
      sp_name: string;
      sa_id: number;
      title: string | null;
      created_at: Date;
      comment_count: number;
    }>(
      `SELECT sp.id AS sp_id, sp.name AS sp_name, sa.id AS sa_id, sa.responses->>'${RESERVED_KEYS.title}' AS title, sa.created_at,
         (SELECT count(*)::int FROM comments c WHERE c.shared_artifact_id = sa.id) AS comment_count
       FROM shared_artifacts sa JOIN shared_portfolios sp ON sp.id = sa.shared_portfolio_id
       WHERE sa.source_artifact_id = $1 ORDER BY sa.created_at DESC, sa.id DESC`,
      [artifactId],
    );
    return rows.map((r) => ({
      spId: r.sp_id,
      spName: r.sp_name,
      saId: r.sa_id,
      title: r.title,
      sharedAt: r.created_at,
      commentCount: r.comment_count,
    }));
  },

  /** The latest three comments of each of these shared artifacts, newest first. */
  async latestComments(db: Queryable, sharedArtifactIds: readonly number[]): Promise<Map<number, ShareComment[]>> {
    const found = new Map<number, ShareComment[]>();
    if (sharedArtifactIds.length === 0) return found;
    const { rows } = await db.query<{
      shared_artifact_id: number;
      id: number;
      text: string;
      owner_id: number;
      username: string;
      created_at: Date;
    }>(
      `SELECT l.shared_artifact_id, l.id, l.text, l.owner_id, u.username, l.created_at
       FROM unnest($1::int[]) AS s(id)
       CROSS JOIN LATERAL (SELECT * FROM comments c WHERE c.shared_artifact_id = s.id ORDER BY c.created_at DESC, c.id DESC LIMIT 3) l
       JOIN users u ON u.id = l.owner_id
       ORDER BY l.shared_artifact_id, l.created_at DESC, l.id DESC`,
      [sharedArtifactIds],
    );
    for (const r of rows) {
      let list = found.get(r.shared_artifact_id);
      if (!list) found.set(r.shared_artifact_id, (list = []));
      list.push({ id: r.id, text: r.text, owner: { id: r.owner_id, username: r.username }, createdAt: r.created_at });
    }
    return found;
  },

  /** Records the personal artifact a new shared artifact was copied from. */
  async setSource(db: Queryable, sharedArtifactId: number, artifactId: number): Promise<void> {
    await db.query('UPDATE shared_artifacts SET source_artifact_id = $2 WHERE id = $1', [sharedArtifactId, artifactId]);
  },
};
