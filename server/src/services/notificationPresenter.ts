import { UNNAMED_ARTIFACT } from '#schemas/catalog';
import { formatMoment } from '#schemas/formatting';
import type { Notification, NotificationKind } from '#schemas/notifications';
import type { NotificationRecord } from '../repositories/notificationRows.ts';
import { iso } from '../repositories/sql.ts';

const titleOf = (r: NotificationRecord) => {
  const title = r.sharedArtifact?.title?.trim();
  return title ? title : UNNAMED_ARTIFACT;
};

/** One plain sentence saying what happened, e.g. "Ana commented on “Group work” in Grade 5 PLC". */
export function summaryOf(r: NotificationRecord): string {
  const who = r.actor?.username ?? 'Someone';
  const where = r.sharedPortfolio?.name ?? 'a shared portfolio';
  const artifact = `“${titleOf(r)}” in ${where}`;
  const at = r.moment ? ` at ${formatMoment(r.moment)} of a video of` : ' on';
  switch (r.kind) {
    case 'invitation_received':
      return `${who} invited you to join the shared portfolio ${where}`;
    case 'invitation_accepted':
      return `${who} accepted your invitation to ${where}`;
    case 'comment':
      return `${who} commented${at} your artifact ${artifact}`;
    case 'reply':
      return `${who} also commented${at} ${artifact}`;
    case 'mention':
      return `${who} mentioned you in a comment${at} ${artifact}`;
    case 'reaction':
      return r.count > 1
        ? `${r.count} new reactions to your artifact ${artifact}, the latest from ${who}`
        : `${who} reacted to your artifact ${artifact}`;
    case 'snapshot_edited':
      return r.count > 1
        ? `Your artifact ${artifact} was edited ${r.count} times, last by ${who}`
        : `${who} edited your artifact ${artifact}`;
    case 'removed':
      return `${who} removed you from the shared portfolio ${where}`;
    case 'score': {
      const what = r.score ? `: ${r.score.criterion} — ${r.score.level}` : '';
      return `${who} scored${at} your artifact ${artifact}${what}`;
    }
  }
}

/** The SPA address of the exact place an item is about. */
export function linkOf(r: NotificationRecord): string {
  if (r.kind === 'invitation_received' && r.invitationId !== null) return `/invitation/${r.invitationId}`;
  if (r.kind === 'removed' || !r.sharedPortfolio) return '/shared-portfolios';
  if (!r.sharedArtifact) return `/shared-portfolios/${r.sharedPortfolio.id}`;
  const page = `/shared-portfolios/${r.sharedPortfolio.id}/artifacts/${r.sharedArtifact.id}`;
  const query = r.moment ? `?media=${r.moment.media}&t=${Math.floor(r.moment.start)}` : '';
  const anchor = r.commentId !== null ? `#comment-${r.commentId}` : r.scoreId !== null ? `#score-${r.scoreId}` : '';
  return `${page}${query}${anchor}`;
}

/** A feed item as the API sends it. */
export function present(r: NotificationRecord): Notification {
  return {
    id: r.id,
    kind: r.kind,
    read: r.read,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    actor: r.actor,
    count: r.count,
    sharedPortfolio: r.sharedPortfolio,
    sharedArtifact: r.sharedArtifact ? { id: r.sharedArtifact.id, title: titleOf(r) } : null,
    comment: r.commentId,
    moment: r.moment,
    summary: summaryOf(r),
    link: linkOf(r),
  };
}

/** A short title per kind (the mobile apps' list and push). */
export const KIND_TITLES: Record<NotificationKind, string> = {
  invitation_received: 'New invitation',
  invitation_accepted: 'Invitation accepted',
  comment: 'New comment',
  reply: 'New reply',
  mention: 'You were mentioned',
  reaction: 'New reactions',
  snapshot_edited: 'Your artifact was edited',
  removed: 'Removed from a shared portfolio',
  score: 'New rubric score',
};

/** What the mobile apps can open: an item about a shared artifact. */
export function opensInApp(
  r: NotificationRecord,
): r is NotificationRecord & { sharedArtifact: { id: number }; sharedPortfolio: { id: number } } {
  return r.sharedArtifact !== null && r.sharedPortfolio !== null;
}

/** An item in the mobile apps' shape (`NotificationsListItem`). */
export function mobileMessage(
  r: NotificationRecord & { sharedArtifact: { id: number }; sharedPortfolio: { id: number } },
) {
  return {
    messageId: String(r.id),
    title: KIND_TITLES[r.kind],
    body: summaryOf(r),
    destination: JSON.stringify({
      screen: 'sharedArtifact',
      params: { sharedArtifactId: r.sharedArtifact.id, sharedPortfolioId: r.sharedPortfolio.id },
    }),
    viewed: r.read,
    sent: r.updatedAt.getTime(),
  };
}

/**
 * Items to mail, one group per person and thread (their shared artifact, else their shared
 * portfolio; an item about neither is a group of its own), in the order of their first item.
 */
export function mailGroups<T extends NotificationRecord & { mail: boolean }>(items: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    if (!item.mail) continue;
    const thread = item.sharedArtifact
      ? `a${item.sharedArtifact.id}`
      : item.sharedPortfolio
        ? `p${item.sharedPortfolio.id}`
        : `i${item.id}`;
    const key = `${item.userId}:${thread}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}

const COMMENT_KINDS: ReadonlySet<NotificationKind> = new Set(['comment', 'reply', 'mention']);

/** What a mail of several items of one thread is about, e.g. "3 new comments on “Group work” in Grade 5 PLC". */
export function threadTitle(group: readonly NotificationRecord[]): string {
  const first = group[0]!;
  const what = group.every((r) => COMMENT_KINDS.has(r.kind)) ? 'new comments' : 'updates';
  const where = first.sharedPortfolio?.name ?? 'a shared portfolio';
  return first.sharedArtifact
    ? `${group.length} ${what} on “${titleOf(first)}” in ${where}`
    : `${group.length} ${what} in ${where}`;
}
