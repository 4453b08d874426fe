import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../server/test/oidcProvider.ts';
import { freePort } from '../server/test/processes.ts';
import { startSamlIdp, type TestSamlIdp } from '../server/test/samlIdp.ts';
import { DEMO, setupBrowser } from './fixtures.ts';
import { OwnServer } from './ownServer.ts';
import { check, resize, WIDTHS } from './responsive/support.ts';

/**
 * SAML single sign-on in Chromium (issue 28): a portal of its own with an OpenID Connect provider
 * and a SAML identity provider on loopback (the tests' IdP, which signs real assertions). The demo
 * teacher signs in through the SAML IdP (the first sign-in links the account by its e-mail), lands
 * on the dashboard, logs out, also signs out at the IdP (its single logout), and signs in again.
 * The login page with both providers' buttons, and with the provider's sign-out offered, is
 * photographed and audited at every width.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'pf-saml-e2e-'));
let oidc: TestOidcProvider;
let idp: TestSamlIdp;
let server: OwnServer;
let portal = '';

beforeAll(async () => {
  portal = `http://127.0.0.1:${await freePort()}`;
  oidc = await startOidcProvider([
    {
      clientId: 'portal',
      clientSecret: 'portal-secret-0123456789',
      redirectUri: `${portal}/api/v1/auth/oidc/school/callback`,
      postLogoutRedirectUri: `${portal}/login`,
    },
  ]);
  idp = await startSamlIdp();
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
    OIDC_SCHOOL_ISSUER: oidc.issuer,
    OIDC_SCHOOL_CLIENT_ID: 'portal',
    OIDC_SCHOOL_CLIENT_SECRET: 'portal-secret-0123456789',
    OIDC_SCHOOL_LABEL: 'Springfield Schools',
    OIDC_SCHOOL_ALLOWED_DOMAINS: 'example.org',
    SAML_PROVIDERS: 'district',
    SAML_DISTRICT_METADATA: idp.metadataUrl,
    SAML_DISTRICT_LABEL: 'District ADFS',
    SAML_DISTRICT_ALLOWED_DOMAINS: 'example.org',
  });
  await server.start();
}, 120_000);

afterAll(async () => {
  if (server?.running) await server.stop();
  await Promise.all([oidc?.close(), idp?.close()]);
  rmSync(work, { recursive: true, force: true });
});

const browser = setupBrowser(() => portal);
const OFFER = 'Also sign out of District ADFS';

describe('signing in with a SAML school account', () => {
  it('links the demo teacher by e-mail, lands on the dashboard, logs out of both and signs in again', async () => {
    idp.signInAs({ nameId: 'district-4711', email: DEMO.teacher.email });
    const page = await browser.newPage('/login');
    await page.getByRole('button', { name: 'Sign in with District ADFS' }).click();
    // The IdP's page posts the signed assertion back to the portal's assertion consumer.
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: DEMO.teacher.username }).waitFor();

    await page.getByRole('button', { name: DEMO.teacher.username }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    // Our session is over; the login page offers the IdP's own sign-out.
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: OFFER }).waitFor();
    expect((await page.context().cookies(portal)).find((c) => c.name === 'jwt')).toBeUndefined();
    const before = idp.logouts.length;
    await page.getByRole('button', { name: OFFER }).click();
    await expect.poll(() => idp.logouts.length).toBe(before + 1);
    expect(idp.logouts.at(-1)!.nameId).toBe('district-4711');
    // Back from the IdP's single logout: the login page, without the offer.
    await page.waitForURL(`${portal}/login`);
    await page.getByRole('button', { name: 'Sign in with District ADFS' }).waitFor();
    expect(await page.getByRole('button', { name: OFFER }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sign in with District ADFS' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: DEMO.teacher.username }).waitFor();

    // The account now has the identity linked.
    const methods = await page.evaluate(async () => (await fetch('/api/v1/auth/methods')).json());
    expect(methods).toMatchObject({ passwordLogin: true });
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
    const linked = (await (
      await fetch(`${portal}/api/v1/users/${teacher.id}/sign-in-methods`, {
        headers: { authorization: `Bearer ${jwt}` },
      })
    ).json()) as { identities: { provider: string; email: string }[] };
    expect(linked.identities.map((i) => [i.provider, i.email])).toEqual([['district', DEMO.teacher.email]]);
  }, 120_000);

  it('an address of a domain the IdP may not speak for comes back to the login page with what to do', async () => {
    idp.signInAs({ nameId: 'district-9', email: 'someone@elsewhere.example' });
    const page = await browser.newPage('/login');
    await page.getByRole('button', { name: 'Sign in with District ADFS' }).click();
    await page.waitForURL('**/login?sso=wrong_domain');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('domain cannot sign in here');
    expect((await page.context().cookies(portal)).find((c) => c.name === 'jwt')).toBeUndefined();
  }, 60_000);

  it('the login page with both providers, and with the provider’s sign-out offered: every width fits, axe finds nothing', async () => {
    const found: string[] = [];
    const page = await browser.newPage('/login');
    for (const width of WIDTHS) {
      await resize(page, width);
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in with Springfield Schools' }).waitFor();
      await page.getByRole('button', { name: 'Sign in with District ADFS' }).waitFor();
      await check(page, 'login-oidc-saml', found);
      // What a logout of a SAML session leaves for the next page load (as the session machine does).
      await page.evaluate((offer) => sessionStorage.setItem('pf_provider_logout', JSON.stringify(offer)), {
        label: 'District ADFS',
        url: `${idp.metadataUrl.replace('/metadata', '/slo')}?SAMLRequest=x`,
      });
      await page.goto('/login');
      await page.getByRole('button', { name: OFFER }).waitFor();
      await check(page, 'login-provider-logout', found);
    }
    expect(found).toEqual([]);
  }, 120_000);
});
