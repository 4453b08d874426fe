import { describe, expect, it } from 'vitest';
import { SignInMethodsSchema } from '#schemas/sso';
import { countRows, createUser } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import type { ProviderAccount } from '../../test/oidcProvider.ts';
import {
  ALLOWED_TENANT,
  expectRefused,
  freshAddress,
  oidcFixture,
  OTHER_TENANT,
  sessionCookie,
  ssoSignIn,
} from '../../test/ssoKit.ts';
import { SSO_STATE_COOKIE } from './ssoRoutes.ts';

/**
 * Single sign-on through OpenID Connect (issue 28) against a real provider on loopback: the
 * sign-in links to the account of its verified e-mail, makes a teacher only where allowed, and
 * every protocol or policy failure ends on the login page with a message code and no session.
 */

const { idp, providers } = await oidcFixture();
const t = await buildTestApp({ sso: { oidc: providers, saml: [], passwordLogin: true } });
const WEB = { 'x-practicefolio-client': 'web' };

let n = 0;
/** A person at the provider with a verified address of the allowed domain (changed by `extra`). */
const person = (extra: Partial<ProviderAccount> = {}): ProviderAccount => {
  n += 1;
  return { sub: `person-${n}`, email: `teacher${n}@school.example`, email_verified: true, ...extra };
};

const me = (token: string) => t.api({ method: 'GET', url: '/users/me', cookies: { jwt: token }, headers: WEB });
const sessions = () => countRows(t, 'sessions');

describe('GET /auth/methods', () => {
  it('names each provider with its label and start, and whether the password form shows', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/methods' });
    expect(res).toHaveStatus(200);
    const methods = SignInMethodsSchema.parse(res.json());
    expect(methods.passwordLogin).toBe(true);
    expect(methods.providers.map((p) => [p.id, p.label, p.start])).toEqual([
      ['school', 'School account', '/api/v1/auth/oidc/school/start'],
      ['district', 'District account', '/api/v1/auth/oidc/district/start'],
      ['entra', 'Entra account', '/api/v1/auth/oidc/entra/start'],
    ]);
  });
});

describe('signing in through the provider', () => {
  it('starts with PKCE, state and nonce, and a short-lived HttpOnly state cookie', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/oidc/school/start', remoteAddress: freshAddress() });
    expect(res).toHaveStatus(303);
    const url = new URL(String(res.headers.location));
    expect(url.origin).toBe(idp.issuer);
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)?.length).toBeGreaterThan(20);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe('http://portal.test/api/v1/auth/oidc/school/callback');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(SSO_STATE_COOKIE));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Max-Age=600/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('the first sign-in links to the account of the verified e-mail; the next ones use the link', async () => {
    const teacher = await createUser(t, { email: 'linked.teacher@school.example' });
    const account = person({ email: 'Linked.Teacher@school.example' });
    const first = await ssoSignIn(t, idp, 'school', account);
    expect(first.res).toHaveStatus(303);
    expect(first.res.headers.location).toBe('/dashboard');
    const token = sessionCookie(first.res)!;
    const signedIn = await me(token);
    expect(signedIn).toHaveStatus(200);
    expect(signedIn.json().id).toBe(teacher.user.id);
    const { rows } = await t.db.query<{ user_id: number; provider: string; subject: string; email: string }>(
      'SELECT user_id, provider, subject, email FROM linked_identities WHERE subject = $1',
      [account.sub],
    );
    expect(rows).toEqual([
      { user_id: teacher.user.id, provider: 'school', subject: account.sub, email: 'linked.teacher@school.example' },
    ]);
    // The provider later reports another address: the link, not the address, names the account.
    const again = await ssoSignIn(t, idp, 'school', { ...account, email: 'renamed@school.example' });
    expect((await me(sessionCookie(again.res)!)).json().id).toBe(teacher.user.id);
  });

  it('the session is the same HttpOnly cookie as a password sign-in, ended by logout', async () => {
    await createUser(t, { email: 'cookie.teacher@school.example' });
    const { res } = await ssoSignIn(t, idp, 'school', person({ email: 'cookie.teacher@school.example' }));
    const jwt = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('jwt='));
    expect(jwt).toMatch(/HttpOnly/i);
    const token = sessionCookie(res)!;
    const out = await t.api({
      method: 'POST',
      url: '/auth/logout',
      cookies: { jwt: token },
      headers: { ...WEB, origin: 'http://portal.test' },
      payload: {},
    });
    expect(out).toHaveStatus(200);
    // The provider publishes its end-session endpoint: the portal offers it.
    const offered = new URL(out.json().providerLogout.url);
    expect(offered.origin).toBe(idp.issuer);
    expect(offered.searchParams.get('post_logout_redirect_uri')).toBe('http://portal.test/login');
    expect(out.json().providerLogout.label).toBe('School account');
    expect(await me(token)).toBeApiError(401);
  });

  it('an unknown person gets a teacher account only where the provider makes them', async () => {
    const stranger = person();
    const before = await countRows(t, 'users');
    expectRefused((await ssoSignIn(t, idp, 'school', stranger)).res, 'no_account');
    expect(await countRows(t, 'users')).toBe(before);
    const made = await ssoSignIn(t, idp, 'district', stranger);
    const user = (await me(sessionCookie(made.res)!)).json();
    expect(user.email).toBe(stranger.email);
    expect(user.role.type).toBe('authenticated');
    expect(await countRows(t, 'users')).toBe(before + 1);
  });

  it('a blocked account is refused, and its sessions end', async () => {
    const teacher = await createUser(t, { email: 'blocked.teacher@school.example' });
    const account = person({ email: 'blocked.teacher@school.example' });
    const token = sessionCookie((await ssoSignIn(t, idp, 'school', account)).res)!;
    await t.api({
      method: 'PUT',
      url: `/users/${teacher.user.id}`,
      token: (await createUser(t, { roleId: 4 })).token,
      payload: { blocked: true },
    });
    expect(await me(token)).toBeApiError(401);
    expectRefused((await ssoSignIn(t, idp, 'school', account)).res, 'blocked');
  });
});

describe('refused with a message code and no session', () => {
  const expectRefusal = async (code: string, provider: string, account: ProviderAccount | null) => {
    if (account) await createUser(t, { email: account.email.toLowerCase() });
    const before = await sessions();
    const { res } = await ssoSignIn(t, idp, provider, account);
    expectRefused(res, code);
    expect(await sessions()).toBe(before);
  };
  const expectRefusalWhen = async (code: string, change: Parameters<typeof idp.alterIdToken>[0]) => {
    idp.alterIdToken(change);
    try {
      await expectRefusal(code, 'school', person());
    } finally {
      idp.alterIdToken(null);
    }
  };

  it('the person cancels at the provider', () => expectRefusal('cancelled', 'school', null));
  it('an e-mail address the provider has not verified', () =>
    expectRefusal('unverified_email', 'school', person({ email_verified: false })));
  it('an e-mail domain that is not allowed', () =>
    expectRefusal('wrong_domain', 'school', person({ email: `x${n}@elsewhere.example` })));
  it('a Google-style hosted domain (hd) that is not allowed, whatever the address', () =>
    expectRefusal('wrong_domain', 'school', person({ hd: 'elsewhere.example' })));
  it('a tenant (tid) that is not allowed', () => expectRefusal('wrong_tenant', 'entra', person({ tid: OTHER_TENANT })));
  it('no tenant where tenants are allow-listed', () => expectRefusal('wrong_tenant', 'entra', person()));
  it('a token of the wrong audience', () =>
    expectRefusalWhen('failed', { claims: (c) => ({ ...c, aud: 'someone-else' }) }));
  it('a token of the wrong issuer', () =>
    expectRefusalWhen('failed', { claims: (c) => ({ ...c, iss: 'http://127.0.0.1:9/other' }) }));
  it('an expired ID token', () =>
    expectRefusalWhen('expired', {
      claims: (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }),
    }));
  it('a token with the wrong nonce', () =>
    expectRefusalWhen('failed', { claims: (c) => ({ ...c, nonce: 'not-ours' }) }));
  it('a tampered signature', () => expectRefusalWhen('failed', { tamper: true }));

  it('the allowed tenant signs in', async () => {
    const account = person({ tid: ALLOWED_TENANT });
    await createUser(t, { email: account.email });
    const { res } = await ssoSignIn(t, idp, 'entra', account);
    expect(res.headers.location).toBe('/dashboard');
  });

  it('a replayed state (the same callback again) is refused', async () => {
    const account = person();
    await createUser(t, { email: account.email });
    const first = await ssoSignIn(t, idp, 'school', account);
    expect(first.res.headers.location).toBe('/dashboard');
    const before = await sessions();
    const replay = await t.api({
      method: 'GET',
      url: first.callback,
      cookies: { [SSO_STATE_COOKIE]: first.state },
      remoteAddress: freshAddress(),
    });
    expectRefused(replay, 'expired');
    expect(await sessions()).toBe(before);
  });

  it('a callback without the state cookie of the browser that started it', async () => {
    const account = person();
    await createUser(t, { email: account.email });
    idp.signInAs(account);
    const start = await t.api({ method: 'GET', url: '/auth/oidc/school/start', remoteAddress: freshAddress() });
    const { throughProvider } = await import('../../test/oidcProvider.ts');
    const back = await throughProvider(String(start.headers.location), 'http://portal.test');
    const res = await t.api({ method: 'GET', url: `/auth/oidc/school/callback${back.search}` });
    expectRefused(res, 'expired');
  });

  it('an unknown provider is 404, a malformed id 400', async () => {
    expect(await t.api({ method: 'GET', url: '/auth/oidc/nowhere/start' })).toBeApiError(404);
    expect(await t.api({ method: 'GET', url: '/auth/oidc/Bad-Id/start' })).toBeApiError(400);
    expect(await t.api({ method: 'GET', url: '/auth/oidc/school/start?x=1' })).toBeApiError(400);
  });
});
