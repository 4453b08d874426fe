import type { NotificationKind } from '#schemas/notifications';
import { RESERVED_KEYS } from '#schemas/structure';
import { access } from './access.ts';

// What reading notifications shares: who sees an item, the feed item's columns and its record.

/**
 * Which items a person sees: those about shared portfolios they (still) read, and the
 * invitations and removals addressed to them. Someone removed from a shared portfolio no longer
 * sees what happened there.
 */
export const NOTIFICATION_VISIBLE = `(n.shared_portfolio_id IS NULL OR n.kind IN ('invitation_received', 'removed')
  OR ${access.isMember('n.shared_portfolio_id', 'n.user_id')}
  OR ${access.isResearcherId('n.user_id')})`;

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
  scoreId: number | null;
  /** The criterion and level of the score the item is about. */
  score: { criterion: string; level: string } | null;
  invitationId: number | null;
  moment: { media: number; start: number; end: number | null } | null;
}

/** A notification row as `NOTIFICATION_SELECT` reads it. */
export interface NotificationRow {
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
  score_id: number | null;
  score_criterion: string | null;
  score_level: string | null;
  invitation_id: number | null;
  media_id: number | null;
  moment_start: number | null;
  moment_end: number | null;
}

/** One feed item with its actor, shared portfolio, shared artifact and moment (`n` the notification). */
export const NOTIFICATION_SELECT = `SELECT n.id, n.user_id, n.kind, n.read, n.created_at, n.updated_at, n.count, n.comment_id, n.score_id, n.invitation_id,
  a.id AS actor_id, a.username AS actor_username, sp.id AS sp_id, sp.name AS sp_name,
  sa.id AS sa_id, sa.responses->>'${RESERVED_KEYS.title}' AS sa_title, coalesce(c.media_id, s.media_id) AS media_id, coalesce(c.moment_start, s.moment_start) AS moment_start,
  CASE WHEN c.id IS NOT NULL THEN c.moment_end ELSE s.moment_end END AS moment_end,
  sc.label AS score_criterion, sl.label AS score_level
  FROM notifications n
  LEFT JOIN users a ON a.id = n.actor_id
  LEFT JOIN shared_portfolios sp ON sp.id = n.shared_portfolio_id
  LEFT JOIN shared_artifacts sa ON sa.id = n.shared_artifact_id
  LEFT JOIN comments c ON c.id = n.comment_id
  LEFT JOIN scores s ON s.id = n.score_id
  LEFT JOIN rubric_criteria sc ON sc.id = s.criterion_id
  LEFT JOIN rubric_levels sl ON sl.id = s.level_id`;

export function toNotificationRecord(r: NotificationRow): NotificationRecord {
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
    scoreId: r.score_id,
    score: r.score_criterion !== null ? { criterion: r.score_criterion, level: r.score_level ?? '' } : null,
    invitationId: r.invitation_id,
    moment:
      r.media_id !== null && r.moment_start !== null
        ? { media: r.media_id, start: r.moment_start, end: r.moment_end }
        : null,
  };
}
