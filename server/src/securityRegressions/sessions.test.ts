import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { COMPLETE_RESPONSES, countRows, createArtifact, createPortfolio, createResearcher, createTeacher, snapshot } from '../../test/factories.ts';
import { CROSS_SITE_MESSAGE } from '../http/webSession.ts';
import { buildTestApp } from '../../test/helper.ts';
import { SESSION_TTL_SECONDS, TokenService } from '../security/tokens.ts';
import { securityKit, INVALID_TOKEN, SESSION_ENDED, BLOCKED_SESSION, auth, codeMailedTo, withCookie, claimsOf } from '../../test/fixtures/security.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * sessions: token handling, logout, refresh rotation, the HttpOnly web session: one test per item
 * proves that our server does not have it, or names exactly how far the product protects against it.
 */
const t = await buildTestApp();
const { login } = securityKit(t);

describe('#15 token handling', () => {
  it('#15 token handling: the mobile apps get no cookie, a cookie without the portal’s own request changes nothing (cross-site forms and scripts), tokens live 30 days and a password change or block ends them', async () => {
    const user = await createTeacher(t);
    const researcher = await createResearcher(t);
    const portfolio = await createPortfolio(t, user);
    const artifact = await createArtifact(t, portfolio);
    const signedIn = await login(user.user.email, user.password);
    expect(signedIn).toHaveStatus(200);
    expect(signedIn.headers['set-cookie']).toBeUndefined();
    const { jwt } = AuthResponseSchema.parse(signedIn.json());
    const claims = claimsOf(jwt);
    expect(claims.exp - claims.iat).toBeGreaterThanOrEqual(SESSION_TTL_SECONDS - 1);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(30 * 24 * 60 * 60);

    // A cross-site form or script carries the cookie but cannot add the portal's own header.
    const before = await snapshot(t);
    const cookieOnly: InjectOptions[] = [
      { method: 'POST', url: '/portfolios', payload: { name: 'Forged' } },
      { method: 'PUT', url: `/artifacts/${artifact.id}`, payload: { responses: COMPLETE_RESPONSES } },
      { method: 'DELETE', url: `/artifacts/${artifact.id}` },
      { method: 'PUT', url: `/users/${user.user.id}`, payload: { blocked: true } },
      { method: 'POST', url: '/token/refresh' },
    ];
    for (const request of cookieOnly) expect(await withCookie(t, request, jwt), `${request.method} ${request.url}`).toBeApiError(403, CROSS_SITE_MESSAGE);
    expect(await snapshot(t)).toEqual(before);
    // Reads take it (the web app's calls, links, <img> and downloads); another site cannot read the answers.
    expect(await withCookie(t, { method: 'GET', url: `/portfolios/${portfolio.id}` }, jwt)).toHaveStatus(200);
    expect(await withCookie(t, { method: 'GET', url: '/portfolios/export' }, researcher.token)).toHaveStatus(200);

    // A refreshed token belongs to the same session; a password reset ends every token of it.
    const refreshed = (await t.api({ method: 'POST', url: '/token/refresh', token: jwt })).json().jwt as string;
    expect(await t.api({ method: 'GET', url: '/users/me', token: refreshed })).toHaveStatus(200);
    expect(await auth(t, 'forgot-password', { email: user.user.email })).toHaveStatus(200);
    const reset = await auth(t, 'reset-password', { code: codeMailedTo(t.mail, user.user.email), password: 'a fresh password', passwordConfirmation: 'a fresh password' });
    expect(reset).toHaveStatus(200);
    expect(reset.headers['set-cookie']).toBeUndefined();
    for (const old of [jwt, refreshed, user.token]) expect(await t.api({ method: 'GET', url: '/users/me', token: old })).toBeApiError(401, SESSION_ENDED);
    const current = AuthResponseSchema.parse(reset.json()).jwt;
    expect(await t.api({ method: 'GET', url: '/users/me', token: current })).toHaveStatus(200);

    // Blocking ends the session at once, and unblocking does not bring old tokens back.
    expect(await t.api({ method: 'PUT', url: `/users/${user.user.id}`, token: researcher.token, payload: { blocked: true } })).toHaveStatus(200);
    expect(await t.api({ method: 'GET', url: '/users/me', token: current })).toBeApiError(401, BLOCKED_SESSION);
    expect(await t.api({ method: 'PUT', url: `/users/${user.user.id}`, token: researcher.token, payload: { blocked: false } })).toHaveStatus(200);
    expect(await t.api({ method: 'GET', url: '/users/me', token: current })).toBeApiError(401, SESSION_ENDED);
    // A token of the right shape for another user id does not work without the secret.
    const forged = await new TokenService('another secret that is long enough!!').sign({ id: researcher.user.id, epoch: 0 });
    expect(await t.api({ method: 'GET', url: '/users/me', token: forged })).toBeApiError(401, INVALID_TOKEN);
  });
});

describe('#26 logout ends the session', () => {
  it('#26 logout ends the session at once wherever its token is used, other sign-ins go on, refresh cannot pass the absolute end, and the browser is told to forget its cache', async () => {
    const teacher = await createTeacher(t);
    const signIn = async () => AuthResponseSchema.parse((await login(teacher.user.email, teacher.password)).json()).jwt;
    const web = await signIn();
    const phone = await signIn();
    const me = (token: string) => t.api({ method: 'GET', url: '/users/me', token });
    const refreshed = (await t.api({ method: 'POST', url: '/token/refresh', token: web, payload: {} })).json().jwt as string;
    expect(await me(refreshed)).toHaveStatus(200);

    const out = await t.api({ method: 'POST', url: '/auth/logout', token: web });
    expect(out).toHaveStatus(200);
    expect(out.headers['clear-site-data']).toBe('"cache"');
    for (const token of [web, refreshed]) {
      expect(await me(token)).toBeApiError(401, SESSION_ENDED);
      expect(await t.api({ method: 'POST', url: '/token/refresh', token, payload: {} })).toBeApiError(401, SESSION_ENDED);
    }
    expect(await me(phone)).toHaveStatus(200);

    // A session ends at its absolute end, however often it was refreshed.
    await t.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND ended_at IS NULL", [teacher.user.id]);
    await t.principalsHeard();
    expect(await me(phone)).toBeApiError(401, SESSION_ENDED);
    expect(await t.api({ method: 'POST', url: '/token/refresh', token: phone, payload: {} })).toBeApiError(401, SESSION_ENDED);
  });
});

describe('#28 refresh rotates the session token', () => {
  it('#28 a refresh replaces the token: the replaced one works for a grace minute (requests under way), older ones never again, and a replaced token cannot be refreshed twice into new life', async () => {
    const teacher = await createTeacher(t);
    const first = AuthResponseSchema.parse((await login(teacher.user.email, teacher.password)).json()).jwt;
    const me = (token: string) => t.api({ method: 'GET', url: '/users/me', token });
    const refresh = (token: string) => t.api({ method: 'POST', url: '/token/refresh', token, payload: {} });

    const second = (await refresh(first)).json().jwt as string;
    expect(await me(second)).toHaveStatus(200);
    // Just replaced: still good for requests already under way, and a second refresh with it
    // (two tabs at once) gets a token of the current generation instead of a new one.
    expect(await me(first)).toHaveStatus(200);
    const sibling = (await refresh(first)).json().jwt as string;
    expect(await me(sibling)).toHaveStatus(200);

    const third = (await refresh(second)).json().jwt as string;
    expect(await me(third)).toHaveStatus(200);
    // Two generations old: over, it cannot be refreshed back to life, and presenting it is
    // reuse of a replaced token: the whole session ends, its newest token too (issue 21 #8).
    expect(await me(first)).toBeApiError(401, SESSION_ENDED);
    expect(await refresh(first)).toBeApiError(401, SESSION_ENDED);
    expect(await me(third)).toBeApiError(401, SESSION_ENDED);
  });
});

describe('#29 the web session lives in an HttpOnly cookie', () => {
  it('#29 the web app gets its session in an HttpOnly cookie (no token for scripts), writes with it need the portal’s own request, logout clears it; the mobile apps still get the token in the body', async () => {
    const teacher = await createTeacher(t);
    const web = { 'x-practicefolio-client': 'web' };
    const signIn = await t.api({ method: 'POST', url: '/auth/local', headers: web, payload: { identifier: teacher.user.email, password: teacher.password } });
    expect(signIn).toHaveStatus(200);
    expect(signIn.json().jwt).toBe('');
    const cookies = signIn.cookies as { name: string; value: string; httpOnly?: boolean; sameSite?: string; path?: string }[];
    const session = cookies.find((c) => c.name === 'jwt')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookies.find((c) => c.name === 'pf_session')).toMatchObject({ value: '1' });
    expect(cookies.find((c) => c.name === 'pf_session')!.httpOnly).toBeFalsy();
    const cookie = { jwt: session.value };

    expect(await t.api({ method: 'GET', url: '/users/me', cookies: cookie })).toHaveStatus(200);
    // A write carried by the cookie alone (a form or script on another site) is refused and changes nothing.
    const write = (headers: Record<string, string>) =>
      t.api({ method: 'POST', url: '/portfolios', cookies: cookie, headers, payload: { name: 'Planted' } });
    const before = await countRows(t, 'portfolios');
    expect(await write({})).toBeApiError(403, 'This request must come from the portal’s own pages.');
    expect(await write({ ...web, origin: 'https://evil.example' })).toBeApiError(403);
    expect(await write({ ...web, 'sec-fetch-site': 'cross-site' })).toBeApiError(403);
    expect(await countRows(t, 'portfolios')).toBe(before);
    expect(await write({ ...web, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' })).toHaveStatus(200);
    expect(await countRows(t, 'portfolios')).toBe(before + 1);

    // Refresh renews the cookie, never showing the token.
    const refreshed = await t.api({ method: 'POST', url: '/token/refresh', cookies: cookie, headers: web, payload: {} });
    expect(refreshed).toHaveStatus(200);
    expect(refreshed.json().jwt).toBe('');
    const renewed = (refreshed.cookies as { name: string; value: string }[]).find((c) => c.name === 'jwt')!.value;
    // Logout ends the session and clears both cookies.
    const out = await t.api({ method: 'POST', url: '/auth/logout', cookies: { jwt: renewed }, headers: web, payload: {} });
    expect(out).toHaveStatus(200);
    const cleared = out.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[];
    for (const name of ['jwt', 'pf_session']) {
      const c = cleared.find((x) => x.name === name)!;
      expect(c.value, name).toBe('');
      expect((c.expires?.getTime() ?? Date.now()) <= Date.now() || c.maxAge === 0, name).toBe(true);
    }
    expect(await t.api({ method: 'GET', url: '/users/me', cookies: { jwt: renewed } })).toBeApiError(401);

    // The mobile apps (no client header) keep their contract: the token in the body, no cookie.
    const phone = await login(teacher.user.email, teacher.password);
    expect(phone).toHaveStatus(200);
    expect(AuthResponseSchema.parse(phone.json()).jwt.length).toBeGreaterThan(20);
    expect(phone.headers['set-cookie']).toBeUndefined();
  });
});
