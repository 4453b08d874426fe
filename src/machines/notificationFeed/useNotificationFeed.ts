import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { Notification } from '../../schemas/notifications.ts';
import type { UiError } from '../../services/errors.ts';
import type { NotificationFeedRef, NotificationFeedSnapshot } from './notificationFeedMachine.ts';

export { NotificationFeedContext, useNotificationFeedActor } from './notificationFeedContext.ts';

/** The unread count (`null` until the server has told it). */
export const useUnreadCount = (ref: NotificationFeedRef): number | null => useSelector(ref, (s) => s.context.unread);

/** Whether the bell's panel is open. */
export const usePanelOpen = (ref: NotificationFeedRef): boolean =>
  useSelector(ref, (s) => s.matches({ panel: 'open' }));

export type FeedStatus = 'idle' | 'loading' | 'loadFailed' | 'loaded' | 'loadingMore';

function feedStatus(s: NotificationFeedSnapshot): FeedStatus {
  for (const status of ['loading', 'loadFailed', 'loaded', 'loadingMore'] as const)
    if (s.matches({ feed: status })) return status;
  return 'idle';
}

/** Where the list stands. */
export const useFeedStatus = (ref: NotificationFeedRef): FeedStatus => useSelector(ref, feedStatus);

/** The items, newest first. */
export const useFeedItems = (ref: NotificationFeedRef): readonly Notification[] =>
  useSelector(ref, (s) => s.context.items);

/** Why the list could not be loaded. */
export const useFeedError = (ref: NotificationFeedRef): UiError | null => useSelector(ref, (s) => s.context.error);

/** Whether older items can be loaded now. */
export const useCanLoadMore = (ref: NotificationFeedRef): boolean =>
  useSelector(ref, (s) => s.can({ type: 'feed.more' }));

/** Whether "Mark all as read" does something now. */
export const useCanReadAll = (ref: NotificationFeedRef): boolean =>
  useSelector(ref, (s) => s.can({ type: 'read.all' }));

/** What the bell, the panel and the page may ask. */
export function useNotificationFeedEvents(ref: NotificationFeedRef) {
  return useMemo(
    () => ({
      toggle: () => ref.send({ type: 'panel.toggle' }),
      close: () => ref.send({ type: 'panel.close' }),
      enterPage: () => ref.send({ type: 'page.enter' }),
      leavePage: () => ref.send({ type: 'page.leave' }),
      more: () => ref.send({ type: 'feed.more' }),
      retry: () => ref.send({ type: 'retry' }),
      open: (id: number) => ref.send({ type: 'item.open', id }),
      readAll: () => ref.send({ type: 'read.all' }),
    }),
    [ref],
  );
}
