import { useMemo } from 'react';
import { useSearch } from 'wouter';
import {
  notificationPreferencesHaveUnsavedChanges,
  notificationPreferencesMachine,
} from '../../machines/notificationPreferences/notificationPreferencesMachine.ts';
import { NotificationPreferencesActorContext } from '../../machines/notificationPreferences/useNotificationPreferences.ts';
import { UnsubscribeActorContext } from '../../machines/unsubscribe/useUnsubscribe.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { NotificationSettingsPage } from '../../views/pages/NotificationSettingsPage.tsx';
import { NotificationsPage } from '../../views/pages/NotificationsPage.tsx';
import { UnsubscribePage } from '../../views/pages/UnsubscribePage.tsx';
import { PrivateRoute } from '../../views/routing/guards.tsx';
import { allowLeave, stayHere } from '../navigation/leaveGuard.ts';
import { useLeaveGuard } from '../navigation/useLeaveGuard.ts';

/** `/notifications` (private): the whole feed. */
export function NotificationsRoute() {
  return (
    <PrivateRoute>
      <NotificationsPage />
    </PrivateRoute>
  );
}

/** The settings logic with the app's toasts and leave guard. */
export function provideNotificationPreferences() {
  return notificationPreferencesMachine.provide({
    actions: {
      notify: (_, { message, tone }) => notify(message, tone),
      allowLeave,
      stayHere,
    },
  });
}

/** Asks the settings' machine before anyone leaves the page. */
export function NotificationSettingsLeaveGuard() {
  useLeaveGuard(NotificationPreferencesActorContext.useActorRef(), notificationPreferencesHaveUnsavedChanges);
  return null;
}

/** `/settings/notifications` (private): what is e-mailed. */
export function NotificationSettingsRoute() {
  const logic = useMemo(() => provideNotificationPreferences(), []);
  return (
    <PrivateRoute>
      <NotificationPreferencesActorContext.Provider logic={logic}>
        <NotificationSettingsLeaveGuard />
        <NotificationSettingsPage />
      </NotificationPreferencesActorContext.Provider>
    </PrivateRoute>
  );
}

/** `/unsubscribe?token=…` (public): the link of every notification e-mail. */
export function UnsubscribeRoute() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  return (
    <UnsubscribeActorContext.Provider key={token} options={{ input: { token } }}>
      <UnsubscribePage />
    </UnsubscribeActorContext.Provider>
  );
}
