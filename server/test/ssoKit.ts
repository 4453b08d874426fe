import type { LightMyRequestResponse } from 'fastify';
import { afterAll, expect } from 'vitest';
import type { OidcProviderConfig } from '../src/config/ssoConfig.ts';
import { SSO_STATE_COOKIE } from '../src/routes/ssoRoutes.ts';
import type { TestApp } from './helper.ts';
import { startOidcProvider, throughProvider, type ProviderAccount, type TestOidcProvider } from './oidcProvider.ts';

/** The portal's address in the test apps (`testConfig`). */
export const PORTAL = 'http://portal.test';
/** An Entra ID tenant the `entra` provider of the tests allows, and one it does not. */
export const ALLOWED_TENANT = '11111111-2222-3333-4444-555555555555';
export const OTHER_TENANT = '99999999-8888-7777-6666-555555555555';

/**
 * A real OpenID provider on loopback with three clients, and the portal's configuration of them:
 * `school` (links existing accounts only), `district` (also makes teacher accounts) and `entra`
 * (accepts only `ALLOWED_TENANT`). Every one allows e-mail addresses of `school.example`.
 */
export async function oidcFixture(): Promise<{ idp: TestOidcProvider; providers: OidcProviderConfig[] }> {
  const ids = ['school', 'district', 'entra'];
  const idp = await startOidcProvider(
    ids.map((id) => ({
      clientId: `portal-${id}`,
      clientSecret: `secret-of-${id}-0123456789`,
      redirectUri: `${PORTAL}/api/v1/auth/oidc/${id}/callback`,
      postLogoutRedirectUri: `${PORTAL}/login`,
    })),
  );
  afterAll(() => idp.close());
  const providers = ids.map((id) => ({
    id,
    issuer: idp.issuer,
    clientId: `portal-${id}`,
    clientSecret: `secret-of-${id}-0123456789`,
    label: `${id[0]!.toUpperCase()}${id.slice(1)} account`,
    allowedDomains: ['school.example'],
    allowedTenants: id === 'entra' ? [ALLOWED_TENANT] : [],
    createAccounts: id === 'district',
  }));
  return { idp, providers };
}

let lastAddress = 0;
/** A client address nobody else in the file uses (the per-address limits stay apart). */
export const freshAddress = () => `10.77.${Math.floor(++lastAddress / 250)}.${lastAddress % 250}`;

/** What a sign-in through the provider came to. */
export interface SsoAttempt {
  /** The portal's answer to the callback. */
  res: LightMyRequestResponse;
  /** The callback as the provider sent the browser to it (path under `/api/v1` and query). */
  callback: string;
  /** The state cookie the start set. */
  state: string;
}

/** Starts a sign-in at `provider`, lets `account` sign in at the provider (`null`: cancels), and returns to the portal. */
export async function ssoSignIn(
  t: TestApp,
  idp: TestOidcProvider,
  provider: string,
  account: ProviderAccount | null,
): Promise<SsoAttempt> {
  idp.signInAs(account);
  const remoteAddress = freshAddress();
  const start = await t.api({ method: 'GET', url: `/auth/oidc/${provider}/start`, remoteAddress });
  expect(start).toHaveStatus(303);
  const state = (start.cookies as { name: string; value: string }[]).find((c) => c.name === SSO_STATE_COOKIE)!.value;
  const back = await throughProvider(String(start.headers.location), PORTAL);
  const callback = `${back.pathname.replace(/^\/api\/v1/, '')}${back.search}`;
  const res = await t.api({ method: 'GET', url: callback, cookies: { [SSO_STATE_COOKIE]: state }, remoteAddress });
  return { res, callback, state };
}

/** The session token a successful sign-in set, or `undefined`. */
export const sessionCookie = (res: LightMyRequestResponse): string | undefined =>
  (res.cookies as { name: string; value: string }[]).find((c) => c.name === 'jwt' && c.value !== '')?.value;

/** The sign-in ended on the login page with this message code, and no session was made. */
export function expectRefused(res: LightMyRequestResponse, code: string): void {
  expect(res).toHaveStatus(303);
  expect(res.headers.location).toBe(`/login?sso=${code}`);
  expect(sessionCookie(res)).toBeUndefined();
}
