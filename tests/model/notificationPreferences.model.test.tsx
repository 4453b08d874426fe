import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  notificationPreferencesMachine,
  PREFERENCES_SAVED,
  type NotificationPreferencesEvent,
} from '../../src/machines/notificationPreferences/notificationPreferencesMachine.ts';
import type { NotificationPreferences, NotificationPreferencesBody } from '../../src/schemas/notifications.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { defaultPreferences, renderNotificationSettings } from '../../src/test/notificationHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { SETTINGS_LOAD_FAILED, SETTINGS_SAVE_FAILED } from '../../src/views/pages/NotificationSettingsPage.tsx';
import { coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(notificationPreferencesMachine);
afterEach(clearToasts);

interface Snapshot {
  value: unknown;
  context: {
    saved: NotificationPreferences['email'] | null;
    values: NotificationPreferences['email'] | null;
    error: { message: string } | null;
  };
  matches: (value: unknown) => boolean;
  can: (event: NotificationPreferencesEvent) => boolean;
}

const loaded = defaultPreferences();
const savedAnswer: NotificationPreferences = { email: { ...loaded.email, comment: 'off' } };
const offline = new NetworkError();
const refused = new ApiError(400, 'validation_error', 'Unknown setting "weekly".', '');
const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as NotificationPreferencesEvent;

function setup() {
  const fakes = {
    loadPreferences: controllableActor<NotificationPreferences>(),
    savePreferences: controllableActor<NotificationPreferences, NotificationPreferencesBody>(),
  };
  const h = renderNotificationSettings({
    actors: { loadPreferences: fakes.loadPreferences.logic, savePreferences: fakes.savePreferences.logic },
    inspect: coverageInspector,
  });
  return { ...h, fakes };
}

let h: ReturnType<typeof setup>;

const commentChoice = (label: 'Immediately' | 'Daily digest' | 'Off') =>
  within(screen.getByRole('group', { name: 'Comments' })).getByRole('radio', { name: label }) as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;

/** What a user sees of the settings page. */
interface SettingsView {
  loading: boolean;
  problem: string | null;
  comments: string | null;
  save: 'ready' | 'busy' | 'disabled' | null;
  saved: boolean;
  saveError: string | null;
  leaveQuestion: boolean;
  elsewhere: boolean;
}

function expectedView(s: Snapshot): SettingsView {
  const none: SettingsView = {
    loading: false,
    problem: null,
    comments: null,
    save: null,
    saved: false,
    saveError: null,
    leaveQuestion: false,
    elsewhere: false,
  };
  if (s.matches('loading')) return { ...none, loading: true };
  if (s.matches('loadFailed')) return { ...none, problem: SETTINGS_LOAD_FAILED };
  if (s.matches('leaving')) return { ...none, elsewhere: true };
  const changed = s.context.values!.comment !== s.context.saved!.comment;
  return {
    ...none,
    comments: { immediately: 'Immediately', daily: 'Daily digest', off: 'Off' }[s.context.values!.comment],
    save: s.matches({ form: 'saving' }) ? 'busy' : changed ? 'ready' : 'disabled',
    saved: s.matches({ form: 'saved' }),
    saveError: s.matches({ form: 'saveFailed' }) ? `${SETTINGS_SAVE_FAILED} ${s.context.error!.message}` : null,
    leaveQuestion: s.matches({ form: 'confirmingLeave' }),
  };
}

function observedView(): SettingsView {
  const group = screen.queryByRole('group', { name: 'Comments' });
  const checked = group
    ? (within(group).getAllByRole('radio') as HTMLInputElement[]).find((radio) => radio.checked)
    : undefined;
  const save = screen.queryByRole('button', { name: 'Save' }) as HTMLButtonElement | null;
  const alert = screen.queryAllByRole('alert').find((el) => el.textContent?.startsWith(SETTINGS_SAVE_FAILED));
  const problem = screen.queryAllByRole('alert').find((el) => el.querySelector('h2'));
  return {
    loading: screen.queryByRole('status', { name: 'Loading your e-mail settings' }) !== null,
    problem: problem?.querySelector('h2')?.textContent ?? null,
    comments: checked ? (checked.parentElement?.textContent ?? null) : null,
    save: save ? (save.getAttribute('aria-busy') === 'true' ? 'busy' : save.disabled ? 'disabled' : 'ready') : null,
    saved: screen.queryByText('Saved.') !== null,
    saveError: alert?.textContent ?? null,
    leaveQuestion: screen.queryByRole('alertdialog', { name: 'Leave this page?' }) !== null,
    elsewhere: screen.queryByText('Another page') !== null,
  };
}

function events(snapshot: unknown): NotificationPreferencesEvent[] {
  const s = snapshot as Snapshot;
  const list: NotificationPreferencesEvent[] = [];
  if (s.matches('loading')) {
    list.push(
      actorEvent('xstate.done.actor.loadPreferences', { output: loaded }),
      actorEvent('xstate.error.actor.loadPreferences', { error: offline }),
    );
  }
  if (s.matches('loadFailed')) list.push({ type: 'retry' });
  if (s.matches('form')) {
    const values = s.context.values!;
    // One change (comments off) and its way back, to keep the paths few.
    if (values.comment === 'immediately') list.push({ type: 'preference.change', kind: 'comment', frequency: 'off' });
    else list.push({ type: 'preference.change', kind: 'comment', frequency: 'immediately' });
    list.push({ type: 'form.submit' });
    if (!s.matches({ form: 'saving' })) list.push({ type: 'leave.request' });
  }
  if (s.matches({ form: 'confirmingLeave' })) list.push({ type: 'leave.stay' }, { type: 'leave.confirm' });
  if (s.matches({ form: 'saving' })) {
    list.push(
      actorEvent('xstate.done.actor.savePreferences', { output: savedAnswer }),
      actorEvent('xstate.error.actor.savePreferences', { error: refused }),
    );
  }
  return list.filter((event) => event.type.startsWith('xstate.') || s.can(event));
}

const handlers = {
  'xstate.done.actor.loadPreferences': async (step: { event: unknown }) => {
    await act(async () =>
      h.fakes.loadPreferences.next().deferred.resolve((step.event as { output: NotificationPreferences }).output),
    );
  },
  'xstate.error.actor.loadPreferences': async () => {
    await act(async () => h.fakes.loadPreferences.next().deferred.reject(offline));
  },
  'xstate.done.actor.savePreferences': async () => {
    const call = h.fakes.savePreferences.next();
    // Only what changed is sent.
    expect(call.input).toEqual({ email: { comment: 'off' } });
    await act(async () => call.deferred.resolve(savedAnswer));
    expect(await screen.findByText(PREFERENCES_SAVED)).toBeTruthy();
  },
  'xstate.error.actor.savePreferences': async () => {
    await act(async () => h.fakes.savePreferences.next().deferred.reject(refused));
  },
  retry: async () => {
    await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
  },
  'preference.change': async (step: { event: unknown }) => {
    const { frequency } = step.event as { frequency: 'off' | 'immediately' };
    await h.ux.click(commentChoice(frequency === 'off' ? 'Off' : 'Immediately'));
  },
  'form.submit': async () => {
    await h.ux.click(saveButton());
  },
  'leave.request': async () => {
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
  },
  'leave.stay': async () => {
    await h.ux.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(h.location.history.at(-1)).toBe('/settings/notifications');
  },
  'leave.confirm': async () => {
    await h.ux.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(h.location.history.at(-1)).toBe('/dashboard');
  },
};

describe('notificationPreferences model', () => {
  const model = createPathModel(notificationPreferencesMachine, { events });
  const paths = model.getShortestPaths();
  it('has paths to every state', () => {
    expect(paths.length).toBeGreaterThan(8);
  });
  for (const path of paths) {
    const name = path.steps
      .map((step) =>
        (step.event as { type: string }).type.replace(/^xstate\.(done|error)\.actor\./, (_, k: string) =>
          k === 'done' ? '✓ ' : '✗ ',
        ),
      )
      .join(' → ');
    it(`reaches ${JSON.stringify(path.state.value)}: ${name}`, async () => {
      h = setup();
      await path.test({
        states: {
          '*': async (state) => {
            const expected = expectedView(state as unknown as Snapshot);
            await waitFor(() => expect(observedView()).toEqual(expected));
          },
        },
        events: handlers,
      });
    });
  }

  // Leaving where nothing typed can be lost goes at once (these steps leave the state as it was,
  // so the shortest paths above do not take them).
  it('leaving while the settings load goes at once', async () => {
    h = setup();
    expect(screen.getByRole('status', { name: 'Loading your e-mail settings' })).toBeTruthy();
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    expect(h.location.history.at(-1)).toBe('/dashboard');
    expect(screen.getByText('Another page')).toBeTruthy();
  });

  it('leaving while the choices are being saved goes at once', async () => {
    h = setup();
    await act(async () => h.fakes.loadPreferences.next().deferred.resolve(loaded));
    await h.ux.click(commentChoice('Daily digest'));
    await h.ux.click(saveButton());
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(h.location.history.at(-1)).toBe('/dashboard');
  });
});
