import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, DEMO, login, outboxFor, setupBrowser, tokenFor, waitForResetLink } from './fixtures.ts';

const browser = setupBrowser();

describe('public pages', () => {
  it('shows Home, About and Privacy with the public navigation and footer', async () => {
    const page = await browser.newPage('/');
    await page.waitForURL('**/home');
    await expect.poll(() => page.getByRole('link', { name: 'LOGIN', exact: true }).count()).toBe(1);
    for (const name of ['HOME', 'ABOUT'])
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).count()).toBe(1);
    // The page's own code arrives after the shell.
    await expect.poll(() => page.getByRole('link', { name: 'Download on the App Store' }).count()).toBeGreaterThan(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'ABOUT' }).click();
    await page.waitForURL('**/about');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBeTruthy();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL('**/privacy');
    await expect.poll(() => page.getByText('11/1/21').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: /Give Feedback/ }).count()).toBe(0);
  });
});

describe('logging in and out', () => {
  const roles = [
    { who: DEMO.teacher, nav: ['PORTFOLIO DASHBOARD', 'MY PORTFOLIOS', 'SHARED PORTFOLIOS'], manage: false },
    { who: DEMO.lead, nav: ['PORTFOLIO DASHBOARD', 'MY PORTFOLIOS', 'SHARED PORTFOLIOS', 'INSIGHTS'], manage: false },
    {
      who: DEMO.researcher,
      nav: ['PORTFOLIO DASHBOARD', 'TEACHER PORTFOLIOS', 'SHARED PORTFOLIOS', 'INSIGHTS', 'RESEARCH EXPORT'],
      manage: true,
    },
  ];
  for (const role of roles) {
    it(`${role.who.username}: login → dashboard → logout`, async () => {
      const page = await browser.newPage('/login');
      await login(page, role.who.email);
      await page.waitForURL('**/dashboard');
      await page.getByRole('heading', { name: 'PORTFOLIO DASHBOARD' }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const name of role.nav) expect(await nav.getByRole('link', { name }).count(), name).toBe(1);
      // The research export is a researcher's alone.
      expect(await nav.getByRole('link', { name: 'RESEARCH EXPORT' }).count()).toBe(
        role.nav.includes('RESEARCH EXPORT') ? 1 : 0,
      );
      // The charts are for researchers and PLC leads.
      expect(await nav.getByRole('link', { name: 'INSIGHTS' }).count()).toBe(role.nav.includes('INSIGHTS') ? 1 : 0);
      await page.getByRole('button', { name: role.who.username }).click();
      expect(await page.getByRole('menuitem', { name: 'Manage Users' }).count()).toBe(role.manage ? 1 : 0);
      // The installation's rubrics are researchers' work, beside Manage Users.
      expect(await page.getByRole('menuitem', { name: 'Rubrics' }).count()).toBe(role.manage ? 1 : 0);
      expect(await page.getByRole('menuitem', { name: /Help/ }).count()).toBe(1);
      expect(await page.getByRole('link', { name: /Give Feedback/ }).count()).toBe(1);
      // The session token is in an HttpOnly cookie: the page's scripts cannot read it.
      const session = (await page.context().cookies()).find((c) => c.name === 'jwt')!;
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(await page.evaluate(() => document.cookie)).not.toContain('jwt=');
      const token = session.value;
      expect((await api('GET', '/users/me', undefined, token)).status).toBe(200);
      await page.getByRole('menuitem', { name: 'Log Out' }).click();
      await page.waitForURL('**/home');
      // The logout is sent with keepalive while the page goes home: its answer clears the cookie.
      await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === 'jwt')).toBeUndefined();
      // The session ended on the server too: a copy of its token opens nothing any more.
      await expect.poll(async () => (await api('GET', '/users/me', undefined, token)).status).toBe(401);
      await page.goto('/dashboard');
      await page.waitForURL('**/home');
    });
  }

  it('refuses a wrong password with the spec message and stays on the page', async () => {
    const page = await browser.newPage('/login');
    await page.getByLabel('Email').fill(DEMO.teacher2.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('returns to the page first asked for after logging in', async () => {
    const page = await browser.newPage('/users');
    await page.waitForURL('**/home');
    await page.goto('/login');
    await login(page, DEMO.researcher.email);
    await page.waitForURL('**/users');
    await page.getByRole('heading', { name: 'Manage Users' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/users');
  });
});

describe('keep me signed in', () => {
  const SCREENSHOTS = path.resolve('e2e/screenshots');
  const sessionCookies = async (page: Page) =>
    (await page.context().cookies()).filter((c) => c.name === 'jwt' || c.name === 'pf_session');

  it('is offered unticked, with a target of at least 24 × 24 px, at a phone’s and a laptop’s width', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 900 },
    ]) {
      const page = await browser.newPage('/login', viewport);
      const box = page.getByRole('checkbox', { name: 'Keep me signed in' });
      await box.waitFor();
      expect(await box.isChecked()).toBe(false);
      for (const target of [box, page.locator('label').filter({ hasText: 'Keep me signed in' })]) {
        const size = (await target.boundingBox())!;
        expect(size.width, `${viewport.width}: target width`).toBeGreaterThanOrEqual(24);
        expect(size.height, `${viewport.width}: target height`).toBeGreaterThanOrEqual(24);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, `login-${viewport.width}.png`), fullPage: true });
    }
  });

  it('without the box, the session cookies end with the browser session (no expiry)', async () => {
    const page = await browser.newPage('/login');
    await login(page, DEMO.teacher2.email);
    await page.waitForURL('**/dashboard');
    const cookies = await sessionCookies(page);
    expect(cookies.map((c) => [c.name, c.expires]).sort()).toEqual([
      ['jwt', -1],
      ['pf_session', -1],
    ]);
  });

  it('with the box ticked, the session cookies are kept for 30 days', async () => {
    const page = await browser.newPage('/login');
    await page.getByText('Keep me signed in').click();
    expect(await page.getByRole('checkbox', { name: 'Keep me signed in' }).isChecked()).toBe(true);
    await login(page, DEMO.teacher2.email);
    await page.waitForURL('**/dashboard');
    const cookies = await sessionCookies(page);
    expect(cookies.map((c) => c.name).sort()).toEqual(['jwt', 'pf_session']);
    const now = Date.now() / 1000;
    for (const cookie of cookies) {
      expect(cookie.expires, cookie.name).toBeGreaterThan(now + 29 * 24 * 3600);
      expect(cookie.expires, cookie.name).toBeLessThanOrEqual(now + 30 * 24 * 3600 + 60);
    }
  });
});

describe('password reset', () => {
  it('forgot password → link from the outbox → new password → logged in', async () => {
    // An account of its own (the demo passwords are too weak to be set again): made by a
    // researcher, its first password set through the welcome link.
    const stamp = Date.now();
    const email = `reset.journey.${stamp}@example.org`;
    const username = `Rhea Resetter ${stamp}`;
    const researcher = await tokenFor(DEMO.researcher.email);
    expect((await api('POST', '/invitations/outside', { email, username, roleId: 1 }, researcher)).status).toBe(200);
    const welcome = new URL(await waitForResetLink(email)).pathname.split('/').pop();
    expect(
      (
        await api('POST', '/auth/reset-password', {
          code: welcome,
          password: 'first-lantern-48',
          passwordConfirmation: 'first-lantern-48',
        })
      ).status,
    ).toBe(200);

    const before = outboxFor(email).length;
    const page = await browser.newPage('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'SUBMIT' }).click();
    await page.getByText('If your email was valid, a reset password link will be sent to it.').waitFor();
    await page.waitForURL('**/login');
    const link = await waitForResetLink(email, before);
    const fresh = await browser.newPage(new URL(link).pathname);
    await fresh.getByLabel('New Password', { exact: true }).fill('a-new-secret-1');
    await fresh.getByLabel('Confirm New Password').fill('a-new-secret-1');
    await fresh.getByRole('button', { name: 'SUBMIT' }).click();
    await fresh.getByText('Your password has been changed and you have been logged in.').waitFor();
    await fresh.waitForURL('**/dashboard');
    await fresh.getByRole('button', { name: username }).waitFor();
    // The link works once; the new password logs in, the old one no longer does.
    expect((await api('POST', '/auth/local', { identifier: email, password: 'a-new-secret-1' })).status).toBe(200);
    expect((await api('POST', '/auth/local', { identifier: email, password: 'first-lantern-48' })).status).toBe(400);
    const again = await browser.newPage(new URL(link).pathname);
    await again.getByLabel('New Password', { exact: true }).fill('another-secret-2');
    await again.getByLabel('Confirm New Password').fill('another-secret-2');
    await again.getByRole('button', { name: 'SUBMIT' }).click();
    await again.getByRole('alert').filter({ hasText: 'Incorrect code provided.' }).waitFor();
  });
});

describe('accounts made by a researcher', () => {
  it('creates a user who sets a password through the e-mailed link and logs in; blocking refuses login', async () => {
    const email = `new.teacher.${Date.now()}@example.org`;
    const page = await browser.newPage('/login');
    await login(page, DEMO.researcher.email);
    await page.goto('/users');
    await page.getByRole('heading', { name: 'Manage Users' }).waitFor();
    await page.getByRole('button', { name: 'Create New User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    await dialog.getByLabel('User Name').fill('Nia Newcomer');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Role').selectOption({ label: 'Teacher' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('User Nia Newcomer successfully created.').waitFor();
    await page.getByRole('cell', { name: email }).waitFor();

    // No usable password yet: not even the e-mail address works.
    expect((await api('POST', '/auth/local', { identifier: email, password: email })).status).toBe(400);
    const link = await waitForResetLink(email);
    const newcomer = await browser.newPage(new URL(link).pathname);
    await newcomer.getByLabel('New Password', { exact: true }).fill('tulip-harbor-92');
    await newcomer.getByLabel('Confirm New Password').fill('tulip-harbor-92');
    await newcomer.getByRole('button', { name: 'SUBMIT' }).click();
    await newcomer.waitForURL('**/dashboard');
    const second = await browser.newPage('/login');
    await login(second, email, 'tulip-harbor-92');
    await second.waitForURL('**/dashboard');

    // The researcher blocks the account: logging in is refused, and so is the open session.
    await page.reload();
    const toggle = page.getByRole('switch', { name: 'Active: Nia Newcomer' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    // The switch turns at once (optimistic); wait for the server's answer before trying to log in.
    const blocked = page.waitForResponse((r) => r.url().includes('/api/v1/users/') && r.request().method() !== 'GET');
    await toggle.click();
    expect((await blocked).ok()).toBe(true);
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    const refused = await api('POST', '/auth/local', { identifier: email, password: 'tulip-harbor-92' });
    expect(refused.status).toBe(400);
    const third = await browser.newPage('/login');
    await third.getByLabel('Email').fill(email);
    await third.getByLabel('Password', { exact: true }).fill('tulip-harbor-92');
    await third.getByRole('button', { name: 'LOGIN' }).click();
    await third.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
    const token = await tokenFor(DEMO.researcher.email);
    expect((await api('GET', '/users/me', undefined, token)).status).toBe(200);
  });
});
