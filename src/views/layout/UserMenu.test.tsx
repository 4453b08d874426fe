import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectPath, makeUser, renderSignedIn, resetApp, testConfig } from '../../test/renderApp.tsx';

afterEach(() => {
  resetApp();
  vi.unstubAllGlobals();
});

/** The server's answer to the logout of a password session: no provider's sign-out to offer. */
const answerLogout = () =>
  vi.stubGlobal('fetch', async () => new Response('{}', { headers: { 'content-type': 'application/json' } }));

const menuItemNames = () =>
  within(screen.getByRole('menu'))
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

describe('user menu (spec §2)', () => {
  it('is titled with the username and holds Manage Users, Rubrics, Help and Log Out for a researcher', async () => {
    const user = makeUser('researcher', { username: 'Dr. Ada Lab' });
    await renderSignedIn('/dashboard', user);
    const trigger = screen.getByRole('button', { name: 'Dr. Ada Lab' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('menu', { name: 'Dr. Ada Lab' })).toBeTruthy();
    expect(menuItemNames()).toEqual([
      'Manage Users',
      'Rubrics',
      'Notification Settings',
      'Mobile App Password',
      'Help (opens in a new tab)',
      'Log Out',
    ]);
  });

  it.each(['teacher', 'plcLead'] as const)('holds no Manage Users for a %s', async (kind) => {
    const user = makeUser(kind);
    await renderSignedIn('/dashboard', user);
    await userEvent.click(screen.getByRole('button', { name: user.username }));
    expect(menuItemNames()).toEqual([
      'Notification Settings',
      'Mobile App Password',
      'Help (opens in a new tab)',
      'Log Out',
    ]);
  });

  it('Help opens the configured guide in a new tab', async () => {
    const user = makeUser();
    await renderSignedIn('/dashboard', user, { config: { helpUrl: 'https://guide.example.org/start' } });
    await userEvent.click(screen.getByRole('button', { name: user.username }));
    const help = screen.getByRole('menuitem', { name: 'Help (opens in a new tab)' });
    expect(help.getAttribute('href')).toBe('https://guide.example.org/start');
    expect(help.getAttribute('target')).toBe('_blank');
    expect(help.getAttribute('rel')).toContain('noopener');
    expect(testConfig.helpUrl).not.toBe('https://guide.example.org/start');
  });

  it('Manage Users goes to /users and closes the menu', async () => {
    const user = makeUser('researcher');
    const { location } = await renderSignedIn('/dashboard', user);
    await userEvent.click(screen.getByRole('button', { name: user.username }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Manage Users' }));
    await expectPath(location, '/users');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('Log Out ends the session and reloads the site', async () => {
    const user = makeUser();
    const { reloadHome, sessionActor } = await renderSignedIn('/dashboard', user);
    answerLogout();
    expect(document.cookie).toContain('pf_session=');
    await userEvent.click(screen.getByRole('button', { name: user.username }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Log Out' }));
    // The server's answer is awaited (a single sign-on session's may offer the provider's sign-out).
    await waitFor(() => expect(reloadHome).toHaveBeenCalledTimes(1));
    expect(sessionActor.getSnapshot().value).toBe('loggedOut');
    expect(document.cookie).not.toContain('pf_session=');
  });

  it('works from the keyboard: ArrowDown opens and moves, Escape closes and returns focus', async () => {
    const ux = userEvent.setup();
    const user = makeUser('researcher');
    await renderSignedIn('/dashboard', user);
    const trigger = screen.getByRole('button', { name: user.username });
    trigger.focus();
    await ux.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Manage Users'));
    await ux.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Rubrics');
    await ux.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Notification Settings');
    await ux.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Mobile App Password');
    await ux.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Help (opens in a new tab)');
    await ux.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Log Out');
    await ux.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Manage Users');
    await ux.keyboard('{ArrowUp}');
    expect(document.activeElement?.textContent).toBe('Log Out');
    await ux.keyboard('{Home}');
    expect(document.activeElement?.textContent).toBe('Manage Users');
    await ux.keyboard('{End}');
    expect(document.activeElement?.textContent).toBe('Log Out');
    await ux.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it('Enter on a focused item acts on it', async () => {
    const ux = userEvent.setup();
    const user = makeUser();
    const { reloadHome } = await renderSignedIn('/dashboard', user);
    answerLogout();
    screen.getByRole('button', { name: user.username }).focus();
    await ux.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Log Out');
    await ux.keyboard('{Enter}');
    await waitFor(() => expect(reloadHome).toHaveBeenCalledTimes(1));
  });

  it('closes on a click outside', async () => {
    const user = makeUser();
    await renderSignedIn('/dashboard', user);
    await userEvent.click(screen.getByRole('button', { name: user.username }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await userEvent.click(screen.getByRole('heading', { level: 1 }));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
