import type { Queryable } from '../db/client.ts';

/** A counter of requests in a window: how many so far, and in how many milliseconds the window ends. */
export interface WindowCount {
  count: number;
  ttlMs: number;
}

export const rateLimitRepository = {
  /** Counts one more request for `key` in its window of `windowMs` (a new window once the last one ended). */
  async increment(db: Queryable, key: string, windowMs: number): Promise<WindowCount> {
    const { rows } = await db.query<{ count: number; ttl_ms: number }>(
      `INSERT INTO rate_limit_counters AS c (key, count, window_ends)
       VALUES ($1, 1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN c.window_ends <= now() THEN 1 ELSE c.count + 1 END,
         window_ends = CASE WHEN c.window_ends <= now() THEN excluded.window_ends ELSE c.window_ends END
       RETURNING c.count, greatest(0, ceil(extract(epoch FROM c.window_ends - now()) * 1000))::int AS ttl_ms`,
      [key, windowMs],
    );
    return { count: rows[0]!.count, ttlMs: rows[0]!.ttl_ms };
  },

  /** The counter of `key` without counting (0 outside a window). */
  async read(db: Queryable, key: string): Promise<WindowCount> {
    const { rows } = await db.query<{ count: number; ttl_ms: number }>(
      `SELECT count, greatest(0, ceil(extract(epoch FROM window_ends - now()) * 1000))::int AS ttl_ms
       FROM rate_limit_counters WHERE key = $1 AND window_ends > now()`,
      [key],
    );
    return rows[0] ? { count: rows[0].count, ttlMs: rows[0].ttl_ms } : { count: 0, ttlMs: 0 };
  },

  /** Forgets windows that ended (housekeeping). */
  async prune(db: Queryable): Promise<void> {
    await db.query('DELETE FROM rate_limit_counters WHERE window_ends < now()');
  },
};
