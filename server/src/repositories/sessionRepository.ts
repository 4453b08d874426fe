import { principalChanges } from '../db/changes.ts';
import type { Queryable } from '../db/client.ts';

/** An open session as authentication needs it. */
export interface OpenSession {
  until: Date;
  generation: number;
  rotatedAt: Date | null;
  /** Kept across browser restarts ("keep me signed in", and every session of the mobile apps); otherwise a browser-session cookie. */
  persistent: boolean;
}

/** What the provider's own sign-out needs of a session signed in through SAML (its NameID and SessionIndex). */
export interface SsoLogoutSubject {
  nameID: string;
  nameIDFormat: string;
  nameQualifier?: string;
  spNameQualifier?: string;
  sessionIndex?: string;
}

/** How a session was signed in: through which single sign-on provider (`null`: a password), and whether it persists. */
export interface SessionOrigin {
  ssoProvider: string | null;
  persistent: boolean;
  /** For the provider's sign-out (SAML sessions only). */
  ssoLogout?: SsoLogoutSubject | null;
}

/** SQL for server-side sessions (one row per sign-in). */
export const sessionRepository = {
  /**
   * Starts a session that ends at the latest after `absoluteSeconds`; `persistent`: see
   * {@link OpenSession}; `ssoProvider`: the provider it was signed in through (absent: a password).
   */
  async start(
    db: Queryable,
    input: {
      id: string;
      userId: number;
      absoluteSeconds: number;
      persistent: boolean;
      ssoProvider?: string;
      ssoLogout?: SsoLogoutSubject | null;
    },
  ): Promise<Date> {
    const { rows } = await db.query<{ expires_at: Date }>(
      `INSERT INTO sessions (id, user_id, expires_at, persistent, sso_provider, sso_logout)
       VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5, $6) RETURNING expires_at`,
      [
        input.id,
        input.userId,
        input.absoluteSeconds,
        input.persistent,
        input.ssoProvider ?? null,
        input.ssoLogout ? JSON.stringify(input.ssoLogout) : null,
      ],
    );
    return new Date(rows[0]!.expires_at);
  },

  /** The single sign-on provider the session was signed in through (`null`: a password) and whether it persists. */
  async origin(db: Queryable, id: string): Promise<SessionOrigin> {
    const { rows } = await db.query<{
      sso_provider: string | null;
      persistent: boolean;
      sso_logout: SsoLogoutSubject | null;
    }>('SELECT sso_provider, persistent, sso_logout FROM sessions WHERE id = $1', [id]);
    return {
      ssoProvider: rows[0]?.sso_provider ?? null,
      persistent: rows[0]?.persistent ?? true,
      ssoLogout: rows[0]?.sso_logout ?? null,
    };
  },

  /** The user's session while it is open (its end, its token generation, when it was last rotated, whether it persists); `null` otherwise. */
  async findOpen(db: Queryable, id: string, userId: number): Promise<OpenSession | null> {
    const { rows } = await db.query<{
      expires_at: Date;
      generation: number;
      rotated_at: Date | null;
      persistent: boolean;
    }>(
      'SELECT expires_at, generation, rotated_at, persistent FROM sessions WHERE id = $1 AND user_id = $2 AND ended_at IS NULL AND expires_at > now()',
      [id, userId],
    );
    const row = rows[0];
    return row
      ? {
          until: new Date(row.expires_at),
          generation: row.generation,
          rotatedAt: row.rotated_at ? new Date(row.rotated_at) : null,
          persistent: row.persistent,
        }
      : null;
  },

  /** Moves an open session to its next token generation; returns the new generation, or `null` when it is not open. */
  async rotate(db: Queryable, id: string): Promise<number | null> {
    const { rows } = await db.query<{ generation: number }>(
      'UPDATE sessions SET generation = generation + 1, rotated_at = now() WHERE id = $1 AND ended_at IS NULL AND expires_at > now() RETURNING generation',
      [id],
    );
    principalChanges.session(id);
    return rows[0]?.generation ?? null;
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
