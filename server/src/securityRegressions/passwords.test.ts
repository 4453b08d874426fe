import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLead, createResearcher, createSharedPortfolio, createTeacher, snapshot } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { loadConfig } from '../config.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../db/demo.ts';
import { securityKit, INVALID_LOGIN, INCORRECT_CODE, auth, codeMailedTo } from '../../test/fixtures/security.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * credentials: backdoors, logged secrets, fallback secrets, initial passwords, password hashing and
 * guessable passwords, demo accounts: one test per item proves that our server does not have it, or
 * names exactly how far the product protects against it.
 */
const t = await buildTestApp();
const { login } = securityKit(t);

describe('#4 no predictable initial passwords', () => {
  it('#4 no predictable initial passwords: new accounts (researcher or invitation) have no usable password; set-password and reset codes expire and work once', async () => {
    const researcher = await createResearcher(t);
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead);
    const tag = Date.now().toString(36);
    const made = `made.${tag}@school.example`;
    const invited = `invited.${tag}@school.example`;
    expect(
      await t.api({
        method: 'POST',
        url: '/invitations/outside',
        token: researcher.token,
        payload: { email: made, username: `Made ${tag}`, roleId: 1 },
      }),
    ).toHaveStatus(200);
    expect(
      await t.api({
        method: 'POST',
        url: '/invitations',
        token: lead.token,
        payload: { email: invited, sharedPortfolio: sp.id },
      }),
    ).toHaveStatus(200);

    for (const [email, username] of [
      [made, `Made ${tag}`],
      [invited, `invited.${tag}`],
    ] as const) {
      const { rows } = await t.db.query<{ password_hash: string | null; ttl: number; purpose: string }>(
        `SELECT u.password_hash, c.purpose, extract(epoch FROM c.expires_at - c.created_at)::int AS ttl
         FROM users u JOIN password_codes c ON c.user_id = u.id WHERE u.email = $1`,
        [email],
      );
      expect(rows).toEqual([{ password_hash: null, purpose: 'welcome', ttl: 7 * 24 * 60 * 60 }]);
      for (const identifier of [email, username]) {
        for (const guess of [email, email.toUpperCase(), username, 'password']) {
          expect(await login(identifier, guess)).toBeApiError(400, INVALID_LOGIN, { nested: true });
        }
      }
    }

    // An expired set-password link does nothing.
    const madeCode = codeMailedTo(t.mail, made);
    await t.db.query(
      `UPDATE password_codes SET expires_at = ms_now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [made],
    );
    expect(
      await auth(t, 'reset-password', {
        code: madeCode,
        password: 'chosen password',
        passwordConfirmation: 'chosen password',
      }),
    ).toBeApiError(400, INCORRECT_CODE, { nested: true });
    expect(await login(made, 'chosen password')).toBeApiError(400, INVALID_LOGIN);

    // A reset link lives one hour and works once.
    const teacher = await createTeacher(t);
    expect(await auth(t, 'forgot-password', { email: teacher.user.email })).toHaveStatus(200);
    const { rows: reset } = await t.db.query<{ ttl: number }>(
      `SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM password_codes WHERE user_id = $1 AND purpose = 'reset'`,
      [teacher.user.id],
    );
    expect(reset).toEqual([{ ttl: 60 * 60 }]);
    const code = codeMailedTo(t.mail, teacher.user.email);
    expect(
      await auth(t, 'reset-password', { code, password: 'new password 1', passwordConfirmation: 'new password 1' }),
    ).toHaveStatus(200);
    expect(
      await auth(t, 'reset-password', { code, password: 'new password 2', passwordConfirmation: 'new password 2' }),
    ).toBeApiError(400, INCORRECT_CODE);
    expect(await login(teacher.user.email, 'new password 1')).toHaveStatus(200);
  }, 120_000);
});

describe('#20 password hashing', () => {
  it('#20 password hashing: argon2id at OWASP strength; an account with an old scrypt hash logs in and its hash is upgraded, its sessions untouched', async () => {
    const teacher = await createTeacher(t);
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync(teacher.password, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 128 * 32768 * 8 * 2 });
    await t.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [
      teacher.user.id,
      `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`,
    ]);
    expect(await login(teacher.user.email, teacher.password)).toHaveStatus(200);
    const { rows } = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [
      teacher.user.id,
    ]);
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await t.api({ method: 'GET', url: '/users/me', token: teacher.token })).toHaveStatus(200);
    expect(await login(teacher.user.email, teacher.password)).toHaveStatus(200);
    expect(await login(teacher.user.email, 'not the password')).toBeApiError(400, INVALID_LOGIN, { nested: true });
  });
});

describe('#21 passwords people can guess', () => {
  it('#21 passwords people can guess are refused (common ones, only spaces, one’s own e-mail or username) and the link stays usable; only the newest reset link works', async () => {
    const user = await createTeacher(t);
    const first = await auth(t, 'forgot-password', { email: user.user.email });
    expect(first).toHaveStatus(200);
    await t.mail.settled();
    const older = codeMailedTo(t.mail, user.user.email);
    expect(await auth(t, 'forgot-password', { email: user.user.email })).toHaveStatus(200);
    await t.mail.settled();
    const code = codeMailedTo(t.mail, user.user.email);
    expect(code).not.toBe(older);
    const before = await snapshot(t);
    for (const [password, message] of [
      ['password', 'This password is too common and easy to guess. Please choose another one.'],
      ['12345678', 'This password is too common and easy to guess. Please choose another one.'],
      ['        ', 'Your new password cannot be only spaces.'],
      [user.user.email, 'Your new password must not contain your e-mail address or your username.'],
      [`${user.user.username}!2026`, 'Your new password must not contain your e-mail address or your username.'],
    ] as const) {
      expect(
        await auth(t, 'reset-password', { code, password, passwordConfirmation: password }),
        password,
      ).toBeApiError(400, message, { nested: true });
    }
    expect(await snapshot(t)).toEqual(before);
    // The older link ended when the newer was sent; the newer still works for a good password.
    expect(
      await auth(t, 'reset-password', {
        code: older,
        password: 'tea kettle in July',
        passwordConfirmation: 'tea kettle in July',
      }),
    ).toBeApiError(400, INCORRECT_CODE, { nested: true });
    expect(
      await auth(t, 'reset-password', {
        code,
        password: 'tea kettle in July',
        passwordConfirmation: 'tea kettle in July',
      }),
    ).toHaveStatus(200);
  });
});

describe('#25 demo accounts in real deployments', async () => {
  const reachable = await buildTestApp({ demoSignIn: false });
  const local = await buildTestApp({ demoSignIn: true });
  beforeAll(async () => {
    await seedDemo(reachable.db);
    await seedDemo(local.db);
  });

  it('#25 demo accounts cannot sign in on a server other machines can reach (the default binds to loopback), and are not seeded there', async () => {
    for (const account of DEMO_ACCOUNTS) {
      expect(await login(account.email, DEMO_PASSWORD, reachable), account.email).toBeApiError(400, INVALID_LOGIN, {
        nested: true,
      });
      expect(await login(account.email, DEMO_PASSWORD, local), account.email).toHaveStatus(200);
    }
    expect(
      loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pf-host-')), JWT_SECRET: 'x'.repeat(40) }),
    ).toMatchObject({ host: '127.0.0.1', demoData: true, demoSignIn: true });
    expect(
      loadConfig({
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pf-host-')),
        JWT_SECRET: 'x'.repeat(40),
        HOST: '0.0.0.0',
      }),
    ).toMatchObject({ demoData: false, demoSignIn: false });
  });
});
