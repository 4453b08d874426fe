/** The page of the two model tests of the notification feed (the feed, and its live unread count). */
import { cleanup, screen } from '@testing-library/react';
import type {
  NotificationListResponse,
  NotificationReadBody,
  UnreadCount,
} from '../../../src/schemas/notifications.ts';
import type { UnreadPoll } from '../../../src/services/notificationService.ts';
import { fakeStream, renderNotificationFeed } from '../../../src/test/notificationHarness.tsx';
import { clearToasts } from '../../../src/views/feedback/toastStore.ts';
import { coverageInspector } from './coverage.ts';
import { controllableActor } from './deferred.ts';

/** The header's bell with the feed running; every request and the stream wait for the test. */
export function renderFeed() {
  const fakes = {
    listNotifications: controllableActor<NotificationListResponse, { before: number | null; limit: number }>(),
    markRead: controllableActor<UnreadCount, NotificationReadBody>(),
    pollUnread: controllableActor<UnreadPoll, { etag: string | null }>(),
  };
  const stream = fakeStream();
  const rendered = renderNotificationFeed({
    actors: {
      listNotifications: fakes.listNotifications.logic,
      markRead: fakes.markRead.logic,
      pollUnread: fakes.pollUnread.logic,
      unreadStream: stream.logic,
    },
    inspect: coverageInspector,
  });
  open = rendered;
  return { ...rendered, fakes, stream };
}

export type FeedHarness = ReturnType<typeof renderFeed>;

/** The feed rendered last, until it is closed. */
let open: { feed: { stop: () => void } } | null = null;

/** After a test: the page leaves the feed as it unmounts (unmount first, then stop the actor). */
export function closeFeed() {
  cleanup();
  open?.feed.stop();
  open = null;
  clearToasts();
}

export const bell = () => screen.getByRole('button', { name: /^Notifications/ });
