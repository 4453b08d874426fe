import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { OkResponseSchema } from '#schemas/common';
import { countRows, createTeacher, createUser, TEST_PASSWORD } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { authKit, INVALID_LOGIN, BLOCKED_LOGIN, INCORRECT_CODE } from '../../test/fixtures/auth.ts';

const t = await buildTestApp();
const { freshAddress, login, forgot, reset, me, lastCodeTo, resetCodeFor, textWithoutJwt, countCodes } = authKit(t);

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
