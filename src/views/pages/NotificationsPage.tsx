import { useEffect } from 'react';
import type { NotificationFeedRef } from '../../machines/notificationFeed/notificationFeedMachine.ts';
import {
  useNotificationFeedActor,
  useNotificationFeedEvents,
} from '../../machines/notificationFeed/useNotificationFeed.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { NotificationList } from '../notifications/NotificationList.tsx';

export const NOTIFICATIONS_TITLE = 'Notifications';

function Feed({ feed }: { feed: NotificationFeedRef }) {
  const { enterPage, leavePage } = useNotificationFeedEvents(feed);
  useEffect(() => {
    enterPage();
    return leavePage;
  }, [enterPage, leavePage]);
  return <NotificationList feed={feed} variant="page" />;
}

/** Notifications (`/notifications`): the whole feed on a page of its own (the bell's panel on phones). */
export function NotificationsPage() {
  const feed = useNotificationFeedActor();
  return (
    <>
      <PageHeading title={NOTIFICATIONS_TITLE} />
      {feed ? <Feed feed={feed} /> : <PageSkeleton label="Loading notifications" />}
    </>
  );
}
