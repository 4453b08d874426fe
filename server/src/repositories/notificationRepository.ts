import type { Queryable } from '../db/client.ts';
import type { EmailFrequency, NotificationKind } from '#schemas/notifications';
import { RESERVED_KEYS } from '#schemas/structure';
import { access } from './access.ts';

/**
 * The delivery columns of a new item for recipient `u` (a `users` row) and kind `k`, with the
 * recipient's preference row `np` joined: e-mail now, in the daily digest, or not at all; push
 * when the item points at a shared artifact and the person has a phone. An invitation is already
 * announced by its own e-mail, so "immediately" adds no second one.
 */
const deliveryColumns = (k: string, u: string) => `
  CASE coalesce(np.email, notification_email_default(${k}))
    WHEN 'immediately' THEN CASE WHEN ${k} = 'invitation_received' THEN 'none' ELSE 'pending' END
    WHEN 'daily' THEN 'digest' ELSE 'none' END,
  CASE WHEN ${k} IN ('comment', 'reply', 'mention', 'reaction', 'snapshot_edited')
        AND EXISTS (SELECT 1 FROM push_tokens pt WHERE pt.user_id = ${u}.id) THEN 'pending' ELSE 'none' END`;

/** Whether person `u` may read shared portfolio `sp` (a member, or a researcher), and is not blocked. */
const hasAccess = (u: string, sp: string) => `NOT ${u}.blocked AND ${access.worksInShared(u, sp)}`;

/** An unread batched item (reactions, edits) takes the next one of its person, kind and artifact. */
const RAISE_BATCH = `ON CONFLICT (user_id, kind, shared_artifact_id) WHERE NOT read AND kind IN ('reaction', 'snapshot_edited')
  DO UPDATE SET count = notifications.count + 1, actor_id = EXCLUDED.actor_id, updated_at = next_stamp(notifications.updated_at)`;

/**
 * `@name` of a member `mu`: an `@` after a non-word character (or at the start), the user name
 * (case-insensitive, every other character taken literally), then a non-word character or the end.
 */
const MENTIONS = String.raw`c.text ~* ('(^|[^[:alnum:]_])@' || regexp_replace(mu.username, '([^[:alnum:][:space:]])', '\\\1', 'g') || '($|[^[:alnum:]_])')`;

/**
 * Which items a person sees: those about shared portfolios they (still) read, and the
 * invitations and removals addressed to them. Someone removed from a shared portfolio no longer
 * sees what happened there.
 */
const VISIBLE = `(n.shared_portfolio_id IS NULL OR n.kind IN ('invitation_received', 'removed')
  OR ${access.isMember('n.shared_portfolio_id', 'n.user_id')}
  OR ${access.isResearcherId('n.user_id')})`;

/**
 * The thread of item `n` for e-mail coalescing: its shared artifact (`a<id>`), else its shared
 * portfolio (`p<id>`); NULL (never coalesced) for an item about neither.
 */
const THREAD = `CASE WHEN n.shared_artifact_id IS NOT NULL THEN 'a' || n.shared_artifact_id
  WHEN n.shared_portfolio_id IS NOT NULL THEN 'p' || n.shared_portfolio_id END`;

/** One feed item with what its summary and link are made of. */
export interface NotificationRecord {
  id: number;
  userId: number;
  kind: NotificationKind;
  read: boolean;
  createdAt: Date;
  updatedAt: Date;
  count: number;
  actor: { id: number; username: string } | null;
  sharedPortfolio: { id: number; name: string } | null;
  sharedArtifact: { id: number; title: string | null } | null;
  commentId: number | null;
  invitationId: number | null;
  moment: { media: number; start: number; end: number | null } | null;
}

interface Row {
  id: number;
  user_id: number;
  kind: NotificationKind;
  read: boolean;
  created_at: Date;
  updated_at: Date;
  count: number;
  actor_id: number | null;
  actor_username: string | null;
  sp_id: number | null;
  sp_name: string | null;
  sa_id: number | null;
  sa_title: string | null;
  comment_id: number | null;
  invitation_id: number | null;
  media_id: number | null;
  moment_start: number | null;
  moment_end: number | null;
}

const SELECT = `SELECT n.id, n.user_id, n.kind, n.read, n.created_at, n.updated_at, n.count, n.comment_id, n.invitation_id,
  a.id AS actor_id, a.username AS actor_username, sp.id AS sp_id, sp.name AS sp_name,
  sa.id AS sa_id, sa.responses->>'${RESERVED_KEYS.title}' AS sa_title, c.media_id, c.moment_start, c.moment_end
  FROM notifications n
  LEFT JOIN users a ON a.id = n.actor_id
  LEFT JOIN shared_portfolios sp ON sp.id = n.shared_portfolio_id
  LEFT JOIN shared_artifacts sa ON sa.id = n.shared_artifact_id
  LEFT JOIN comments c ON c.id = n.comment_id`;

function toRecord(r: Row): NotificationRecord {
  return {
    id: r.id,
    userId: r.user_id,
    kind: r.kind,
    read: r.read,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    count: r.count,
    actor: r.actor_id !== null ? { id: r.actor_id, username: r.actor_username ?? '' } : null,
    sharedPortfolio: r.sp_id !== null ? { id: r.sp_id, name: r.sp_name ?? '' } : null,
    sharedArtifact: r.sa_id !== null ? { id: r.sa_id, title: r.sa_title } : null,
    commentId: r.comment_id,
    invitationId: r.invitation_id,
    moment:
      r.media_id !== null && r.moment_start !== null
        ? { media: r.media_id, start: r.moment_start, end: r.moment_end }
        : null,
  };
}

/** An item waiting for e-mail or push, with its recipient's address. */
export interface DeliveryRecord extends NotificationRecord {
  email: string;
  username: string;
  mail: boolean;
  push: boolean;
}

/** SQL for notifications: recording events (in the transaction of the action), the feed, preferences, delivery. */
export const notificationRepository = {
  /**
   * A new comment: its artifact's owner (`comment`), earlier commenters (`reply`) and the members
   * it names (`mention`), each once with the most personal kind; never its author, never someone
   * who cannot read the shared portfolio. One statement whatever the number of members.
   */
  async recordComment(db: Queryable, commentId: number): Promise<void> {
    await db.query(
      `WITH c AS (
         SELECT c.id, c.owner_id, c.text, c.shared_artifact_id, sa.owner_id AS artifact_owner, sa.shared_portfolio_id
         FROM comments c JOIN shared_artifacts sa ON sa.id = c.shared_artifact_id WHERE c.id = $1
       ), candidates AS (
         SELECT m.user_id, 'mention' AS kind, 1 AS rank FROM c
           JOIN shared_portfolio_members m ON m.shared_portfolio_id = c.shared_portfolio_id
           JOIN users mu ON mu.id = m.user_id
           WHERE ${MENTIONS}
         UNION ALL SELECT c.artifact_owner, 'comment', 2 FROM c
         UNION ALL SELECT DISTINCT p.owner_id, 'reply', 3 FROM c JOIN comments p ON p.shared_artifact_id = c.shared_artifact_id AND p.id < c.id
       ), chosen AS (
         SELECT DISTINCT ON (user_id) user_id, kind FROM candidates ORDER BY user_id, rank
       )
       INSERT INTO notifications (user_id, kind, actor_id, shared_portfolio_id, shared_artifact_id, comment_id, mail_state, push_state)
       SELECT ch.user_id, ch.kind, c.owner_id, c.shared_portfolio_id, c.shared_artifact_id, c.id, ${deliveryColumns('ch.kind', 'ru')}
       FROM chosen ch CROSS JOIN c
       JOIN users ru ON ru.id = ch.user_id
       LEFT JOIN notification_preferences np ON np.user_id = ch.user_id AND np.kind = ch.kind
       WHERE ch.user_id <> c.owner_id AND ${hasAccess('ru', 'c.shared_portfolio_id')}`,
      [commentId],
    );
  },

  /**
   * A reaction added in this transaction (one that already existed adds nothing): one unread
   * item per artifact for its owner, its count raised by each further reaction.
   */
  async recordReaction(db: Queryable, reactionId: number): Promise<void> {
    await db.query(
      `INSERT INTO notifications (user_id, kind, actor_id, shared_portfolio_id, shared_artifact_id, mail_state, push_state)
       SELECT ru.id, 'reaction', r.owner_id, sa.shared_portfolio_id, sa.id, ${deliveryColumns(`'reaction'`, 'ru')}
       FROM reactions r JOIN shared_artifacts sa ON sa.id = r.shared_artifact_id
       JOIN users ru ON ru.id = sa.owner_id
       LEFT JOIN notification_preferences np ON np.user_id = ru.id AND np.kind = 'reaction'
       WHERE r.id = $1 AND r.xmin = pg_current_xact_id()::xid AND ru.id <> r.owner_id AND ${hasAccess('ru', 'sa.shared_portfolio_id')}
       ${RAISE_BATCH}`,
      [reactionId],
    );
  },

  /** Someone other than its owner saved a shared artifact: one unread item per artifact, counting the saves. */
  async recordSnapshotEdited(db: Queryable, artifactId: number, actorId: number): Promise<void> {
    await db.query(
      `INSERT INTO notifications (user_id, kind, actor_id, shared_portfolio_id, shared_artifact_id, mail_state, push_state)
       SELECT ru.id, 'snapshot_edited', $2, sa.shared_portfolio_id, sa.id, ${deliveryColumns(`'snapshot_edited'`, 'ru')}
       FROM shared_artifacts sa JOIN users ru ON ru.id = sa.owner_id
       LEFT JOIN notification_preferences np ON np.user_id = ru.id AND np.kind = 'snapshot_edited'
       WHERE sa.id = $1 AND ru.id <> $2 AND ${hasAccess('ru', 'sa.shared_portfolio_id')}
       ${RAISE_BATCH}`,
      [artifactId, actorId],
    );
  },

  /** An invitation was sent: its invitee hears who invited them where. */
  async recordInvitation(db: Queryable, invitationId: number): Promise<void> {
    await db.query(
      `INSERT INTO notifications (user_id, kind, actor_id, shared_portfolio_id, invitation_id, mail_state, push_state)
       SELECT ru.id, 'invitation_received', i.from_user_id, i.shared_portfolio_id, i.id, ${deliveryColumns(`'invitation_received'`, 'ru')}
       FROM invitations i JOIN users ru ON ru.id = i.to_user_id
       LEFT JOIN notification_preferences np ON np.user_id = ru.id AND np.kind = 'invitation_received'
       WHERE i.id = $1 AND NOT ru.blocked AND ru.id IS DISTINCT FROM i.from_user_id`,
      [invitationId],
    );
  },

  /** An invitation was accepted (call before it is deleted): whoever sent it hears, while they still read the shared portfolio. */
  async recordInvitationAccepted(db: Queryable, invitationId: number): Promise<void> {
    await db.query(
      `INSERT INTO notifications (user_id, kind, actor_id, shared_portfolio_id, mail_state, push_state)
       SELECT ru.id, 'invitation_accepted', i.to_user_id, i.shared_portfolio_id, ${deliveryColumns(`'invitation_accepted'`, 'ru')}
       FROM invitations i JOIN users ru ON ru.id = i.from_user_id
       LEFT JOIN notification_preferences np ON np.user_id = ru.id AND np.kind = 'invitation_accepted'
       WHERE i.id = $1 AND ru.id <> i.to_user_id AND ${hasAccess('ru', 'i.shared_portfolio_id')}`,
      [invitationId],
    );
  },

  /** Someone was removed from a shared portfolio by its owner or a researcher. */
  async recordRemoved(db: Queryable, sharedPortfolioId: number, userId: number, actorId: number): Promise<void> {
    await db.query(
      `INSERT INTO notifications (user_id, kind, actor_id, shared_portfolio_id, mail_state, push_state)
       SELECT ru.id, 'removed', $3, $1, ${deliveryColumns(`'removed'`, 'ru')}
       FROM users ru LEFT JOIN notification_preferences np ON np.user_id = ru.id AND np.kind = 'removed'
       WHERE ru.id = $2 AND ru.id <> $3 AND NOT ru.blocked`,
      [sharedPortfolioId, userId, actorId],
    );
  },

  /** A page of the person's feed, newest first, older than `before` when given. */
  async list(db: Queryable, userId: number, before: number | null, limit: number): Promise<NotificationRecord[]> {
    const { rows } = await db.query<Row>(
      `${SELECT} WHERE n.user_id = $1 AND ($2::int IS NULL OR n.id < $2) AND ${VISIBLE} ORDER BY n.id DESC LIMIT $3`,
      [userId, before, limit],
    );
    return rows.map(toRecord);
  },

  /** How many items the person has not read. */
  async unread(db: Queryable, userId: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications n WHERE n.user_id = $1 AND NOT n.read AND ${VISIBLE}`,
      [userId],
    );
    return rows[0]!.n;
  },

  /** Marks the person's items read (`ids` null: all); ids of other people's items change nothing. */
  async markRead(db: Queryable, userId: number, ids: readonly number[] | null): Promise<void> {
    await db.query(
      `UPDATE notifications SET read = true, updated_at = next_stamp(updated_at)
       WHERE user_id = $1 AND NOT read AND ($2::int[] IS NULL OR id = ANY($2::int[]))`,
      [userId, ids],
    );
  },

  /** The person's e-mail settings that differ from the defaults. */
  async preferences(db: Queryable, userId: number): Promise<Partial<Record<NotificationKind, EmailFrequency>>> {
    const { rows } = await db.query<{ kind: NotificationKind; email: EmailFrequency }>(
      'SELECT kind, email FROM notification_preferences WHERE user_id = $1',
      [userId],
    );
    return Object.fromEntries(rows.map((r) => [r.kind, r.email]));
  },

  /**
   * Sets e-mail settings; items still waiting for e-mail of a kind turned off are not sent, and
   * those of a kind moved to the digest wait for it.
   */
  async setPreferences(
    db: Queryable,
    userId: number,
    settings: Partial<Record<NotificationKind, EmailFrequency>>,
  ): Promise<void> {
    const kinds = Object.keys(settings);
    if (kinds.length === 0) return;
    const values = kinds.map((k) => settings[k as NotificationKind]!);
    await db.query(
      `INSERT INTO notification_preferences (user_id, kind, email) SELECT $1, k, e FROM unnest($2::text[], $3::text[]) AS s(k, e)
       ON CONFLICT (user_id, kind) DO UPDATE SET email = EXCLUDED.email, updated_at = ms_now()`,
      [userId, kinds, values],
    );
    await db.query(
      `UPDATE notifications n SET mail_state = CASE s.e WHEN 'off' THEN 'none' ELSE 'digest' END
       FROM unnest($2::text[], $3::text[]) AS s(k, e)
       WHERE n.user_id = $1 AND n.kind = s.k AND n.mail_state IN ('pending', 'digest') AND s.e <> 'immediately'`,
      [userId, kinds, values],
    );
  },

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
    const { rows } = await tx.query<Row & { email: string; username: string; mail: boolean; push: boolean }>(
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
       ${SELECT.replace('FROM notifications n', 'FROM taken JOIN notifications n ON n.id = taken.id').replace(
         'SELECT n.id,',
         'SELECT taken.mail, taken.push, u.email, u.username, n.id,',
       )}
       JOIN users u ON u.id = n.user_id
       WHERE ${VISIBLE}
       ORDER BY n.id`,
      [limit, olderThanMs, withPush, windowMs, now],
    );
    return rows.map((r) => ({ ...toRecord(r), email: r.email, username: r.username, mail: r.mail, push: r.push }));
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
    const { rows } = await db.query<Row>(
      `WITH taken AS (
         UPDATE notifications SET mail_state = 'sent' WHERE user_id = $1 AND mail_state = 'digest' AND created_at < $2 RETURNING id
       )
       ${SELECT.replace('FROM notifications n', 'FROM taken JOIN notifications n ON n.id = taken.id')} WHERE ${VISIBLE} ORDER BY n.id DESC`,
      [userId, dayStart],
    );
    const items = rows.map(toRecord);
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
