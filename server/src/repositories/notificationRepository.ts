import type { Queryable } from '../db/client.ts';
import type { EmailFrequency, NotificationKind } from '#schemas/notifications';
import { access } from './access.ts';
import {
  NOTIFICATION_SELECT,
  NOTIFICATION_VISIBLE,
  toNotificationRecord,
  type NotificationRecord,
  type NotificationRow,
} from './notificationRows.ts';

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
  CASE WHEN ${k} IN ('comment', 'reply', 'mention', 'reaction', 'snapshot_edited', 'score')
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
 * SQL for notifications: recording events (in the transaction of the action), the feed and the
 * e-mail preferences. Taking items for e-mail, push and digests is `notificationDeliveryRepository`.
 */
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

  /** A score given in this transaction: the artifact's owner hears who scored what, unless she scored it herself. */
  async recordScore(db: Queryable, scoreId: number): Promise<void> {
    await db.query(
      `INSERT INTO notifications (user_id, kind, actor_id, shared_portfolio_id, shared_artifact_id, score_id, mail_state, push_state)
       SELECT ru.id, 'score', s.scorer_id, sa.shared_portfolio_id, sa.id, s.id, ${deliveryColumns(`'score'`, 'ru')}
       FROM scores s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
       JOIN users ru ON ru.id = sa.owner_id
       LEFT JOIN notification_preferences np ON np.user_id = ru.id AND np.kind = 'score'
       WHERE s.id = $1 AND ru.id <> s.scorer_id AND ${hasAccess('ru', 'sa.shared_portfolio_id')}`,
      [scoreId],
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
    const { rows } = await db.query<NotificationRow>(
      `${NOTIFICATION_SELECT} WHERE n.user_id = $1 AND ($2::int IS NULL OR n.id < $2) AND ${NOTIFICATION_VISIBLE} ORDER BY n.id DESC LIMIT $3`,
      [userId, before, limit],
    );
    return rows.map(toNotificationRecord);
  },

  /** How many items the person has not read. */
  async unread(db: Queryable, userId: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications n WHERE n.user_id = $1 AND NOT n.read AND ${NOTIFICATION_VISIBLE}`,
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
};
