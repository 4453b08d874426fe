import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { Queryable } from '../db/client.ts';

/** SQL for SAML sign-ins: the requests awaiting an answer and the assertions already used. */
export const samlRepository = {
  /**
   * The store of a provider's AuthnRequest ids that `@node-saml/node-saml` checks InResponseTo
   * against (its `CacheProvider`): kept `ttlSeconds`, taken by the answer.
   */
  requestStore(db: Queryable, provider: string, ttlSeconds: number): CacheProvider {
    return {
      async saveAsync(key: string, value: string): Promise<CacheItem | null> {
        await db.query('DELETE FROM saml_requests WHERE expires_at < now()');
        const { rows } = await db.query<{ created_at: Date }>(
          `INSERT INTO saml_requests (request_id, provider, created_at, expires_at)
           VALUES ($1, $2, $3, now() + make_interval(secs => $4))
           ON CONFLICT (request_id) DO NOTHING RETURNING created_at`,
          [key, provider, value, ttlSeconds],
        );
        return rows[0] ? { value, createdAt: rows[0].created_at.getTime() } : null;
      },
      async getAsync(key: string): Promise<string | null> {
        const { rows } = await db.query<{ created_at: Date }>(
          'SELECT created_at FROM saml_requests WHERE request_id = $1 AND provider = $2 AND expires_at > now()',
          [key, provider],
        );
        return rows[0] ? rows[0].created_at.toISOString() : null;
      },
      async removeAsync(key: string | null): Promise<string | null> {
        if (key === null) return null;
        const { rows } = await db.query<{ request_id: string }>(
          'DELETE FROM saml_requests WHERE request_id = $1 AND provider = $2 RETURNING request_id',
          [key, provider],
        );
        return rows[0]?.request_id ?? null;
      },
    };
  },

  /** Records an assertion as used until `expiresAt`; `false` when it was used before (a replay). */
  async useAssertion(db: Queryable, provider: string, assertionId: string, expiresAt: Date): Promise<boolean> {
    const { rows } = await db.query(
      `INSERT INTO saml_assertions (provider, assertion_id, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (provider, assertion_id) DO NOTHING RETURNING assertion_id`,
      [provider, assertionId, expiresAt],
    );
    return rows.length > 0;
  },

  /** Drops requests never answered and assertions that could no longer be accepted anyway. */
  async prune(db: Queryable): Promise<void> {
    await db.query('DELETE FROM saml_requests WHERE expires_at < now()');
    await db.query('DELETE FROM saml_assertions WHERE expires_at < now()');
  },
};
