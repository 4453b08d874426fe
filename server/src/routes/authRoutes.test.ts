import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { OkResponseSchema } from '#schemas/common';
import { UserSchema } from '#schemas/user';
import { countRows, createTeacher, createUser, TEST_PASSWORD, type TestUser } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

const INVALID_LOGIN = 'Identifier or password invalid.';
const BLOCKED_LOGIN = 'Your account has been blocked by an administrator';
const TOO_MANY_LOGINS = /^Too many failed login attempts\. Please wait \d+ (second|seconds|minute|minutes) and try again\.$/;
const INCORRECT_CODE = 'Incorrect code provided.';

const t = await buildTestApp();

let lastAddress = 0;
/** A client address nobody else in this file uses (the per-address limits stay apart). */
/** Moves an address's recorded login failures on an account `ms` into the past: the throttle's wait passes without waiting. */
const ageLoginFailures = (userId: number, address: string, ms: number) =>
  t.db.query(`UPDATE auth_events SET created_at = created_at - make_interval(secs => $3) WHERE kind = 'login_failure' AND subject = $1 || '|' || $2`, [
    `user:${userId}`,
    address,
    ms / 1000,
  ]);
const freshAddress = () => `10.0.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

const login = (identifier: string, password: string, remoteAddress = '127.0.0.1') =>
  t.api({ method: 'POST', url: '/auth/local', payload: { identifier, password }, remoteAddress });

const forgot = (email: string, remoteAddress = '127.0.0.1') =>
  t.api({ method: 'POST', url: '/auth/forgot-password', payload: { email }, remoteAddress });

const reset = (body: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
  t.api({ method: 'POST', url: '/auth/reset-password', payload: body, remoteAddress });

const me = (token: string) => t.api({ method: 'GET', url: '/users/me', token });

/** The code of the last reset link e-mailed to `email`. */
function lastCodeTo(app: TestApp, email: string): string {
  const message = app.mail.lastTo(email);
  expect(message, `no e-mail to ${email}`).toBeDefined();
  const match = /^http:\/\/portal\.test\/reset-password\/([A-Za-z0-9_-]+)$/.exec(message!.links[0] ?? '');
  expect(match).not.toBeNull();
  return match![1]!;
}

/** Asks for a reset link for the user and returns its code. */
async function resetCodeFor(user: TestUser): Promise<string> {
  const res = await forgot(user.user.email, freshAddress());
  expect(res.statusCode).toBe(200);
  return lastCodeTo(t, user.user.email);
}

/** The response body as text without the token, to look for secrets in it. */
function textWithoutJwt(body: string): string {
  const { jwt } = JSON.parse(body) as { jwt: string };
  return body.replace(jwt, '');
}

describe('POST /auth/local', () => {
  it('logs in with the e-mail address in any case and answers {jwt, user} with a working token', async () => {
    const teacher = await createTeacher(t);
    for (const identifier of [teacher.user.email, teacher.user.email.toUpperCase(), `  ${teacher.user.email}  `]) {
      const res = await login(identifier, teacher.password);
      expect(res).toHaveStatus(200);
      const body = AuthResponseSchema.parse(res.json());
      expect(body.user).toEqual(teacher.user);
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
    for (const secret of ['password', 'hash', 'session_epoch', 'epoch', 'code', 'token', 'scrypt']) expect(text).not.toContain(secret);
    expect(Object.keys(res.json().user)).toEqual(
      expect.arrayContaining(['blocked', 'confirmed', 'created_at', 'email', 'id', 'provider', 'role', 'updated_at', 'username']),
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
    expect(await login(victim.user.email, 'guess 6', attacker)).toBeApiError(429, 'Too many failed login attempts. Please wait 1 second and try again.', { nested: true });
    expect(await login(victim.user.username, victim.password, attacker)).toBeApiError(429, TOO_MANY_LOGINS);
    // The real user, on their own device, signs in at once; so does anyone else from the attacker's address.
    expect(await login(victim.user.email, victim.password, freshAddress())).toHaveStatus(200);
    expect(await login(bystander.user.email, bystander.password, attacker)).toHaveStatus(200);
    // After the wait (its failures made 1.1 s older, as if it had passed) the address may guess again, and the next wait doubles.
    await ageLoginFailures(victim.user.id, attacker, 1_100);
    expect(await login(victim.user.email, 'guess 7', attacker)).toBeApiError(400, INVALID_LOGIN);
    expect(await login(victim.user.email, 'guess 8', attacker)).toBeApiError(429, 'Too many failed login attempts. Please wait 2 seconds and try again.', { nested: true });
  });

  it('lets no more than 5 concurrent guesses from one address through', async () => {
    const user = await createTeacher(t);
    const attacker = freshAddress();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => login(user.user.email, `guess ${i}`, attacker)));
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
    for (let i = 0; i < 12; i++) expect(await login(blocked.user.email, blocked.password)).toBeApiError(400, BLOCKED_LOGIN);
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
      for (let i = 0; i < 4; i++) expect((await login(i % 2 ? user.user.username : user.user.email, `guess ${i}`, address)).statusCode).toBe(400);
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
    expect(await post({ password: 'x' })).toBeApiError(400, 'Please provide your username or your e-mail.', { nested: true });
    expect(await post({ identifier: '   ', password: 'x' })).toBeApiError(400, 'Please provide your username or your e-mail.', { nested: true });
    expect(await post({ identifier: 'a@b.org' })).toBeApiError(400, 'Please provide your password.', { nested: true });
    expect(await post({ identifier: 'a@b.org', password: '' })).toBeApiError(400, 'Please provide your password.', { nested: true });
    // `remember` ("keep me signed in") is a known field now; any other is still refused.
    expect(await post({ identifier: 'a@b.org', password: 'x', rememberMe: true })).toBeApiError(400, 'Unknown field "rememberMe"; it is not accepted.', {
      nested: true,
    });
    expect(await post({ identifier: 'a@b.org', password: 'x', remember: 'yes' })).toBeApiError(400, 'remember must be true or false.', { nested: true });
    expect(await post({ identifier: 42, password: 'x' })).toBeApiError(400, 'identifier must be a text.', { nested: true });
    expect(await post({ identifier: 'a@b.org', password: 'x'.repeat(257) })).toBeApiError(400, 'password must be at most 256 characters.');
  });
});

describe('POST /auth/forgot-password', () => {
  it('e-mails a one-hour reset link to an active account and stores only the hash of its code', async () => {
    const user = await createTeacher(t);
    const res = await forgot(user.user.email.toUpperCase(), freshAddress());
    expect(res.statusCode).toBe(200);
    expect(OkResponseSchema.parse(res.json())).toEqual({ ok: true });
    const code = lastCodeTo(t, user.user.email);
    expect(code.length).toBeGreaterThanOrEqual(43);
    const mail = t.mail.lastTo(user.user.email)!;
    expect(mail.subject).toBe('Reset your PracticeFolio password');
    expect(mail.text).toContain(`http://portal.test/reset-password/${code}`);
    const { rows } = await t.db.query<{ code_hash: string; purpose: string; minutes: number }>(
      `SELECT code_hash, purpose, extract(epoch FROM expires_at - created_at)::int / 60 AS minutes
       FROM password_codes WHERE user_id = $1`,
      [user.user.id],
    );
    expect(rows).toEqual([{ code_hash: createHash('sha256').update(code).digest('hex'), purpose: 'reset', minutes: 60 }]);
  });

  it('answers the same for unknown and blocked addresses, and sends them nothing', async () => {
    const known = await createTeacher(t);
    const blocked = await createUser(t, { blocked: true });
    const before = t.mail.sent.length;
    const answers = [];
    for (const email of [known.user.email, 'nobody-here@example.org', blocked.user.email]) {
      const res = await forgot(email, freshAddress());
      expect(res.statusCode).toBe(200);
      answers.push(res.body);
    }
    expect(new Set(answers).size).toBe(1);
    expect(t.mail.sent.slice(before).map((m) => m.to)).toEqual([known.user.email]);
    expect(await countCodes(blocked.user.id)).toBe(0);
  });

  it('refuses a malformed address with a nested message', async () => {
    for (const email of ['not-an-address', 'a@b', 'a b@c.org', '@example.org']) {
      expect(await forgot(email)).toBeApiError(400, 'Please provide a valid email address.', { nested: true });
    }
    expect(await forgot('')).toBeApiError(400, 'Please provide your e-mail.', { nested: true });
    expect(await t.api({ method: 'POST', url: '/auth/forgot-password', payload: {} })).toBeApiError(400, /required/, { nested: true });
    expect(await t.api({ method: 'POST', url: '/auth/forgot-password', payload: { email: 'a@b.org', username: 'x' } })).toBeApiError(400,
      'Unknown field "username"; it is not accepted.',
      { nested: true });
  });

  it('answers 429 after 5 requests for one e-mail address from one requester within an hour, whatever its case', async () => {
    const user = await createTeacher(t);
    const before = t.mail.sent.length;
    const requester = freshAddress();
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? user.user.email.toUpperCase() : user.user.email;
      expect((await forgot(email, requester)).statusCode).toBe(200);
    }
    expect(await forgot(user.user.email, requester)).toBeApiError(429, 'Too many reset requests for this address. Please wait an hour and try again.', {
      nested: true,
    });
    expect(t.mail.sent.length - before).toBe(5);
    // Unknown addresses are limited alike (the answer must not tell them apart).
    const other = freshAddress();
    for (let i = 0; i < 5; i++) expect((await forgot('ghost@example.org', other)).statusCode).toBe(200);
    expect((await forgot('ghost@example.org', other)).statusCode).toBe(429);
    // Other e-mail addresses and other requesters are not affected; an hour later the requester may ask again.
    expect((await forgot('someone-else@example.org', requester)).statusCode).toBe(200);
    expect((await forgot(user.user.email, freshAddress())).statusCode).toBe(200);
    await t.db.query(`UPDATE auth_events SET created_at = created_at - interval '61 minutes' WHERE starts_with(subject, $1)`, [user.user.email]);
    expect((await forgot(user.user.email, requester)).statusCode).toBe(200);
  });

  it('sends no more than 5 e-mails for concurrent requests from one requester, and no more than 10 an hour to one account', async () => {
    const user = await createTeacher(t);
    const before = t.mail.sent.length;
    const requester = freshAddress();
    const answers = await Promise.all(Array.from({ length: 15 }, () => forgot(user.user.email, requester)));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(10);
    expect(t.mail.sent.length - before).toBe(5);
    const many = await Promise.all(Array.from({ length: 15 }, () => forgot(user.user.email, freshAddress())));
    expect(many.filter((res) => res.statusCode === 200)).toHaveLength(15);
    await t.mail.settled();
    expect(t.mail.sent.length - before).toBe(10);
  });

  it('still answers 200 when the e-mail cannot be sent', async () => {
    const user = await createTeacher(t);
    t.mail.fail = true;
    try {
      const res = await forgot(user.user.email, freshAddress());
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    } finally {
      t.mail.fail = false;
    }
  });
});

async function countCodes(userId: number): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM password_codes WHERE user_id = $1', [userId]);
  return rows[0]!.n;
}

describe('POST /auth/reset-password', () => {
  it('sets the new password with a valid code and logs the user in; the old password and tokens stop working', async () => {
    const user = await createTeacher(t);
    const code = await resetCodeFor(user);
    const res = await reset({ code, password: 'a brand new secret', passwordConfirmation: 'a brand new secret' });
    expect(res).toHaveStatus(200);
    const body = AuthResponseSchema.parse(res.json());
    expect(body.user.id).toBe(user.user.id);
    const text = textWithoutJwt(res.body).toLowerCase();
    for (const secret of ['password', 'hash', 'epoch', code.toLowerCase()]) expect(text).not.toContain(secret);
    expect((await me(body.jwt)).statusCode).toBe(200);
    expect(await me(user.token)).toBeApiError(401, 'Your session has ended. Please log in again.');
    expect((await login(user.user.email, 'a brand new secret')).statusCode).toBe(200);
    expect(await login(user.user.email, TEST_PASSWORD)).toBeApiError(400, INVALID_LOGIN, { nested: true });
  });

  it('accepts a code only once, and voids the other open codes of the user', async () => {
    const user = await createTeacher(t);
    const first = await resetCodeFor(user);
    const second = await resetCodeFor(user);
    expect(first).not.toBe(second);
    const ok = await reset({ code: second, password: 'new password 1', passwordConfirmation: 'new password 1' });
    expect(ok.statusCode).toBe(200);
    expect(await reset({ code: second, password: 'new password 2', passwordConfirmation: 'new password 2' })).toBeApiError(400, INCORRECT_CODE, {
      nested: true,
    });
    expect(await reset({ code: first, password: 'new password 3', passwordConfirmation: 'new password 3' })).toBeApiError(400, INCORRECT_CODE);
    expect((await login(user.user.email, 'new password 1')).statusCode).toBe(200);
  });

  it('refuses an expired code', async () => {
    const user = await createTeacher(t);
    const code = await resetCodeFor(user);
    await t.db.query(`UPDATE password_codes SET expires_at = ms_now() - interval '1 second' WHERE user_id = $1`, [user.user.id]);
    expect(await reset({ code, password: 'new password 1', passwordConfirmation: 'new password 1' })).toBeApiError(400, INCORRECT_CODE, {
      nested: true,
    });
    expect((await login(user.user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses unknown codes without changing anything', async () => {
    const user = await createTeacher(t);
    await resetCodeFor(user);
    for (const code of ['nope', 'x'.repeat(43), '%', '../../etc']) {
      expect(await reset({ code, password: 'new password 1', passwordConfirmation: 'new password 1' }, freshAddress())).toBeApiError(400, INCORRECT_CODE);
    }
    expect((await login(user.user.email, user.password)).statusCode).toBe(200);
  });

  it('answers missing, mismatched, too short and unknown fields with a clear message', async () => {
    const user = await createTeacher(t);
    const code = await resetCodeFor(user);
    expect(await reset({ code, password: 'new password 1' })).toBeApiError(400, 'passwordConfirmation is required.', { nested: true });
    expect(await reset({ password: 'new password 1', passwordConfirmation: 'new password 1' })).toBeApiError(400, 'code is required.', { nested: true });
    expect(await reset({ code: '', password: 'new password 1', passwordConfirmation: 'new password 1' })).toBeApiError(400, 'Incorrect params provided.');
    expect(await reset({ code, password: '', passwordConfirmation: '' })).toBeApiError(400, 'Incorrect params provided.', { nested: true });
    expect(await reset({ code, password: 'new password 1', passwordConfirmation: 'new password 2' })).toBeApiError(400, 'Passwords do not match.', {
      nested: true,
    });
    expect(await reset({ code, password: 'short', passwordConfirmation: 'short' })).toBeApiError(400, 'Your new password must be at least 8 characters long.', {
      nested: true,
    });
    const long = 'x'.repeat(257);
    expect(await reset({ code, password: long, passwordConfirmation: long })).toBeApiError(400, 'The password must be at most 256 characters.');
    expect(await reset({ code, password: 'new password 1', passwordConfirmation: 'new password 1', userId: 1 })).toBeApiError(400,
      'Unknown field "userId"; it is not accepted.',
      { nested: true });
    // None of these used the code up.
    expect((await reset({ code, password: 'new password 1', passwordConfirmation: 'new password 1' })).statusCode).toBe(200);
  });

  it('refuses a code of an account blocked since it was sent', async () => {
    const user = await createTeacher(t);
    const code = await resetCodeFor(user);
    await t.db.query('UPDATE users SET blocked = true WHERE id = $1', [user.user.id]);
    expect(await reset({ code, password: 'new password 1', passwordConfirmation: 'new password 1' })).toBeApiError(400, BLOCKED_LOGIN, {
      nested: true,
    });
    const { rows } = await t.db.query<{ used: boolean }>('SELECT used_at IS NOT NULL AS used FROM password_codes WHERE user_id = $1', [
      user.user.id,
    ]);
    expect(rows).toEqual([{ used: false }]);
  });

  it('answers 429 after 20 wrong codes from one address; a right one still works there', async () => {
    const user = await createTeacher(t);
    const code = await resetCodeFor(user);
    const address = freshAddress();
    for (let i = 0; i < 20; i++) {
      expect(await reset({ code: `wrong-${i}`, password: 'new password 1', passwordConfirmation: 'new password 1' }, address)).toBeApiError(400, INCORRECT_CODE);
    }
    const limited = await reset({ code: 'wrong-again', password: 'new password 1', passwordConfirmation: 'new password 1' }, address);
    expect(limited).toBeApiError(429, 'Too many attempts. Please wait an hour and try again.', { nested: true });
    // A valid code always works, even from that address (a school shares one).
    expect((await reset({ code, password: 'new password 1', passwordConfirmation: 'new password 1' }, address)).statusCode).toBe(200);
  });

  it('lets no more than 20 concurrent wrong codes from one address through', async () => {
    const address = freshAddress();
    const body = (i: number) => ({ code: `concurrent-${i}`, password: 'new password 1', passwordConfirmation: 'new password 1' });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => reset(body(i), address)));
    expect(answers.filter((res) => res.statusCode === 400)).toHaveLength(20);
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(10);
  });

  it('does not count right codes against the address', async () => {
    const address = freshAddress();
    for (let i = 0; i < 19; i++) expect(await reset({ code: `wrong-${i}`, password: 'new password 1', passwordConfirmation: 'new password 1' }, address)).toBeApiError(400);
    for (let i = 0; i < 3; i++) {
      const user = await createTeacher(t);
      const code = await resetCodeFor(user);
      expect(await reset({ code, password: 'new password 1', passwordConfirmation: 'new password 1' }, address)).toHaveStatus(200);
    }
    expect(await reset({ code: 'wrong-last', password: 'new password 1', passwordConfirmation: 'new password 1' }, address)).toBeApiError(400, INCORRECT_CODE);
    expect(await reset({ code: 'wrong-over', password: 'new password 1', passwordConfirmation: 'new password 1' }, address)).toBeApiError(429);
  });

  it('creates nothing for a refused request', async () => {
    const codes = await countRows(t, 'password_codes');
    const users = await countRows(t, 'users');
    expect(await reset({ code: 'x', password: 'new password 1', passwordConfirmation: 'new password 1' }, freshAddress())).toBeApiError(400, INCORRECT_CODE);
    expect(await countRows(t, 'password_codes')).toBe(codes);
    expect(await countRows(t, 'users')).toBe(users);
  });
});
