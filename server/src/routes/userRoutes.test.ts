import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AuthResponseSchema, RefreshResponseSchema } from '#schemas/auth';
import { UserListResponseSchema, UserSchema } from '#schemas/user';
import { TokenService } from '../security/tokens.ts';
import { countRows, createLead, createResearcher, createTeacher, createUser } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const me = (token: string | null, headers: Record<string, string> = {}) =>
  t.api({ method: 'GET', url: '/users/me', token, headers });
let lastAddress = 0;
/** Each login from its own client address, so that one test's failed guesses never slow another's sign-in. */
const login = (identifier: string, password: string) =>
  t.api({
    method: 'POST',
    url: '/auth/local',
    payload: { identifier, password },
    remoteAddress: `10.8.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`,
  });
const listUsers = (token: string | null, query = '') => t.api({ method: 'GET', url: `/users${query}`, token });
const setBlocked = (token: string | null, id: number | string, payload: unknown) =>
  t.api({ method: 'PUT', url: `/users/${id}`, token, payload: payload as object });
/** The raw row of a user (to prove that a refused request changed nothing). */
async function userRow(id: number) {
  const { rows } = await t.db.query('SELECT * FROM users WHERE id = $1', [id]);
  return rows[0];
}

const SECRET_WORDS = ['password', 'hash', 'session_epoch', 'code', 'token'];

describe('GET /users/me and the session token', () => {
  it('answers the signed-in user', async () => {
    const teacher = await createTeacher(t);
    const res = await me(teacher.token);
    expect(res.statusCode).toBe(200);
    expect(UserSchema.parse(res.json())).toEqual(teacher.user);
    for (const word of SECRET_WORDS) expect(res.body.toLowerCase()).not.toContain(word);
  });

  it('answers 401 without a token or with a malformed one, in the header or in the session cookie', async () => {
    const teacher = await createTeacher(t);
    expect(await me(null)).toBeApiError(401, 'You need to log in.');
    expect(await me(null, { authorization: 'Bearer' })).toBeApiError(401, 'You need to log in.');
    expect(await me(null, { authorization: `Basic ${teacher.token}` })).toBeApiError(401, 'You need to log in.');
    expect(await me(null, { cookie: 'jwt=garbage' })).toBeApiError(401, 'Invalid token.');
    for (const garbage of ['garbage', 'a.b.c', `${teacher.token}x`, teacher.token.split('.').slice(0, 2).join('.')]) {
      expect(await me(garbage)).toBeApiError(401, 'Invalid token.');
    }
  });

  it('answers 401 for a token signed with another secret or with no signature', async () => {
    const teacher = await createTeacher(t);
    const forged = await new TokenService('another secret that is long enough!!').sign({
      id: teacher.user.id,
      epoch: 0,
    });
    expect(await me(forged)).toBeApiError(401, 'Invalid token.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ id: teacher.user.id, ep: 0, exp: 4_000_000_000 })).toString(
      'base64url',
    );
    expect(await me(`${header}.${payload}.`)).toBeApiError(401, 'Invalid token.');
    const hs512 = await new SignJWT({ id: teacher.user.id, ep: 0 })
      .setProtectedHeader({ alg: 'HS512' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    expect(await me(hs512)).toBeApiError(401, 'Invalid token.');
  });

  it('answers 401 for an expired token', async () => {
    const teacher = await createTeacher(t);
    const token = await new TokenService(t.config.jwtSecret).sign({ id: teacher.user.id, epoch: 0 }, 1);
    expect((await me(token)).statusCode).toBe(200);
    t.clock.advance(2100);
    expect(await me(token)).toBeApiError(401, 'Invalid token.');
  });

  it('answers 401 for a token of an account that does not exist', async () => {
    const token = await new TokenService(t.config.jwtSecret).sign({ id: 2_000_000_000, epoch: 0 });
    expect(await me(token)).toBeApiError(401, 'Invalid token.');
  });

  it('answers 401 for a token of an account blocked since', async () => {
    const teacher = await createTeacher(t);
    const researcher = await createResearcher(t);
    expect((await setBlocked(researcher.token, teacher.user.id, { blocked: true })).statusCode).toBe(200);
    expect(await me(teacher.token)).toBeApiError(401, 'Your account has been blocked by the administrator.');
    expect(await t.api({ method: 'POST', url: '/token/refresh', token: teacher.token })).toBeApiError(
      401,
      'Your account has been blocked by the administrator.',
    );
  });

  it('POST /token/refresh gives a new working token of the same session', async () => {
    const teacher = await createTeacher(t);
    const res = await t.api({ method: 'POST', url: '/token/refresh', token: teacher.token });
    expect(res.statusCode).toBe(200);
    const { jwt } = RefreshResponseSchema.parse(res.json());
    expect(Object.keys(res.json())).toEqual(['jwt']);
    expect(UserSchema.parse((await me(jwt)).json()).id).toBe(teacher.user.id);
    expect(await t.api({ method: 'POST', url: '/token/refresh' })).toBeApiError(401, 'You need to log in.');
    // A refreshed token ends with its session like any other.
    await t.db.query('UPDATE users SET session_epoch = session_epoch + 1 WHERE id = $1', [teacher.user.id]);
    await t.principalsHeard();
    expect(await me(jwt)).toBeApiError(401, 'Your session has ended. Please log in again.');
  });
});

describe('GET /users', () => {
  it('is for researchers only', async () => {
    expect(await listUsers(null)).toBeApiError(401, 'You need to log in.');
    expect(await listUsers((await createTeacher(t)).token)).toBeApiError(403, 'Only researchers can manage users.');
    expect(await listUsers((await createLead(t)).token)).toBeApiError(403, 'Only researchers can manage users.');
  });

  it('lists every account to a researcher, beyond 100, without secrets', async () => {
    const researcher = await createResearcher(t);
    for (let i = 0; i < 120; i++) await createUser(t, { roleId: i % 3 === 0 ? 3 : 1 });
    const res = await listUsers(researcher.token);
    expect(res.statusCode).toBe(200);
    const users = UserListResponseSchema.parse(res.json());
    expect(users.length).toBe(await countRows(t, 'users'));
    expect(users.length).toBeGreaterThan(120);
    expect(users.map((u) => u.id)).toEqual(users.map((u) => u.id).toSorted((a, b) => a - b));
    expect(users.find((u) => u.id === researcher.user.id)).toEqual(researcher.user);
    for (const word of SECRET_WORDS) expect(res.body.toLowerCase()).not.toContain(word);
  });

  it('filters by role with role and role_ne', async () => {
    const researcher = await createResearcher(t);
    await createResearcher(t);
    await createLead(t);
    await createTeacher(t);
    const all = UserListResponseSchema.parse((await listUsers(researcher.token)).json());
    const notResearchers = UserListResponseSchema.parse((await listUsers(researcher.token, '?role_ne=4')).json());
    expect(notResearchers.length).toBeGreaterThan(0);
    expect(notResearchers).toEqual(all.filter((u) => u.role.id !== 4));
    const researchers = UserListResponseSchema.parse((await listUsers(researcher.token, '?role=4')).json());
    expect(researchers.length).toBeGreaterThanOrEqual(2);
    expect(researchers).toEqual(all.filter((u) => u.role.id === 4));
    const leads = UserListResponseSchema.parse((await listUsers(researcher.token, '?role=3&role_ne=4')).json());
    expect(leads).toEqual(all.filter((u) => u.role.id === 3));
    expect(UserListResponseSchema.parse((await listUsers(researcher.token, '?role=2')).json())).toEqual([]);
  });

  it('refuses a bad query with 400', async () => {
    const researcher = await createResearcher(t);
    expect(await listUsers(researcher.token, '?role_ne=abc')).toBeApiError(400, 'role_ne must be a role id.');
    expect(await listUsers(researcher.token, '?role=-1')).toBeApiError(400, 'role must be a role id.');
    expect(await listUsers(researcher.token, '?role=')).toBeApiError(400, 'role must be a role id.');
    expect(await listUsers(researcher.token, '?role=999')).toBeApiError(400, 'role must be a role id.');
    expect(await listUsers(researcher.token, '?role=1&role=3')).toBeApiError(400, 'role must be a text.');
    expect(await listUsers(researcher.token, '?_limit=1000')).toBeApiError(
      400,
      'Unknown field "_limit" in the query; it is not accepted.',
    );
    expect(await listUsers(researcher.token, '?role_ne=4&blocked=true')).toBeApiError(400, /Unknown field "blocked"/);
  });
});

describe('PUT /users/{id}', () => {
  it('lets a researcher block and unblock an account, which ends its sessions', async () => {
    const researcher = await createResearcher(t);
    const teacher = await createTeacher(t);
    const blocked = await setBlocked(researcher.token, teacher.user.id, { blocked: true });
    expect(blocked.statusCode).toBe(200);
    const user = UserSchema.parse(blocked.json());
    expect(user).toMatchObject({
      id: teacher.user.id,
      blocked: true,
      email: teacher.user.email,
      role: teacher.user.role,
    });
    for (const word of SECRET_WORDS) expect(blocked.body.toLowerCase()).not.toContain(word);
    expect((await userRow(teacher.user.id))!['blocked']).toBe(true);
    expect(await me(teacher.token)).toBeApiError(401, 'Your account has been blocked by the administrator.');
    expect(await login(teacher.user.email, teacher.password)).toBeApiError(
      400,
      'Your account has been blocked by an administrator',
    );

    const unblocked = await setBlocked(researcher.token, teacher.user.id, { blocked: false });
    expect(UserSchema.parse(unblocked.json()).blocked).toBe(false);
    // The sessions from before the block stay ended; logging in again works.
    expect(await me(teacher.token)).toBeApiError(401, 'Your session has ended. Please log in again.');
    const again = await login(teacher.user.email, teacher.password);
    expect(again.statusCode).toBe(200);
    expect((await me(AuthResponseSchema.parse(again.json()).jwt)).statusCode).toBe(200);
  });

  it('lets a researcher block another researcher but not their own account', async () => {
    const researcher = await createResearcher(t);
    const colleague = await createResearcher(t);
    expect((await setBlocked(researcher.token, colleague.user.id, { blocked: true })).statusCode).toBe(200);
    const before = await userRow(researcher.user.id);
    expect(await setBlocked(researcher.token, researcher.user.id, { blocked: true })).toBeApiError(
      403,
      'You cannot block or unblock your own account.',
    );
    expect(await setBlocked(researcher.token, researcher.user.id, { blocked: false })).toBeApiError(
      403,
      'You cannot block or unblock your own account.',
    );
    expect(await userRow(researcher.user.id)).toEqual(before);
  });

  it('is refused to teachers, PLC leads and anonymous callers', async () => {
    const target = await createTeacher(t);
    const before = await userRow(target.user.id);
    expect(await setBlocked(null, target.user.id, { blocked: true })).toBeApiError(401, 'You need to log in.');
    expect(await setBlocked((await createTeacher(t)).token, target.user.id, { blocked: true })).toBeApiError(
      403,
      'Only researchers can manage users.',
    );
    const lead = await createLead(t);
    expect(await setBlocked(lead.token, target.user.id, { blocked: true })).toBeApiError(
      403,
      'Only researchers can manage users.',
    );
    expect(await setBlocked(lead.token, lead.user.id, { blocked: true })).toBeApiError(403);
    expect(await userRow(target.user.id)).toEqual(before);
  });

  it('answers 404 for an unknown id and 400 for an id that is not one', async () => {
    const researcher = await createResearcher(t);
    expect(await setBlocked(researcher.token, 2_000_000_000, { blocked: true })).toBeApiError(404, 'User not found.');
    for (const id of ['abc', '0', '-1', '99999999999', '1.5', '1e3', '%20']) {
      expect(await setBlocked(researcher.token, id, { blocked: true })).toBeApiError(
        400,
        /^id (must be a positive whole number|is out of range)\.$/,
      );
    }
    expect(await setBlocked(researcher.token, '2147483648', { blocked: true })).toBeApiError(
      400,
      'id is out of range.',
    );
  });

  it('accepts only {blocked} and changes nothing otherwise', async () => {
    const researcher = await createResearcher(t);
    const teacher = await createTeacher(t);
    const before = await userRow(teacher.user.id);
    expect(await setBlocked(researcher.token, teacher.user.id, { blocked: true, role: 4 })).toBeApiError(
      400,
      'Unknown field "role"; it is not accepted.',
    );
    expect(await setBlocked(researcher.token, teacher.user.id, { password: 'x' })).toBeApiError(
      400,
      'Unknown field "password"; it is not accepted.',
    );
    expect(
      await setBlocked(researcher.token, teacher.user.id, { blocked: true, email: 'me@evil.org', username: 'x' }),
    ).toBeApiError(400, /Unknown fields/);
    expect(await setBlocked(researcher.token, teacher.user.id, { blocked: 'yes' })).toBeApiError(
      400,
      'blocked must be true or false.',
    );
    expect(await setBlocked(researcher.token, teacher.user.id, { blocked: 1 })).toBeApiError(
      400,
      'blocked must be true or false.',
    );
    expect(await setBlocked(researcher.token, teacher.user.id, {})).toBeApiError(400, 'blocked is required.');
    expect(await setBlocked(researcher.token, teacher.user.id, undefined)).toBeApiError(
      400,
      'The request body is required.',
    );
    expect(await setBlocked(researcher.token, teacher.user.id, [{ blocked: true }])).toBeApiError(
      400,
      'The request body must be an object.',
    );
    expect(await userRow(teacher.user.id)).toEqual(before);
  });
});
