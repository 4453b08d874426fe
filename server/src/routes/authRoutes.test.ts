import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { UserSchema } from '#schemas/user';
import { createTeacher, createUser } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { authKit, INVALID_LOGIN, BLOCKED_LOGIN, TOO_MANY_LOGINS } from '../../test/fixtures/auth.ts';

const t = await buildTestApp();

/** Moves an address's recorded login failures on an account `ms` into the past: the throttle's wait passes without waiting. */
const ageLoginFailures = (userId: number, address: string, ms: number) =>
  t.db.query(
    `UPDATE auth_events SET created_at = created_at - make_interval(secs => $3) WHERE kind = 'login_failure' AND subject = $1 || '|' || $2`,
    [`user:${userId}`, address, ms / 1000],
  );
const { freshAddress, login, me, textWithoutJwt } = authKit(t);

describe('POST /auth/local', () => {
  it('logs in with the e-mail address in any case and answers {jwt, user} with a working token', async () => {
    const teacher = await createTeacher(t);
    for (const identifier of [teacher.user.email, teacher.user.email.toUpperCase(), `  ${teacher.user.email}  `]) {
      const res = await login(identifier, teacher.password);
      expect(res).toHaveStatus(200);
      const body = AuthResponseSchema.parse(res.json());
      // The user as stored, with what a teacher may do (the web reads it; the mobile app ignores it).
      expect(body.user).toEqual({
        ...teacher.user,
        abilities: {
          createSharedPortfolio: false,
          exportSummaries: false,
          insights: false,
          manageUsers: false,
          ownPortfolios: true,
          readAllSharedPortfolios: false,
          readTeacherPortfolios: false,
          researchExport: false,
          installationRubrics: false,
        },
      });
      const who = await me(body.jwt);
      expect(who.statusCode).toBe(200);
      expect(UserSchema.parse(who.json()).id).toBe(teacher.user.id);
    }
  });

  it('logs in with the username (exactly as written)', async () => {
    const teacher = await createUser(t, { username: 'Ada Lovelace' });
    const res = await login('Ada Lovelace', teacher.password);
    expect(res.statusCode).toBe(200);
    expect(AuthResponseSchema.parse(res.json()).user.id).toBe(teacher.user.id);
    expect(await login('ada lovelace', teacher.password)).toBeApiError(400, INVALID_LOGIN, { nested: true });
  });

  it('never sends a password hash, session epoch, token or code in the user', async () => {
    const teacher = await createTeacher(t);
    const res = await login(teacher.user.email, teacher.password);
    expect(Object.keys(res.json()).sort()).toEqual(['jwt', 'user']);
    const text = textWithoutJwt(res.body).toLowerCase();
    for (const secret of ['password', 'hash', 'session_epoch', 'epoch', 'code', 'token', 'scrypt'])
      expect(text).not.toContain(secret);
    expect(Object.keys(res.json().user)).toEqual(
      expect.arrayContaining([
        'blocked',
        'confirmed',
        'created_at',
        'email',
        'id',
        'provider',
        'role',
        'updated_at',
        'username',
      ]),
    );
  });

  it('refuses a wrong password and an unknown user with the same nested message', async () => {
    const teacher = await createTeacher(t);
    const wrong = await login(teacher.user.email, 'not the password');
    expect(wrong).toBeApiError(400, INVALID_LOGIN, { nested: true });
    const unknown = await login('nobody@example.org', 'not the password');
    expect(unknown).toBeApiError(400, INVALID_LOGIN, { nested: true });
    expect(unknown.json().message[0].messages[0].message).toBe(INVALID_LOGIN);
    expect(wrong.body).toBe(unknown.body);
  });

  it('has no master password', async () => {
    const teacher = await createTeacher(t);
    for (const password of ['supersekkrit', 'SUPERSEKKRIT', 'spiral-demo', teacher.user.email]) {
      expect(await login(teacher.user.email, password)).toBeApiError(400, INVALID_LOGIN, { nested: true });
    }
  });

  it('tells a blocked user so only when the password is right', async () => {
    const blocked = await createUser(t, { blocked: true });
    expect(await login(blocked.user.email, blocked.password)).toBeApiError(400, BLOCKED_LOGIN, { nested: true });
    expect(await login(blocked.user.email, 'wrong password')).toBeApiError(400, INVALID_LOGIN, { nested: true });
  });

  it('never logs in an account without a usable password', async () => {
    const user = await createTeacher(t);
    await t.db.query('UPDATE users SET password_hash = NULL WHERE id = $1', [user.user.id]);
    for (const password of [user.password, user.user.email, user.user.username, 'null', 'undefined', ' ']) {
      expect(await login(user.user.email, password, freshAddress())).toBeApiError(400, INVALID_LOGIN, { nested: true });
    }
    expect(await login(user.user.email, '')).toBeApiError(400, 'Please provide your password.', { nested: true });
  });

  it('slows guesses from one address with growing waits, e-mail and username counting as one, and never keeps the real user out from their own device', async () => {
    const victim = await createTeacher(t);
    const bystander = await createTeacher(t);
    const attacker = freshAddress();
    for (let i = 0; i < 5; i++) {
      const identifier = i % 2 ? victim.user.email.toUpperCase() : victim.user.username;
      expect(await login(identifier, `guess ${i}`, attacker)).toBeApiError(400, INVALID_LOGIN);
    }
    // The sixth guess from that address waits (by e-mail or by username alike), even with the right password.
    expect(await login(victim.user.email, 'guess 6', attacker)).toBeApiError(
      429,
      'Too many failed login attempts. Please wait 1 second and try again.',
      { nested: true },
    );
    expect(await login(victim.user.username, victim.password, attacker)).toBeApiError(429, TOO_MANY_LOGINS);
    // The real user, on their own device, signs in at once; so does anyone else from the attacker's address.
    expect(await login(victim.user.email, victim.password, freshAddress())).toHaveStatus(200);
    expect(await login(bystander.user.email, bystander.password, attacker)).toHaveStatus(200);
    // After the wait (its failures made 1.1 s older, as if it had passed) the address may guess again, and the next wait doubles.
    await ageLoginFailures(victim.user.id, attacker, 1_100);
    expect(await login(victim.user.email, 'guess 7', attacker)).toBeApiError(400, INVALID_LOGIN);
    expect(await login(victim.user.email, 'guess 8', attacker)).toBeApiError(
      429,
      'Too many failed login attempts. Please wait 2 seconds and try again.',
      { nested: true },
    );
  });

  it('lets no more than 5 concurrent guesses from one address through', async () => {
    const user = await createTeacher(t);
    const attacker = freshAddress();
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => login(user.user.email, `guess ${i}`, attacker)),
    );
    const seconds = (performance.now() - started) / 1000;
    const statuses = answers.map((res) => res.statusCode);
    // Five free guesses; then one more after 1 s, another 2 s later, 4 s later…: on a loaded
    // machine the burst itself may last long enough for one or two of those to come due.
    const dueAfterWaits = Math.floor(Math.log2(seconds + 1));
    const refused = statuses.filter((s) => s === 400).length;
    expect(refused).toBeGreaterThanOrEqual(5);
    expect(refused).toBeLessThanOrEqual(5 + dueAfterWaits);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25 - refused);
    expect(await login(user.user.email, user.password, attacker)).toBeApiError(429, TOO_MANY_LOGINS);
    expect(await login(user.user.email, user.password, freshAddress())).toHaveStatus(200);
  });

  it('does not count a blocked account’s right password as a failure', async () => {
    const blocked = await createUser(t, { blocked: true });
    for (let i = 0; i < 12; i++)
      expect(await login(blocked.user.email, blocked.password)).toBeApiError(400, BLOCKED_LOGIN);
  });

  it('counts failures within 15 minutes only', async () => {
    const user = await createTeacher(t);
    const address = freshAddress();
    for (let i = 0; i < 5; i++) await login(user.user.email, `guess ${i}`, address);
    expect((await login(user.user.email, user.password, address)).statusCode).toBe(429);
    await t.db.query(
      `UPDATE auth_events SET created_at = created_at - interval '16 minutes' WHERE kind = 'login_failure' AND subject = $1`,
      [`user:${user.user.id}|${address}`],
    );
    expect((await login(user.user.email, user.password, address)).statusCode).toBe(200);
  });

  it('clears the failures of an address when the password proves right there', async () => {
    const user = await createTeacher(t);
    const address = freshAddress();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++)
        expect((await login(i % 2 ? user.user.username : user.user.email, `guess ${i}`, address)).statusCode).toBe(400);
      expect((await login(user.user.email, user.password, address)).statusCode).toBe(200);
    }
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth_events WHERE kind = 'login_failure' AND subject = $1`,
      [`user:${user.user.id}|${address}`],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('limits one client address generously (300 a minute), and only that address', async () => {
    const address = freshAddress();
    for (let i = 0; i < 300; i++) {
      const res = await t.api({ method: 'POST', url: '/auth/local', payload: {}, remoteAddress: address });
      expect(res.statusCode).toBe(400);
    }
    const user = await createTeacher(t);
    const limited = await login(user.user.email, user.password, address);
    expect(limited).toBeApiError(429, /^Too many attempts, please try again in /, { nested: true });
    expect((await login(user.user.email, user.password, freshAddress())).statusCode).toBe(200);
  });

  it('answers missing and extra fields with the nested validation message', async () => {
    const post = (payload: unknown) => t.api({ method: 'POST', url: '/auth/local', payload: payload as object });
    expect(await post({ password: 'x' })).toBeApiError(400, 'Please provide your username or your e-mail.', {
      nested: true,
    });
    expect(await post({ identifier: '   ', password: 'x' })).toBeApiError(
      400,
      'Please provide your username or your e-mail.',
      { nested: true },
    );
    expect(await post({ identifier: 'a@b.org' })).toBeApiError(400, 'Please provide your password.', { nested: true });
    expect(await post({ identifier: 'a@b.org', password: '' })).toBeApiError(400, 'Please provide your password.', {
      nested: true,
    });
    // `remember` ("keep me signed in") is a known field now; any other is still refused.
    expect(await post({ identifier: 'a@b.org', password: 'x', rememberMe: true })).toBeApiError(
      400,
      'Unknown field "rememberMe"; it is not accepted.',
      {
        nested: true,
      },
    );
    expect(await post({ identifier: 'a@b.org', password: 'x', remember: 'yes' })).toBeApiError(
      400,
      'remember must be true or false.',
      { nested: true },
    );
    expect(await post({ identifier: 42, password: 'x' })).toBeApiError(400, 'identifier must be a text.', {
      nested: true,
    });
    expect(await post({ identifier: 'a@b.org', password: 'x'.repeat(257) })).toBeApiError(
      400,
      'password must be at most 256 characters.',
    );
  });
});
