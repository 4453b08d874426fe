import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { createActor } from 'xstate';
import {
  notificationFeedMachine,
  type NotificationFeedRef,
} from '../../machines/notificationFeed/notificationFeedMachine.ts';
import { notify } from '../../views/feedback/toastStore.ts';

/**
 * Goes to a notification's place. The same page may already be on screen (another comment of the
 * artifact shown): the router then sees no new address, so the page hears the new `#comment-…`
 * through `hashchange`, as after a browser's own jump.
 */
export function openNotificationLink(navigate: (to: string) => void, link: string): void {
  navigate(link);
  if (link.includes('#')) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** The feed's logic with the app's navigation and toasts. */
export function provideNotificationFeed(navigate: (to: string) => void) {
  return notificationFeedMachine.provide({
    actions: {
      openLink: (_, { link }) => openNotificationLink(navigate, link),
      notify: (_, { message, tone }) => notify(message, tone),
    },
  });
}

/** The signed-in user's feed actor, started. */
export function startNotificationFeed(navigate: (to: string) => void): NotificationFeedRef {
  return createActor(provideNotificationFeed(navigate), { input: {} }).start();
}

/**
 * Starts the signed-in user's feed and hands it to the app's shell (`onFeed`), which shares it with
 * the bell and the Notifications page; stops it (and hands `null`) when the session ends. Loaded
 * lazily: the sign-in page never loads the feed.
 */
export function NotificationFeedStarter({ onFeed }: { onFeed: (feed: NotificationFeedRef | null) => void }): null {
  const [, navigate] = useLocation();
  useEffect(() => {
    const actor = startNotificationFeed(navigate);
    onFeed(actor);
    return () => {
      actor.stop();
      onFeed(null);
    };
  }, [navigate, onFeed]);
  return null;
}
