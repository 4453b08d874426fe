import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { EmailFrequency, NotificationKind } from '../../schemas/notifications.ts';
import type { UiError } from '../../services/errors.ts';
import {
  hasUnsavedSettings,
  notificationPreferencesMachine,
  type EmailSettings,
} from './notificationPreferencesMachine.ts';

/** The page's actor; the app provides toasts and the leave guard's answers. */
export const NotificationPreferencesActorContext = createActorContext(notificationPreferencesMachine);

export type PreferencesStatus =
  'loading' | 'loadFailed' | 'editing' | 'saving' | 'saved' | 'saveFailed' | 'confirmingLeave' | 'leaving';

/** Where the page stands. */
export function usePreferencesStatus(): PreferencesStatus {
  return NotificationPreferencesActorContext.useSelector((s) => {
    if (s.matches('loadFailed')) return 'loadFailed';
    if (s.matches('leaving')) return 'leaving';
    for (const state of ['editing', 'saving', 'saved', 'saveFailed', 'confirmingLeave'] as const)
      if (s.matches({ form: state })) return state;
    return 'loading';
  });
}

/** The choices on the page (`null` until loaded). */
export const usePreferenceValues = (): EmailSettings | null =>
  NotificationPreferencesActorContext.useSelector((s) => s.context.values);

/** Whether there are choices to save. */
export const usePreferencesChanged = (): boolean =>
  NotificationPreferencesActorContext.useSelector((s) => hasUnsavedSettings(s.context));

/** Whether the choices can be changed now. */
export const useCanChangePreferences = (): boolean =>
  NotificationPreferencesActorContext.useSelector((s) =>
    s.can({ type: 'preference.change', kind: 'comment', frequency: 'off' }),
  );

/** Why loading or saving failed. */
export const usePreferencesError = (): UiError | null =>
  NotificationPreferencesActorContext.useSelector((s) => s.context.error);

/** What the page may ask. */
export function usePreferencesEvents() {
  const actor = NotificationPreferencesActorContext.useActorRef();
  return useMemo(
    () => ({
      change: (kind: NotificationKind, frequency: EmailFrequency) =>
        actor.send({ type: 'preference.change', kind, frequency }),
      submit: () => actor.send({ type: 'form.submit' }),
      retry: () => actor.send({ type: 'retry' }),
      stay: () => actor.send({ type: 'leave.stay' }),
      leave: () => actor.send({ type: 'leave.confirm' }),
    }),
    [actor],
  );
}
