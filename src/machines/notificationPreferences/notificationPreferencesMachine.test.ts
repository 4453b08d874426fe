import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  DEFAULT_EMAIL_PREFERENCES,
  type NotificationPreferences,
  type NotificationPreferencesBody,
} from '../../schemas/notifications.ts';
import { ApiError } from '../../services/errors.ts';
import type { Notice } from '../shared/notice.ts';
import { notificationPreferencesMachine, PREFERENCES_SAVED } from './notificationPreferencesMachine.ts';

const loaded: NotificationPreferences = { email: DEFAULT_EMAIL_PREFERENCES };
const answer: NotificationPreferences = {
  email: { ...DEFAULT_EMAIL_PREFERENCES, comment: 'daily', mention: 'off' },
};
const refusal = new ApiError(400, 'invalid', 'Unknown frequency.', '');

function start(save: () => Promise<NotificationPreferences> = async () => answer) {
  const notices: Notice[] = [];
  const sent: NotificationPreferencesBody[] = [];
  const left: string[] = [];
  const actor = createActor(
    notificationPreferencesMachine.provide({
      actors: {
        loadPreferences: fromPromise<NotificationPreferences>(async () => loaded),
        savePreferences: fromPromise<NotificationPreferences, NotificationPreferencesBody>(({ input }) => {
          sent.push(input);
          return save();
        }),
      },
      actions: {
        notify: (_, notice) => notices.push(notice),
        allowLeave: () => left.push('go'),
        stayHere: () => left.push('stay'),
      },
    }),
  ).start();
  return { actor, notices, sent, left };
}

describe('notificationPreferencesMachine guards', () => {
  it('hasUnsavedChanges: submitting the loaded settings sends nothing', async () => {
    const { actor, sent } = start();
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    actor.send({ type: 'preference.change', kind: 'reaction', frequency: 'daily' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
    expect(sent).toEqual([]);
  });

  it('hasUnsavedChanges: leaving with a changed choice asks first, without one leaves at once', async () => {
    const { actor, left } = start();
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    actor.send({ type: 'preference.change', kind: 'comment', frequency: 'off' });
    actor.send({ type: 'leave.request' });
    expect(actor.getSnapshot().matches({ form: 'confirmingLeave' })).toBe(true);
    actor.send({ type: 'leave.stay' });
    expect(left).toEqual(['stay']);
    actor.send({ type: 'preference.change', kind: 'comment', frequency: 'immediately' });
    actor.send({ type: 'leave.request' });
    expect(actor.getSnapshot().value).toBe('leaving');
    expect(left).toEqual(['stay', 'go']);
  });
});

describe('notificationPreferencesMachine actions', () => {
  it('a save sends only the changed kinds, stores the answer and says so', async () => {
    const { actor, sent, notices } = start();
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    actor.send({ type: 'preference.change', kind: 'comment', frequency: 'daily' });
    actor.send({ type: 'preference.change', kind: 'mention', frequency: 'off' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches({ form: 'saved' }));
    expect(sent).toEqual([{ email: { comment: 'daily', mention: 'off' } }]);
    const { saved, values } = actor.getSnapshot().context;
    expect(saved).toEqual(answer.email);
    expect(values).toEqual(saved);
    expect(notices).toEqual([{ message: PREFERENCES_SAVED, tone: 'success' }]);
  });

  it('a refused save keeps the choices and stores the error; a new choice clears it', async () => {
    const { actor, notices } = start(() => Promise.reject(refusal));
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    actor.send({ type: 'preference.change', kind: 'reply', frequency: 'off' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches({ form: 'saveFailed' }));
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'invalid', status: 400, message: 'Unknown frequency.' });
    expect(actor.getSnapshot().context.values?.reply).toBe('off');
    expect(actor.getSnapshot().context.saved?.reply).toBe('immediately');
    expect(notices).toEqual([]);
    actor.send({ type: 'preference.change', kind: 'reply', frequency: 'daily' });
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(actor.getSnapshot().context.values?.reply).toBe('daily');
  });
});
