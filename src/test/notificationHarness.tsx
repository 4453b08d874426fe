/**
 * Test kit of the notifications: fixtures, and the bell, the Notifications page and the settings
 * page rendered the way the app wires them (the app's navigation on a memory location) with fake
 * service actors.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, fromCallback, SimulatedClock, type AnyActorLogic, type InspectionEvent } from 'xstate';
import { allowLeave, guardedNavigation, stayHere } from '../app/navigation/leaveGuard.ts';
import { provideNotificationFeed } from '../app/wiring/notificationFeed.ts';
import { NotificationSettingsLeaveGuard } from '../app/wiring/notificationRoutes.tsx';
import type { NotificationFeedRef } from '../machines/notificationFeed/notificationFeedMachine.ts';
import { provideFeedServices, type FeedServices } from '../machines/notificationFeed/provideFeedServices.ts';
import { NotificationFeedContext } from '../machines/notificationFeed/useNotificationFeed.ts';
import { notificationPreferencesMachine } from '../machines/notificationPreferences/notificationPreferencesMachine.ts';
import { NotificationPreferencesActorContext } from '../machines/notificationPreferences/useNotificationPreferences.ts';
import {
  DEFAULT_EMAIL_PREFERENCES,
  type Notification,
  type NotificationPreferences,
} from '../schemas/notifications.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { NotificationBell } from '../views/notifications/NotificationBell.tsx';
import { NotificationSettingsPage } from '../views/pages/NotificationSettingsPage.tsx';
import { NotificationsPage } from '../views/pages/NotificationsPage.tsx';
import type { UnreadCountEvent } from '../machines/unreadCount/unreadCountMachine.ts';

let nextId = 500;

/** A feed item as `GET /notifications` returns it. */
export function makeNotification(overrides: Partial<Notification> = {}): Notification {
  nextId += 1;
  const id = overrides.id ?? nextId;
  return {
    id,
    kind: 'comment',
    read: false,
    created_at: '2026-11-25T11:00:00.000Z',
    updated_at: '2026-11-25T11:00:00.000Z',
    actor: { id: 4, username: 'Theo Teacher' },
    count: 1,
    sharedPortfolio: { id: 1, name: 'Grade 5 PLC' },
    sharedArtifact: { id: 2, title: 'Ramp race' },
    comment: 30 + id,
    moment: null,
    summary: `Theo Teacher commented on “Ramp race” in Grade 5 PLC (${id})`,
    link: `/shared-portfolios/1/artifacts/2#comment-${30 + id}`,
    ...overrides,
  };
}

/** The settings as the server keeps them for someone who never changed them. */
export const defaultPreferences = (): NotificationPreferences => ({ email: { ...DEFAULT_EMAIL_PREFERENCES } });

/** A stand-in for the live stream: the test pushes counts and failures. */
export function fakeStream() {
  let sendBack: ((event: UnreadCountEvent) => void) | null = null;
  let opened = 0;
  let closed = 0;
  const logic = fromCallback<UnreadCountEvent>(({ sendBack: send }) => {
    sendBack = send;
    opened += 1;
    return () => {
      closed += 1;
      sendBack = null;
    };
  });
  return {
    logic,
    get opened() {
      return opened;
    },
    get closed() {
      return closed;
    },
    /** The server pushes a count. */
    emit(unread: number) {
      if (!sendBack) throw new Error('The stream is not open');
      sendBack({ type: 'unread.changed', unread });
    },
    /** The connection fails. */
    fail() {
      if (!sendBack) throw new Error('The stream is not open');
      sendBack({ type: 'stream.failed' });
    },
  };
}

/** The header's bell, the Notifications page and another page, with a feed actor made of `actors`. */
export function renderNotificationFeed({
  actors,
  inspect,
  path = '/dashboard',
  pageSize = 2,
}: {
  actors: Record<string, AnyActorLogic>;
  inspect?: (event: InspectionEvent) => void;
  path?: string;
  pageSize?: number;
}) {
  const location = memoryLocation({ path, record: true });
  const navigate = (to: string) => guardedNavigation(location.navigate, to);
  const clock = new SimulatedClock();
  const logic = provideFeedServices(provideNotificationFeed(navigate), actors as FeedServices);
  const feed: NotificationFeedRef = createActor(logic, { input: { pageSize }, clock, ...(inspect ? { inspect } : {}) });
  feed.start();
  const rendered = render(
    <Router hook={location.hook} aroundNav={guardedNavigation}>
      <NotificationFeedContext.Provider value={feed}>
        <header>
          <NotificationBell />
        </header>
        <main>
          <Switch>
            <Route path="/notifications">
              <NotificationsPage />
            </Route>
            <Route>
              <p>Another page</p>
            </Route>
          </Switch>
        </main>
      </NotificationFeedContext.Provider>
      <Toaster />
    </Router>,
  );
  return { ...rendered, feed, clock, location, ux: userEvent.setup({ delay: null }) };
}

/** The settings page with its leave guard and a header link to leave it by. */
export function renderNotificationSettings({
  actors,
  inspect,
}: {
  actors: Record<string, AnyActorLogic>;
  inspect?: (event: InspectionEvent) => void;
}) {
  const location = memoryLocation({ path: '/settings/notifications', record: true });
  const logic = notificationPreferencesMachine.provide({
    actors: actors as never,
    actions: { notify: (_, n) => notify(n.message, n.tone), allowLeave, stayHere },
  });
  const rendered = render(
    <Router hook={location.hook} aroundNav={guardedNavigation}>
      <nav aria-label="Main">
        <Link href="/dashboard">PORTFOLIO DASHBOARD</Link>
      </nav>
      <Switch>
        <Route path="/settings/notifications">
          <NotificationPreferencesActorContext.Provider logic={logic} options={inspect ? { inspect } : {}}>
            <NotificationSettingsLeaveGuard />
            <NotificationSettingsPage />
          </NotificationPreferencesActorContext.Provider>
        </Route>
        <Route>
          <p>Another page</p>
        </Route>
      </Switch>
      <Toaster />
    </Router>,
  );
  return { ...rendered, location, ux: userEvent.setup({ delay: null }) };
}
