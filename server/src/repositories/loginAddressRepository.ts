import type { Queryable } from '../db/client.ts';

/** SQL for the client addresses that have signed in to an account (kept 90 days after their last sign-in). */
export const loginAddressRepository = {
  /** Notes a successful sign-in from `address`. */
  async remember(db: Queryable, userId: number, address: string): Promise<void> {
    await db.query(
      `INSERT INTO login_addresses (user_id, address) VALUES ($1, $2)
       ON CONFLICT (user_id, address) DO UPDATE SET signed_in_at = now()`,
      [userId, address],
    );
  },

  /** Whether `address` has signed in to the account. */
  async known(db: Queryable, userId: number, address: string): Promise<boolean> {
    const { rows } = await db.query(`SELECT 1 FROM login_addresses WHERE user_id = $1 AND address = $2`, [
      userId,
      address,
    ]);
    return rows.length > 0;
  },

  /** Forgets addresses that have not signed in for 90 days. */
  async prune(db: Queryable): Promise<void> {
    await db.query(`DELETE FROM login_addresses WHERE signed_in_at < now() - interval '90 days'`);
  },
};
