import type { Queryable } from '../db/client.ts';
import {
  NOTIFICATION_SELECT,
  NOTIFICATION_VISIBLE,
  toNotificationRecord,
  type NotificationRecord,
  type NotificationRow,
} from './notificationRows.ts';

/**
 * The thread of item `n` for e-mail coalescing: its shared artifact (`a<id>`), else its shared
 * portfolio (`p<id>`); NULL (never coalesced) for an item about neither.
 */
const THREAD = `CASE WHEN n.shared_artifact_id IS NOT NULL THEN 'a' || n.shared_artifact_id
  WHEN n.shared_portfolio_id IS NOT NULL THEN 'p' || n.shared_portfolio_id END`;

/** An item waiting for e-mail or push, with its recipient's address. */
export interface DeliveryRecord extends NotificationRecord {
  email: string;
  username: string;
  mail: boolean;
  push: boolean;
}

/** SQL for delivering notifications: taking items for e-mail and push, retrying, thread windows, daily digests. */
export const notificationDeliveryRepository = {
  /**
   * Takes the items waiting for immediate e-mail or push (all of them, or those older than
   * `olderThanMs`, left behind by a failure or a restart): each is taken by one process only.
   * Without push configured (`withPush` false), waiting pushes are dropped.
   *
   * E-mail is coalesced per person and thread (`THREAD`): an item whose thread was mailed less
   * than `windowMs` before `now` stays waiting. The thread's row in `notification_mail_threads`
   * is claimed in this statement (`ON CONFLICT … WHERE` the window has passed): a second process
   * taking items of the same thread at the same time waits for the first and then finds the
   * window open, so its items wait for the next mail. `now` is the database's clock unless given.
   * Run it in a transaction of its own: claimers take turns (an advisory lock until the commit),
   * so that two of them never split one thread's waiting items between them.
   */
  async claimDeliveries(
    tx: Queryable,
    limit: number,
    olderThanMs: number,
    withPush: boolean,
    windowMs: number,
    now: Date | null = null,
  ): Promise<DeliveryRecord[]> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('notification-delivery'))`);
    const { rows } = await tx.query<
      NotificationRow & { email: string; username: string; mail: boolean; push: boolean }
    >(
      `WITH clock AS (
         SELECT coalesce($5::timestamptz, ms_now()) AS now, make_interval(secs => $4::double precision / 1000) AS win
       ), due AS (
         SELECT n.id, n.user_id, ${THREAD} AS thread, n.push_state = 'pending' AS push,
           n.mail_state = 'pending' AND NOT EXISTS (SELECT 1 FROM notification_mail_threads w
             WHERE w.user_id = n.user_id AND w.thread = ${THREAD} AND w.last_sent_at > clock.now - clock.win) AS mail
         FROM notifications n CROSS JOIN clock
         WHERE (n.mail_state = 'pending' OR n.push_state = 'pending')
           AND n.created_at <= clock.now - make_interval(secs => $2::double precision / 1000)
           AND (n.push_state = 'pending' OR NOT EXISTS (SELECT 1 FROM notification_mail_threads w
             WHERE w.user_id = n.user_id AND w.thread = ${THREAD} AND w.last_sent_at > clock.now - clock.win))
         ORDER BY n.id LIMIT $1 FOR UPDATE OF n SKIP LOCKED
       ), opened AS (
         INSERT INTO notification_mail_threads AS w (user_id, thread, last_sent_at)
         SELECT DISTINCT due.user_id, due.thread, clock.now FROM due CROSS JOIN clock WHERE due.mail AND due.thread IS NOT NULL
         ON CONFLICT (user_id, thread) DO UPDATE SET last_sent_at = EXCLUDED.last_sent_at
           WHERE w.last_sent_at <= EXCLUDED.last_sent_at - make_interval(secs => $4::double precision / 1000)
         RETURNING w.user_id, w.thread
       ), chosen AS (
         SELECT due.id, due.push, due.mail AND (due.thread IS NULL
           OR EXISTS (SELECT 1 FROM opened o WHERE o.user_id = due.user_id AND o.thread = due.thread)) AS mail
         FROM due
       ), taken AS (
         UPDATE notifications t SET mail_state = CASE WHEN chosen.mail THEN 'sent' ELSE t.mail_state END,
           push_state = CASE WHEN chosen.push THEN (CASE WHEN $3 THEN 'sent' ELSE 'none' END) ELSE t.push_state END
         FROM chosen WHERE t.id = chosen.id AND (chosen.mail OR chosen.push) RETURNING t.id, chosen.mail, chosen.push AND $3 AS push
       )
       ${NOTIFICATION_SELECT.replace(
         'FROM notifications n',
         'FROM taken JOIN notifications n ON n.id = taken.id',
       ).replace('SELECT n.id,', 'SELECT taken.mail, taken.push, u.email, u.username, n.id,')}
       JOIN users u ON u.id = n.user_id
       WHERE ${NOTIFICATION_VISIBLE}
       ORDER BY n.id`,
      [limit, olderThanMs, withPush, windowMs, now],
    );
    return rows.map((r) => ({
      ...toNotificationRecord(r),
      email: r.email,
      username: r.username,
      mail: r.mail,
      push: r.push,
    }));
  },

  /**
   * Puts items whose e-mail could not be sent back in the queue, and frees their threads' windows
   * (nothing reached the person), so that the next run sends them.
   */
  async retryMail(db: Queryable, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await db.query(
      `WITH back AS (
         UPDATE notifications n SET mail_state = 'pending' WHERE id = ANY($1::int[]) AND mail_state = 'sent' RETURNING n.user_id, ${THREAD} AS thread
       )
       DELETE FROM notification_mail_threads w USING back WHERE w.user_id = back.user_id AND w.thread = back.thread`,
      [ids],
    );
  },

  /** Deletes thread windows that have passed (they no longer hold anything back). */
  async pruneMailThreads(db: Queryable, windowMs: number): Promise<void> {
    await db.query(
      'DELETE FROM notification_mail_threads WHERE last_sent_at <= ms_now() - make_interval(secs => $1::double precision / 1000)',
      [windowMs],
    );
  },

  /** People with items waiting for a digest made before `dayStart`, without a digest for `day` yet. */
  async digestCandidates(db: Queryable, day: string, dayStart: Date): Promise<number[]> {
    const { rows } = await db.query<{ user_id: number }>(
      `SELECT DISTINCT n.user_id FROM notifications n
       WHERE n.mail_state = 'digest' AND n.created_at < $2
         AND NOT EXISTS (SELECT 1 FROM notification_digests d WHERE d.user_id = n.user_id AND d.day = $1::date)
       ORDER BY n.user_id`,
      [day, dayStart],
    );
    return rows.map((r) => r.user_id);
  },

  /**
   * Claims the person's digest of `day` (in the caller's transaction; a second claimer waits for
   * the first and then gets `null`) and takes its items.
   */
  async claimDigest(
    db: Queryable,
    userId: number,
    day: string,
    dayStart: Date,
  ): Promise<{ email: string; username: string; items: NotificationRecord[] } | null> {
    const { rows: claimed } = await db.query<{ user_id: number }>(
      `INSERT INTO notification_digests (user_id, day, items) VALUES ($1, $2::date, 0) ON CONFLICT (user_id, day) DO NOTHING RETURNING user_id`,
      [userId, day],
    );
    if (claimed.length === 0) return null;
    const { rows } = await db.query<NotificationRow>(
      `WITH taken AS (
         UPDATE notifications SET mail_state = 'sent' WHERE user_id = $1 AND mail_state = 'digest' AND created_at < $2 RETURNING id
       )
       ${NOTIFICATION_SELECT.replace('FROM notifications n', 'FROM taken JOIN notifications n ON n.id = taken.id')} WHERE ${NOTIFICATION_VISIBLE} ORDER BY n.id DESC`,
      [userId, dayStart],
    );
    const items = rows.map(toNotificationRecord);
    await db.query('UPDATE notification_digests SET items = $3 WHERE user_id = $1 AND day = $2::date', [
      userId,
      day,
      items.length,
    ]);
    const { rows: people } = await db.query<{ email: string; username: string }>(
      'SELECT email, username FROM users WHERE id = $1',
      [userId],
    );
    return people[0] ? { ...people[0], items } : null;
  },
};
