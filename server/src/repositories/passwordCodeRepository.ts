import type { Queryable } from '../db/client.ts';

export type CodePurpose = 'reset' | 'welcome';

/** SQL for one-time password codes (only their hashes are stored). */
export const passwordCodeRepository = {
  /** Stores a new code for the user, valid for `ttlSeconds`. */
  async create(
    db: Queryable,
    input: { userId: number; hash: string; purpose: CodePurpose; ttlSeconds: number },
  ): Promise<void> {
    await db.query(
      `INSERT INTO password_codes (user_id, code_hash, purpose, expires_at)
       VALUES ($1, $2, $3, ms_now() + make_interval(secs => $4))`,
      [input.userId, input.hash, input.purpose, input.ttlSeconds],
    );
  },

  /** The user of an unused, unexpired code with this hash (looked at before the costly hashing); `null` otherwise. */
  async usableFor(db: Queryable, hash: string): Promise<number | null> {
    const { rows } = await db.query<{ user_id: number }>(
      `SELECT user_id FROM password_codes WHERE code_hash = $1 AND used_at IS NULL AND expires_at > ms_now()`,
      [hash],
    );
    return rows[0]?.user_id ?? null;
  },

  /** Voids one code (too many refused attempts with it). */
  async voidCode(db: Queryable, hash: string): Promise<void> {
    await db.query(`UPDATE password_codes SET used_at = ms_now() WHERE code_hash = $1 AND used_at IS NULL`, [hash]);
  },

  /**
   * Uses up the code with this hash if it is unused and unexpired, and returns its user id.
   * The row is locked, so two requests cannot both use one code.
   */
  async consume(db: Queryable, hash: string): Promise<number | null> {
    const { rows } = await db.query<{ user_id: number }>(
      `UPDATE password_codes SET used_at = ms_now()
       WHERE code_hash = $1 AND used_at IS NULL AND expires_at > ms_now()
       RETURNING user_id`,
      [hash],
    );
    return rows[0]?.user_id ?? null;
  },

  /** Voids every other open code of the user (after a password is set). */
  async voidAllFor(db: Queryable, userId: number): Promise<void> {
    await db.query(`UPDATE password_codes SET used_at = ms_now() WHERE user_id = $1 AND used_at IS NULL`, [userId]);
  },

  /** Deletes codes that can no longer be used. */
  async prune(db: Queryable): Promise<void> {
    await db.query(`DELETE FROM password_codes WHERE expires_at < ms_now() - interval '1 day'`);
  },
};
