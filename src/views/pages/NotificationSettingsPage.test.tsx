import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { NotificationPreferences, NotificationPreferencesBody } from '../../schemas/notifications.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { defaultPreferences, renderNotificationSettings } from '../../test/notificationHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';

afterEach(clearToasts);

function setup({
  load = async () => defaultPreferences(),
  save,
}: {
  load?: () => Promise<NotificationPreferences>;
  save?: (body: NotificationPreferencesBody) => Promise<NotificationPreferences>;
} = {}) {
  const sent: NotificationPreferencesBody[] = [];
  const h = renderNotificationSettings({
    actors: {
      loadPreferences: fromPromise(load),
      savePreferences: fromPromise<NotificationPreferences, NotificationPreferencesBody>(async ({ input }) => {
        sent.push(input);
        if (save) return save(input);
        const base = defaultPreferences();
        return {
          email: {
            ...base.email,
            ...Object.fromEntries(Object.entries(input.email).filter(([, v]) => v !== undefined)),
          },
        };
      }),
    },
  });
  return { ...h, sent };
}

const group = (name: string) => screen.getByRole('group', { name });

describe('Notification Settings', () => {
  it('shows each kind with immediately / daily digest / off and the saved choice', async () => {
    setup();
    const comments = await screen.findByRole('group', { name: 'Comments' });
    expect(
      within(comments)
        .getAllByRole('radio')
        .map((r) => (r.parentElement as HTMLElement).textContent),
    ).toEqual(['Immediately', 'Daily digest', 'Off']);
    expect((within(comments).getByRole('radio', { name: 'Immediately' }) as HTMLInputElement).checked).toBe(true);
    expect((within(group('Reactions')).getByRole('radio', { name: 'Daily digest' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(screen.getAllByRole('group').map((g) => g.querySelector('legend')?.textContent)).toEqual([
      'Comments',
      'Replies',
      'Mentions',
      'Rubric scores',
      'Reactions',
      'Edits of your shared artifacts',
      'Invitations',
      'Accepted invitations',
      'Removal from a shared portfolio',
    ]);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves only what changed and says so', async () => {
    const h = setup();
    await h.ux.click(
      within(await screen.findByRole('group', { name: 'Mentions' })).getByRole('radio', { name: 'Off' }),
    );
    await h.ux.click(within(group('Reactions')).getByRole('radio', { name: 'Immediately' }));
    await h.ux.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your e-mail settings are saved.')).toBeTruthy();
    expect(h.sent).toEqual([{ email: { mention: 'off', reaction: 'immediately' } }]);
    // The form follows the answer (drawn as a transition, after the toast).
    expect((await screen.findByText('Saved.')).getAttribute('role')).toBe('status');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('keeps the choices and says why when saving fails', async () => {
    const h = setup({
      save: async () => {
        throw new ApiError(400, 'validation_error', 'Unknown setting.', '');
      },
    });
    await h.ux.click(
      within(await screen.findByRole('group', { name: 'Replies' })).getByRole('radio', { name: 'Daily digest' }),
    );
    await h.ux.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your e-mail settings could not be saved. Unknown setting.',
    );
    expect((within(group('Replies')).getByRole('radio', { name: 'Daily digest' }) as HTMLInputElement).checked).toBe(
      true,
    );
  });

  it('asks before leaving with unsaved choices', async () => {
    const h = setup();
    await h.ux.click(
      within(await screen.findByRole('group', { name: 'Comments' })).getByRole('radio', { name: 'Off' }),
    );
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    expect(screen.getByRole('alertdialog', { name: 'Leave this page?' })).toBeTruthy();
    expect(h.location.history.at(-1)).toBe('/settings/notifications');
    await h.ux.click(screen.getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(h.location.history.at(-1)).toBe('/dashboard'));
  });

  it('says when the settings could not be loaded, and tries again', async () => {
    let fail = true;
    const h = setup({
      load: async () => {
        if (fail) throw new NetworkError();
        return defaultPreferences();
      },
    });
    const problem = await screen.findByRole('alert');
    expect(problem.textContent).toContain('Your e-mail settings could not be loaded');
    fail = false;
    await h.ux.click(within(problem).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('group', { name: 'Comments' })).toBeTruthy();
  });
});
