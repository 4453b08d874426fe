import { createContext, useContext } from 'react';
// Types only: the app's shell holds this context before the feed's logic (and its schemas) have loaded.
import type { NotificationFeedRef } from './notificationFeedMachine.ts';

/**
 * The signed-in user's feed actor, created by the app once the session is known (`null` before,
 * while its logic loads, and for visitors without a session).
 */
export const NotificationFeedContext = createContext<NotificationFeedRef | null>(null);

/** The feed actor, or `null` while there is none. */
export const useNotificationFeedActor = (): NotificationFeedRef | null => useContext(NotificationFeedContext);
