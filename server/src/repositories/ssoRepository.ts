import type { Queryable } from '../db/client.ts';
import { iso } from './sql.ts';

/** A linked identity as stored. */
export interface IdentityRow {
  id: number;
  userId: number;
  provider: string;
  email: string;
  linkedAt: string;
}

interface Row {
  id: number;
  user_id: number;
  provider: string;
  email: string;
  linked_at: Date;
}
const toIdentity = (r: Row): IdentityRow => ({
  id: r.id,
  userId: r.user_id,
  provider: r.provider,
  email: r.email,
  linkedAt: iso(r.linked_at),
});

/** SQL for single sign-on: linked identities and the sign-ins under way at a provider. */
export const ssoRepository = {
  /** Keeps a sign-in under way for `ttlSeconds` (expired ones are dropped on the way). */
  async startLogin(
    db: Queryable,
    input: { stateHash: string; provider: string; codeVerifier: string; nonce: string; ttlSeconds: number },
  ): Promise<void> {
    await db.query('DELETE FROM sso_logins WHERE expires_at < now()');
    await db.query(
      `INSERT INTO sso_logins (state_hash, provider, code_verifier, nonce, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [input.stateHash, input.provider, input.codeVerifier, input.nonce, input.ttlSeconds],
    );
  },

  /** Takes (removes) the unexpired sign-in of this state at this provider: a state is used once. */
  async takeLogin(
    db: Queryable,
    stateHash: string,
    provider: string,
  ): Promise<{ codeVerifier: string; nonce: string } | null> {
    const { rows } = await db.query<{ code_verifier: string; nonce: string; live: boolean }>(
      `DELETE FROM sso_logins WHERE state_hash = $1 AND provider = $2
       RETURNING code_verifier, nonce, expires_at > now() AS live`,
      [stateHash, provider],
    );
    const row = rows[0];
    return row?.live ? { codeVerifier: row.code_verifier, nonce: row.nonce } : null;
  },

  /** The account linked to this identity, or `null`. */
  async userOf(db: Queryable, provider: string, subject: string): Promise<number | null> {
    const { rows } = await db.query<{ user_id: number }>(
      'SELECT user_id FROM linked_identities WHERE provider = $1 AND subject = $2',
      [provider, subject],
    );
    return rows[0]?.user_id ?? null;
  },

  /** Links an identity to an account (nothing when that identity is linked already). */
  async link(
    db: Queryable,
    input: { userId: number; provider: string; subject: string; email: string },
  ): Promise<void> {
    await db.query(
      `INSERT INTO linked_identities (user_id, provider, subject, email) VALUES ($1, $2, $3, lower($4))
       ON CONFLICT (provider, subject) DO NOTHING`,
      [input.userId, input.provider, input.subject, input.email],
    );
  },

  /** The account's linked identities, oldest first. */
  async identitiesOf(db: Queryable, userId: number): Promise<IdentityRow[]> {
    const { rows } = await db.query<Row>(
      'SELECT id, user_id, provider, email, linked_at FROM linked_identities WHERE user_id = $1 ORDER BY linked_at, id',
      [userId],
    );
    return rows.map(toIdentity);
  },

  /** Unlinks one identity of the account; whether it was there. */
  async unlink(db: Queryable, userId: number, identityId: number): Promise<boolean> {
    const { rows } = await db.query('DELETE FROM linked_identities WHERE id = $1 AND user_id = $2 RETURNING id', [
      identityId,
      userId,
    ]);
    return rows.length > 0;
  },

  /** Drops sign-ins that were never completed. */
  async prune(db: Queryable): Promise<void> {
    await db.query('DELETE FROM sso_logins WHERE expires_at < now()');
  },
};
