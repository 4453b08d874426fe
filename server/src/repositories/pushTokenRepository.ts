import type { Queryable } from '../db/client.ts';

/** A device's push token as the app registered it. */
export interface PushTokenInput {
  fcmToken: string;
  platform: string | null;
  osVersion: string | null;
  devMode: boolean;
}

/** SQL for the mobile apps' push tokens: one row per device token, owned by whoever signed in on it last. */
export const pushTokenRepository = {
  /**
   * Keeps the token for the user (moving it from another user who signed in on the device before);
   * beyond `keep` devices, the user's least recently registered tokens are dropped.
   */
  async register(db: Queryable, userId: number, token: PushTokenInput, keep: number): Promise<void> {
    await db.query(
      `INSERT INTO push_tokens (user_id, fcm_token, platform, os_version, dev_mode) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (fcm_token) DO UPDATE SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform,
         os_version = EXCLUDED.os_version, dev_mode = EXCLUDED.dev_mode, updated_at = now()`,
      [userId, token.fcmToken, token.platform, token.osVersion, token.devMode],
    );
    await db.query(
      `DELETE FROM push_tokens WHERE user_id = $1 AND id NOT IN (
         SELECT id FROM push_tokens WHERE user_id = $1 ORDER BY updated_at DESC, id DESC LIMIT $2)`,
      [userId, keep],
    );
  },

  /** Forgets the user's token (someone else's token is left alone). */
  async unregister(db: Queryable, userId: number, fcmToken: string): Promise<void> {
    await db.query('DELETE FROM push_tokens WHERE user_id = $1 AND fcm_token = $2', [userId, fcmToken]);
  },

  /** Forgets a token the push service no longer knows (whoever it belonged to). */
  async forget(db: Queryable, fcmToken: string): Promise<void> {
    await db.query('DELETE FROM push_tokens WHERE fcm_token = $1', [fcmToken]);
  },

  /** The user's devices, newest first. */
  async forUser(db: Queryable, userId: number): Promise<(PushTokenInput & { updatedAt: Date })[]> {
    const { rows } = await db.query<{
      fcm_token: string;
      platform: string | null;
      os_version: string | null;
      dev_mode: boolean;
      updated_at: Date;
    }>(
      'SELECT fcm_token, platform, os_version, dev_mode, updated_at FROM push_tokens WHERE user_id = $1 ORDER BY updated_at DESC, id DESC',
      [userId],
    );
    return rows.map((r) => ({
      fcmToken: r.fcm_token,
      platform: r.platform,
      osVersion: r.os_version,
      devMode: r.dev_mode,
      updatedAt: r.updated_at,
    }));
  },
};
