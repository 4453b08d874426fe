import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';
import type { NotificationListResponse, NotificationReadBody, UnreadCount } from '../../schemas/notifications.ts';
import type { UnreadPoll } from '../../services/notificationService.ts';
import type { UnreadCountEvent } from '../unreadCount/unreadCountMachine.ts';
import type { NotificationFeedMachine } from './notificationFeedMachine.ts';
import { provideDown } from '../shared/given.ts';

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
  return provideDown(logic, 'unreadCount', { listNotifications, markRead }, { pollUnread, unreadStream });
}
