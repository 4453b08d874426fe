/**
 * E-mail settings (`/settings/notifications`): for each kind of notification, immediately, in the
 * daily digest, or off.
 *
 * loading ─(preferences)→ form.editing ─(form.submit, something changed)→ form.saving ─(saved)→ form.saved
 *    └─(failed)→ loadFailed ─(retry)→ loading          │                        └─(failed)→ form.saveFailed
 *                                                      └─(preference.change)→ form.editing (from saved or saveFailed too)
 * form.* ─(leave.request, unsaved changes)→ form.confirmingLeave ─(leave.confirm)→ leaving (the app goes on)
 *                                                  └─(leave.stay)→ form.editing (the app stays)
 * Without unsaved changes (or outside the form) `leave.request` lets the app go on at once.
 */
import { assign, fromPromise, setup } from 'xstate';
import type {
  EmailFrequency,
  NotificationKind,
  NotificationPreferences,
  NotificationPreferencesBody,
} from '../../schemas/notifications.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { getNotificationPreferences, updateNotificationPreferences } from '../../services/notificationService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export type EmailSettings = Readonly<Record<NotificationKind, EmailFrequency>>;

export interface NotificationPreferencesContext {
  /** As saved on the server (`null` until loaded). */
  saved: EmailSettings | null;
  /** As chosen on the page. */
  values: EmailSettings | null;
  error: UiError | null;
}

export type NotificationPreferencesEvent =
  | { type: 'preference.change'; kind: NotificationKind; frequency: EmailFrequency }
  | { type: 'form.submit' }
  | { type: 'retry' }
  | { type: 'leave.request' }
  | { type: 'leave.confirm' }
  | { type: 'leave.stay' };

export const PREFERENCES_SAVED = 'Your e-mail settings are saved.';

/** The kinds whose choice differs from the saved one (what `PUT` sends). */
export function changedSettings(
  context: Pick<NotificationPreferencesContext, 'saved' | 'values'>,
): NotificationPreferencesBody['email'] {
  const { saved, values } = context;
  if (!saved || !values) return {};
  return Object.fromEntries(
    (Object.keys(values) as NotificationKind[])
      .filter((kind) => values[kind] !== saved[kind])
      .map((kind) => [kind, values[kind]]),
  );
}

/** Whether the page holds choices not saved yet. */
export function hasUnsavedSettings(context: Pick<NotificationPreferencesContext, 'saved' | 'values'>): boolean {
  return Object.keys(changedSettings(context)).length > 0;
}

export const notificationPreferencesMachine = setup({
  types: {
    context: {} as NotificationPreferencesContext,
    events: {} as NotificationPreferencesEvent,
    tags: {} as 'busy',
  },
  actors: {
    loadPreferences: fromPromise<NotificationPreferences>(({ signal }) => getNotificationPreferences(signal)),
    savePreferences: fromPromise<NotificationPreferences, NotificationPreferencesBody>(({ input, signal }) =>
      updateNotificationPreferences(input, signal),
    ),
  },
  guards: {
    hasUnsavedChanges: ({ context }) => hasUnsavedSettings(context),
  },
  actions: {
    storePreferences: assign((_, params: { preferences: NotificationPreferences }) => ({
      saved: params.preferences.email,
      values: params.preferences.email,
      error: null,
    })),
    storeChoice: assign(({ context }, params: { kind: NotificationKind; frequency: EmailFrequency }) => ({
      values: context.values ? { ...context.values, [params.kind]: params.frequency } : null,
    })),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    clearError: assign({ error: null }),
    /** Tells the user something (provided by the app). */
    notify: effect<Notice>('notify'),
    /** Lets the navigation the user asked for happen (provided by the app). */
    allowLeave: effect('allowLeave'),
    /** Drops the navigation the user asked for (provided by the app). */
    stayHere: effect('stayHere'),
  },
}).createMachine({
  id: 'notificationPreferences',
  context: { saved: null, values: null, error: null },
  initial: 'loading',
  on: { 'leave.request': { actions: 'allowLeave' } },
  states: {
    loading: {
      invoke: {
        id: 'loadPreferences',
        src: 'loadPreferences',
        onDone: {
          target: 'form',
          actions: { type: 'storePreferences', params: ({ event }) => ({ preferences: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    form: {
      initial: 'editing',
      on: {
        'leave.request': [
          { guard: 'hasUnsavedChanges', target: '.confirmingLeave' },
          { target: 'leaving', actions: 'allowLeave' },
        ],
      },
      states: {
        editing: {
          on: {
            'preference.change': { actions: { type: 'storeChoice', params: ({ event }) => event } },
            'form.submit': { guard: 'hasUnsavedChanges', target: 'saving' },
          },
        },
        saving: {
          tags: ['busy'],
          // The choices are on their way: leaving loses nothing.
          on: { 'leave.request': { actions: 'allowLeave' } },
          invoke: {
            id: 'savePreferences',
            src: 'savePreferences',
            input: ({ context }) => ({ email: changedSettings(context) }),
            onDone: {
              target: 'saved',
              actions: [
                { type: 'storePreferences', params: ({ event }) => ({ preferences: event.output }) },
                { type: 'notify', params: { message: PREFERENCES_SAVED, tone: 'success' } },
              ],
            },
            onError: {
              target: 'saveFailed',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        saved: {
          on: {
            'preference.change': { target: 'editing', actions: { type: 'storeChoice', params: ({ event }) => event } },
          },
        },
        saveFailed: {
          on: {
            'preference.change': {
              target: 'editing',
              actions: ['clearError', { type: 'storeChoice', params: ({ event }) => event }],
            },
            'form.submit': { guard: 'hasUnsavedChanges', target: 'saving', actions: 'clearError' },
          },
        },
        confirmingLeave: {
          on: {
            'leave.stay': { target: 'editing', actions: 'stayHere' },
            'leave.confirm': { target: '#notificationPreferences.leaving', actions: 'allowLeave' },
          },
        },
      },
    },
    // The app is leaving the page; nothing more happens here.
    leaving: { tags: ['busy'] },
  },
});

export type NotificationPreferencesMachine = typeof notificationPreferencesMachine;

/** Whether leaving the page now (reload, closing the tab) would lose choices. */
export function notificationPreferencesHaveUnsavedChanges(snapshot: {
  matches: (state: 'form') => boolean;
  context: NotificationPreferencesContext;
}): boolean {
  return snapshot.matches('form') && hasUnsavedSettings(snapshot.context);
}
