import { principalChanges } from '../db/changes.ts';
import type { Queryable } from '../db/client.ts';

/** SQL for server-side sessions (one row per sign-in). */
export const sessionRepository = {
  /** Starts a session that ends at the latest after `absoluteSeconds`. */
  async start(db: Queryable, input: { id: string; userId: number; absoluteSeconds: number }): Promise<Date> {
    const { rows } = await db.query<{ expires_at: Date }>(
      `INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING expires_at`,
      [input.id, input.userId, input.absoluteSeconds],
    );
    return new Date(rows[0]!.expires_at);
  },

  /** When the user's session ends, if it is still open; `null` otherwise. */
  async openUntil(db: Queryable, id: string, userId: number): Promise<Date | null> {
    const { rows } = await db.query<{ expires_at: Date }>(
      'SELECT expires_at FROM sessions WHERE id = $1 AND user_id = $2 AND ended_at IS NULL AND expires_at > now()',
      [id, userId],
    );
    return rows[0] ? new Date(rows[0].expires_at) : null;
  },

  /** Ends one session now. */
  async end(db: Queryable, id: string): Promise<void> {
    await db.query('UPDATE sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL', [id]);
    principalChanges.session(id);
  },

  /** Deletes sessions that ended or expired more than a day ago. */
  async prune(db: Queryable): Promise<void> {
    await db.query(`DELETE FROM sessions WHERE coalesce(ended_at, expires_at) < now() - interval '1 day'`);
  },
};
