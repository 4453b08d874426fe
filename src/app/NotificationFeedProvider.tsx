import { useState, type ReactNode } from 'react';
import type { NotificationFeedRef } from '../machines/notificationFeed/notificationFeedMachine.ts';
import { NotificationFeedContext } from '../machines/notificationFeed/notificationFeedContext.ts';
import { useCurrentUser } from '../machines/session/useSession.ts';
import { lazyPart } from '../views/components/lazyParts.tsx';

// The feed's logic, its service and schemas arrive in a chunk of their own, once someone is signed in.
const NotificationFeedStarter = lazyPart(() => import('./wiring/notificationFeed.ts'), 'NotificationFeedStarter', null);

/**
 * Gives the header's bell and the Notifications page the signed-in user's feed: one actor per
 * session, started once the user is known and stopped when the session ends. Only this context
 * comes with the shell; the sign-in page never loads the feed.
 */
export function NotificationFeedProvider({ children }: { children: ReactNode }) {
  const userId = useCurrentUser()?.id ?? null;
  const [feed, setFeed] = useState<NotificationFeedRef | null>(null);
  return (
    <NotificationFeedContext.Provider value={feed}>
      {children}
      {userId !== null ? <NotificationFeedStarter key={userId} onFeed={setFeed} /> : null}
    </NotificationFeedContext.Provider>
  );
}
