import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';
import type { NotificationListResponse, NotificationReadBody, UnreadCount } from '../../schemas/notifications.ts';
import type { UnreadPoll } from '../../services/notificationService.ts';
import type { UnreadCountEvent, UnreadCountMachine } from '../unreadCount/unreadCountMachine.ts';
import type { NotificationFeedMachine } from './notificationFeedMachine.ts';
import { given } from '../shared/given.ts';

/** Replacements for the feed's service calls (a test's fakes). */
export interface FeedServices {
  listNotifications?: PromiseActorLogic<NotificationListResponse, { before: number | null; limit: number }>;
  markRead?: PromiseActorLogic<UnreadCount, NotificationReadBody>;
  pollUnread?: PromiseActorLogic<UnreadPoll, { etag: string | null }>;
  unreadStream?: CallbackActorLogic<UnreadCountEvent>;
}

/**
 * The feed's logic with other service calls, down to the child that makes the live count's
 * (`unreadCount`: the stream and the polls). What `logic` already gave its child is kept.
 */
export function provideFeedServices(
  logic: NotificationFeedMachine,
  { listNotifications, markRead, pollUnread, unreadStream }: FeedServices,
): NotificationFeedMachine {
  // The child as `logic` provides it (a machine's actors are typed as a union of them all).
  const children = logic.implementations.actors as unknown as { unreadCount: UnreadCountMachine };
  return logic.provide({
    actors: {
      ...given({ listNotifications, markRead }),
      unreadCount: children.unreadCount.provide({ actors: given({ pollUnread, unreadStream }) }),
    },
  });
}
