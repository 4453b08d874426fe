import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../server/test/processes.ts';
import { startOidcProvider, type TestOidcProvider } from '../server/test/oidcProvider.ts';
import { DEMO, login, setupBrowser } from './fixtures.ts';
import { OwnServer } from './ownServer.ts';
import { audit, check, resize, WIDTHS } from './responsive/support.ts';

/**
 * Single sign-on in Chromium (issue 28): a portal of its own with one OpenID Connect provider, a
 * real `oidc-provider` on loopback. The demo teacher signs in through it (the first sign-in links
 * the account by its e-mail), lands on the dashboard, logs out and signs in again; the login page
 * with its button, and with a refusal's message, is photographed and audited at every width.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'pf-sso-e2e-'));
let idp: TestOidcProvider;
let server: OwnServer;
let portal = '';

beforeAll(async () => {
  portal = `http://127.0.0.1:${await freePort()}`;
  idp = await startOidcProvider([
    {
      clientId: 'portal',
      clientSecret: 'portal-secret-0123456789',
      redirectUri: `${portal}/api/v1/auth/oidc/school/callback`,
      postLogoutRedirectUri: `${portal}/login`,
    },
  ]);
  server = new OwnServer(portal, {
    ...process.env,
    NODE_ENV: 'production',
    PORT: new URL(portal).port,
    HOST: '127.0.0.1',
    PUBLIC_URL: portal,
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: '',
    SMTP_URL: '',
    JWT_SECRET: '',
    DEMO_DATA: 'true',
    LOG_LEVEL: 'warn',
    STATIC_DIR: path.resolve('dist'),
    OIDC_PROVIDERS: 'school',
    OIDC_SCHOOL_ISSUER: idp.issuer,
    OIDC_SCHOOL_CLIENT_ID: 'portal',
    OIDC_SCHOOL_CLIENT_SECRET: 'portal-secret-0123456789',
    OIDC_SCHOOL_LABEL: 'Springfield Schools',
    OIDC_SCHOOL_ALLOWED_DOMAINS: 'example.org',
  });
  await server.start();
}, 120_000);

afterAll(async () => {
  if (server?.running) await server.stop();
  await idp?.close();
  rmSync(work, { recursive: true, force: true });
});

const browser = setupBrowser(() => portal);

describe('signing in with a school account', () => {
  it('links the demo teacher by e-mail, lands on the dashboard, logs out and signs in again', async () => {
    idp.signInAs({ sub: 'springfield-4711', email: DEMO.teacher.email, email_verified: true });
    const page = await browser.newPage('/login');
    await page.getByRole('button', { name: 'Sign in with Springfield Schools' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: DEMO.teacher.username }).waitFor();

    await page.getByRole('button', { name: DEMO.teacher.username }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    // The provider publishes its end-session endpoint: the login page offers its sign-out too.
    await page.waitForURL('**/login');
    expect((await page.context().cookies(portal)).find((c) => c.name === 'jwt')).toBeUndefined();
    await page.getByRole('button', { name: 'Also sign out of Springfield Schools' }).click();
    // The provider asks before it signs out, then sends the browser back to the login page.
    await page.getByRole('button', { name: /sign me out/i }).click();
    await page.waitForURL(`${portal}/login`);
    expect(await page.getByRole('button', { name: 'Also sign out of Springfield Schools' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sign in with Springfield Schools' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: DEMO.teacher.username }).waitFor();

    // The researcher sees the link in the account's sign-in methods.
    const login = await fetch(`${portal}/api/v1/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: DEMO.researcher.email, password: DEMO.password }),
    });
    const { jwt } = (await login.json()) as { jwt: string };
    const users = (await (
      await fetch(`${portal}/api/v1/users`, { headers: { authorization: `Bearer ${jwt}` } })
    ).json()) as { id: number; email: string }[];
    const teacher = users.find((u) => u.email === DEMO.teacher.email)!;
    const methods = (await (
      await fetch(`${portal}/api/v1/users/${teacher.id}/sign-in-methods`, {
        headers: { authorization: `Bearer ${jwt}` },
      })
    ).json()) as { password: boolean; identities: { provider: string; email: string }[] };
    expect(methods.password).toBe(true);
    expect(methods.identities.map((i) => [i.provider, i.email])).toEqual([['school', DEMO.teacher.email]]);
  }, 120_000);

  it('a researcher sees the linked school account in Manage Users and unlinks it; every width fits, axe finds nothing', async () => {
    const found: string[] = [];
    const page = await browser.newPage('/login');
    await login(page, DEMO.researcher.email);
    await page.goto('/users');
    const methodsOf = page.getByRole('button', { name: `Sign-in methods: ${DEMO.teacher.username}` });
    const dialog = page.getByRole('dialog', { name: `Sign-in methods: ${DEMO.teacher.username}` });
    const school = dialog.getByRole('button', { name: `Unlink Springfield Schools (${DEMO.teacher.email})` });
    for (const width of WIDTHS) {
      await resize(page, width);
      await methodsOf.waitFor();
      await check(page, 'manage-users-sso', found);
      await methodsOf.click();
      await school.waitFor();
      await check(page, 'manage-users-sign-in-methods', found);
      await school.click();
      await dialog.getByRole('group', { name: 'Confirm unlinking' }).waitFor();
      await check(page, 'manage-users-unlink-question', found);
      await dialog.getByRole('button', { name: 'Keep it' }).click();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    expect(found).toEqual([]);

    await methodsOf.click();
    await school.click();
    await dialog.getByRole('button', { name: 'Unlink', exact: true }).click();
    await page.getByText(`Springfield Schools is no longer linked to ${DEMO.teacher.username}.`).waitFor();
    await dialog.getByText('No school account is linked.').waitFor();
    await expect.poll(() => dialog.getByRole('listitem').first().textContent()).toBe('PasswordE-mail and password');
    found.push(...(await audit(page, 'manage-users unlinked')));
    expect(found).toEqual([]);
    // The server agrees: the account keeps its password and no longer has the school account.
    const methods = await page.evaluate(async (email) => {
      const users = (await (await fetch('/api/v1/users')).json()) as { id: number; email: string }[];
      const teacher = users.find((u) => u.email === email)!;
      return (await fetch(`/api/v1/users/${teacher.id}/sign-in-methods`)).json() as Promise<unknown>;
    }, DEMO.teacher.email);
    expect(methods).toEqual({ password: true, identities: [] });
  }, 180_000);

  it('a person without an account comes back to the login page with whom to ask', async () => {
    idp.signInAs({ sub: 'springfield-9', email: 'nobody@example.org', email_verified: true });
    const page = await browser.newPage('/login');
    await page.getByRole('button', { name: 'Sign in with Springfield Schools' }).click();
    await page.waitForURL('**/login?sso=no_account');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(
        'There is no PracticeFolio account for this e-mail address. Ask your school’s PracticeFolio contact or the research team to create one.',
      );
    expect((await page.context().cookies(portal)).find((c) => c.name === 'jwt')).toBeUndefined();
  }, 60_000);

  it('a teacher signed in with the school account sets the mobile apps’ password in Settings', async () => {
    idp.signInAs({ sub: 'springfield-4712', email: DEMO.teacher2.email, email_verified: true });
    const page = await browser.newPage('/login');
    await page.getByRole('button', { name: 'Sign in with Springfield Schools' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: DEMO.teacher2.username }).click();
    await page.getByRole('menuitem', { name: 'Mobile App Password' }).click();
    await page.waitForURL('**/settings/app-password');
    const found: string[] = [];
    for (const width of WIDTHS) {
      await resize(page, width);
      await check(page, 'app-password', found);
    }
    const phrase = 'mountain river lantern 7';
    await page.getByLabel('New Password', { exact: true }).fill(phrase);
    await page.getByLabel('Confirm New Password').fill(phrase);
    await page.getByLabel('Current Password (only if you have one)').fill(DEMO.password);
    await page.getByRole('button', { name: 'SAVE PASSWORD' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is saved.' }).waitFor();
    found.push(...(await audit(page, 'app-password saved')));
    expect(found).toEqual([]);
    // The web session goes on; the mobile apps sign in with the new password.
    await page.goto('/dashboard');
    await page.getByRole('button', { name: DEMO.teacher2.username }).waitFor();
    const app = await fetch(`${portal}/api/v1/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: DEMO.teacher2.email, password: phrase }),
    });
    expect(app.status).toBe(200);
  }, 120_000);

  it('the login page with its school account, and with a refusal: every width fits, axe finds nothing', async () => {
    const found: string[] = [];
    const page = await browser.newPage('/login');
    for (const width of WIDTHS) {
      await resize(page, width);
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in with Springfield Schools' }).waitFor();
      await check(page, 'login-sso', found);
      await page.goto('/login?sso=wrong_domain');
      await page.getByRole('alert').waitFor();
      await check(page, 'login-sso-refused', found);
    }
    expect(found).toEqual([]);
  }, 120_000);
});
