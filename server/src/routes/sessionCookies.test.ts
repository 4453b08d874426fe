import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { createTeacher, type TestUser } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { SESSION_TTL_SECONDS } from '../security/tokens.ts';

/**
 * "Keep me signed in" (issue 21, 16): a web session is a browser-session cookie unless the
 * person asked to stay signed in; a refresh keeps the choice; the mobile apps are unaffected.
 */

const t = await buildTestApp();
const WEB = { 'x-practicefolio-client': 'web' };

let lastAddress = 0;
/** A client address nobody else in this file uses (the per-address login limits stay apart). */
const freshAddress = () => `10.9.0.${++lastAddress}`;

const webLogin = (teacher: TestUser, extra: Record<string, unknown> = {}) =>
  t.api({
    method: 'POST',
    url: '/auth/local',
    headers: WEB,
    payload: { identifier: teacher.user.email, password: teacher.password, ...extra },
    remoteAddress: freshAddress(),
  });

/** The raw `Set-Cookie` header of the named cookie. */
function setCookie(res: LightMyRequestResponse, name: string): string {
  const all = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const found = all.find((c) => c.startsWith(`${name}=`));
  expect(found, `Set-Cookie ${name}`).toBeDefined();
  return found!;
}

/** Both session cookies are browser-session cookies (no lifetime), or both live 30 days. */
function expectCookies(res: LightMyRequestResponse, persistent: boolean) {
  expect(res).toHaveStatus(200);
  for (const name of ['jwt', 'pf_session']) {
    const attributes = setCookie(res, name)
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    const lifetime = attributes.filter((a) => a.startsWith('max-age=') || a.startsWith('expires='));
    expect(
      lifetime.filter((a) => a.startsWith('max-age=')),
      name,
    ).toEqual(persistent ? [`max-age=${SESSION_TTL_SECONDS}`] : []);
    expect(lifetime.length > 0, `${name} has a lifetime`).toBe(persistent);
  }
}

const sessionToken = (res: LightMyRequestResponse) =>
  (res.cookies as { name: string; value: string }[]).find((c) => c.name === 'jwt')!.value;

/** The stored persistence of the user's sessions, oldest first. */
async function storedPersistence(userId: number): Promise<boolean[]> {
  const { rows } = await t.db.query<{ persistent: boolean }>(
    'SELECT persistent FROM sessions WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );
  return rows.map((r) => r.persistent);
}

const refresh = (token: string) =>
  t.api({ method: 'POST', url: '/token/refresh', cookies: { jwt: token }, headers: WEB, payload: {} });

describe('keep me signed in', () => {
  it('a web login without the choice (absent or false) gets browser-session cookies, stored as not persistent', async () => {
    const teacher = await createTeacher(t);
    const before = (await storedPersistence(teacher.user.id)).length;
    expectCookies(await webLogin(teacher), false);
    expectCookies(await webLogin(teacher, { remember: false }), false);
    expect((await storedPersistence(teacher.user.id)).slice(before)).toEqual([false, false]);
  });

  it('a web login with remember: true gets 30-day cookies, stored as persistent', async () => {
    const teacher = await createTeacher(t);
    const before = (await storedPersistence(teacher.user.id)).length;
    expectCookies(await webLogin(teacher, { remember: true }), true);
    expect((await storedPersistence(teacher.user.id)).slice(before)).toEqual([true]);
  });

  it('a refresh keeps the session’s persistence: a browser-session cookie stays one, a kept one stays 30 days', async () => {
    const teacher = await createTeacher(t);
    const short = await refresh(sessionToken(await webLogin(teacher)));
    expectCookies(short, false);
    expectCookies(await refresh(sessionToken(short)), false);
    const kept = await refresh(sessionToken(await webLogin(teacher, { remember: true })));
    expectCookies(kept, true);
    expectCookies(await refresh(sessionToken(kept)), true);
  });

  it('a web sign-in by password reset (no choice on that form) is a browser-session cookie', async () => {
    const teacher = await createTeacher(t);
    expect(
      await t.api({
        method: 'POST',
        url: '/auth/forgot-password',
        payload: { email: teacher.user.email },
        remoteAddress: freshAddress(),
      }),
    ).toHaveStatus(200);
    const code = /\/reset-password\/([A-Za-z0-9_-]+)$/.exec(t.mail.lastTo(teacher.user.email)!.links[0]!)![1]!;
    const password = 'a-new-Passphrase-for-Keeps-42';
    const res = await t.api({
      method: 'POST',
      url: '/auth/reset-password',
      headers: WEB,
      payload: { code, password, passwordConfirmation: password },
    });
    expectCookies(res, false);
  });

  it('the mobile apps (no client header) keep their bearer token and no cookie, with or without the field; their sessions persist', async () => {
    const teacher = await createTeacher(t);
    const before = (await storedPersistence(teacher.user.id)).length;
    for (const extra of [{}, { remember: false }]) {
      const res = await t.api({
        method: 'POST',
        url: '/auth/local',
        payload: { identifier: teacher.user.email, password: teacher.password, ...extra },
        remoteAddress: freshAddress(),
      });
      expect(res).toHaveStatus(200);
      expect(res.headers['set-cookie']).toBeUndefined();
      const { jwt } = AuthResponseSchema.parse(res.json());
      expect(await t.api({ method: 'GET', url: '/users/me', token: jwt })).toHaveStatus(200);
      const refreshed = await t.api({ method: 'POST', url: '/token/refresh', token: jwt, payload: {} });
      expect(refreshed).toHaveStatus(200);
      expect(refreshed.headers['set-cookie']).toBeUndefined();
    }
    expect((await storedPersistence(teacher.user.id)).slice(before)).toEqual([true, true]);
  });

  it('refuses a remember that is not a boolean, and unknown fields still', async () => {
    const teacher = await createTeacher(t);
    expect(await webLogin(teacher, { remember: 'yes' })).toBeApiError(400);
    expect(await webLogin(teacher, { keepMeSignedIn: true })).toBeApiError(400);
  });
});
