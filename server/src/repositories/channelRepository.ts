import type { Queryable } from '../db/client.ts';

/**
 * Sends `payload` on the notification channel `channel`: every listening process hears it after
 * every change committed before it.
 */
export async function notifyChannel(db: Queryable, channel: string, payload: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
}
