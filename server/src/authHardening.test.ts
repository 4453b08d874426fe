import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import type { MailMessage } from './mail/mailer.ts';
import { createTeacher } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/helper.ts';

/**
 * Issue 21: limits that hold under abuse (sign-in, sessions, resets, headers). Each test fails on
 * the server before its fix.
 */

const t = await buildTestApp();

const INCORRECT_CODE = 'Incorrect code provided.';

let lastAddress = 0;
/** A client address no other request of this file uses. */
const freshAddress = () => `10.88.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

const auth = (
  app: TestApp,
  route: 'local' | 'forgot-password' | 'reset-password',
  payload: object,
  remoteAddress = freshAddress(),
) => app.api({ method: 'POST', url: `/auth/${route}`, payload, remoteAddress });

/** The code of the last reset link e-mailed to `email`. */
function codeMailedTo(mail: { lastTo(email: string): MailMessage | undefined }, email: string): string {
  const message = mail.lastTo(email);
  expect(message, `no e-mail to ${email}`).toBeDefined();
  const match = /\/reset-password\/([A-Za-z0-9_-]{43})(\?welcome=1)?$/.exec(message!.links[0] ?? '');
  expect(match, message!.links[0]).not.toBeNull();
  return match![1]!;
}

describe('issue 21 #4 reset codes behind a shared address', () => {
  it('a valid, unexpired reset code works from an address that sent 20 wrong codes; refused passwords are counted per code and per account', async () => {
    const school = freshAddress();
    for (let i = 0; i < 20; i += 1) {
      expect(
        await auth(
          t,
          'reset-password',
          { code: `wrong-${i}`, password: 'new password 1', passwordConfirmation: 'new password 1' },
          school,
        ),
      ).toBeApiError(400, INCORRECT_CODE, { nested: true });
    }
    expect(
      await auth(
        t,
        'reset-password',
        { code: 'wrong-again', password: 'new password 1', passwordConfirmation: 'new password 1' },
        school,
      ),
    ).toBeApiError(429, 'Too many attempts. Please wait an hour and try again.', { nested: true });
    const teacher = await createTeacher(t);
    expect(await auth(t, 'forgot-password', { email: teacher.user.email }, school)).toHaveStatus(200);
    await t.mail.settled();
    const code = codeMailedTo(t.mail, teacher.user.email);
    const good = 'tea kettle in July';
    const res = await auth(t, 'reset-password', { code, password: good, passwordConfirmation: good }, school);
    expect(res).toHaveStatus(200);
    expect(AuthResponseSchema.parse(res.json()).user.id).toBe(teacher.user.id);

    // Refused passwords with one valid code, from many addresses: the code ends after 10.
    const other = await createTeacher(t);
    expect(await auth(t, 'forgot-password', { email: other.user.email })).toHaveStatus(200);
    await t.mail.settled();
    const otherCode = codeMailedTo(t.mail, other.user.email);
    for (let i = 0; i < 10; i += 1) {
      expect(
        await auth(t, 'reset-password', { code: otherCode, password: 'password', passwordConfirmation: 'password' }),
      ).toBeApiError(400, /too common/, { nested: true });
    }
    expect(
      await auth(t, 'reset-password', { code: otherCode, password: good, passwordConfirmation: good }),
    ).toBeApiError(400, INCORRECT_CODE, { nested: true });

    // Per account: 20 refused passwords across the account's codes end every open code.
    expect(await auth(t, 'forgot-password', { email: other.user.email })).toHaveStatus(200);
    await t.mail.settled();
    const second = codeMailedTo(t.mail, other.user.email);
    for (let i = 0; i < 10; i += 1) {
      expect(
        await auth(t, 'reset-password', { code: second, password: 'password', passwordConfirmation: 'password' }),
      ).toBeApiError(400, /too common/, { nested: true });
    }
    // A new code refused once more: the account is past its limit, so it ends at once too.
    expect(await auth(t, 'forgot-password', { email: other.user.email })).toHaveStatus(200);
    await t.mail.settled();
    const last = codeMailedTo(t.mail, other.user.email);
    expect(
      await auth(t, 'reset-password', { code: last, password: 'password', passwordConfirmation: 'password' }),
    ).toBeApiError(400, /too common/, { nested: true });
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM password_codes WHERE user_id = $1 AND used_at IS NULL',
      [other.user.id],
    );
    expect(rows[0]!.n).toBe(0);
  }, 60_000);
});

describe('issue 21 #8 refresh-token reuse', () => {
  it('a replaced token presented after its grace minute ends the whole session: the thief who refreshed first is signed out with the owner', async () => {
    const teacher = await createTeacher(t);
    const owner = AuthResponseSchema.parse(
      (await auth(t, 'local', { identifier: teacher.user.email, password: teacher.password })).json(),
    ).jwt;
    const me = (token: string) => t.api({ method: 'GET', url: '/users/me', token });
    const refresh = (token: string) => t.api({ method: 'POST', url: '/token/refresh', token, payload: {} });
    // The thief refreshes the stolen current token first.
    const thief = (await refresh(owner)).json().jwt as string;
    expect(await me(thief)).toHaveStatus(200);
    // Within the grace minute the owner's token still works (requests under way), nothing ends.
    expect(await me(owner)).toHaveStatus(200);
    await t.db.query("UPDATE sessions SET rotated_at = now() - interval '61 seconds' WHERE user_id = $1", [
      teacher.user.id,
    ]);
    await t.principalsHeard();
    // The owner's app presents its replaced token: both holders are out.
    expect(await refresh(owner)).toBeApiError(401, 'Your session has ended. Please log in again.');
    expect(await me(thief)).toBeApiError(401, 'Your session has ended. Please log in again.');
    expect(await refresh(thief)).toBeApiError(401, 'Your session has ended. Please log in again.');
    const { rows } = await t.db.query<{ ended: boolean }>(
      'SELECT ended_at IS NOT NULL AS ended FROM sessions WHERE user_id = $1',
      [teacher.user.id],
    );
    expect(rows).toEqual([{ ended: true }]);
    // A new sign-in works.
    expect(await auth(t, 'local', { identifier: teacher.user.email, password: teacher.password })).toHaveStatus(200);
  });
});

describe('issue 21 #7 reset e-mails of someone else', () => {
  it('reset requests are limited per e-mail and requester; strangers cannot use up the owner’s reset e-mails, and the owner’s own request still sends', async () => {
    const owner = await createTeacher(t);
    const home = freshAddress();
    expect(await auth(t, 'local', { identifier: owner.user.email, password: owner.password }, home)).toHaveStatus(200);
    const mailsTo = () => t.mail.sent.filter((m) => m.to === owner.user.email).length;

    // One stranger: 5 an hour, then 429.
    const stranger = freshAddress();
    for (let i = 0; i < 5; i += 1)
      expect(await auth(t, 'forgot-password', { email: owner.user.email }, stranger)).toHaveStatus(200);
    expect(await auth(t, 'forgot-password', { email: owner.user.email }, stranger)).toBeApiError(
      429,
      'Too many reset requests for this address. Please wait an hour and try again.',
      { nested: true },
    );
    // Many strangers: the account gets at most 10 mails an hour; the rest answer 200 without sending.
    for (let i = 0; i < 10; i += 1)
      expect(await auth(t, 'forgot-password', { email: owner.user.email })).toHaveStatus(200);
    await t.mail.settled();
    expect(mailsTo()).toBe(10);
    // The owner, from an address that signed in to the account, still gets the link.
    expect(await auth(t, 'forgot-password', { email: owner.user.email }, home)).toHaveStatus(200);
    await t.mail.settled();
    expect(mailsTo()).toBe(11);
    const code = codeMailedTo(t.mail, owner.user.email);
    expect(
      await auth(
        t,
        'reset-password',
        { code, password: 'tea kettle in July', passwordConfirmation: 'tea kettle in July' },
        home,
      ),
    ).toHaveStatus(200);
  });
});

describe('issue 21 #6 guessing from many addresses, and on many accounts', () => {
  it('one address trying one password on many accounts gets 429 past its budget; an account under attack from many addresses makes new addresses wait, not its owner’s', async () => {
    // One address, one password, 70 accounts (most unknown): 429 with a clear message after 60.
    const sprayer = freshAddress();
    const answers: number[] = [];
    for (let i = 0; i < 70; i += 1)
      answers.push(
        (await auth(t, 'local', { identifier: `nobody${i}@school.example`, password: 'Summer2026!' }, sprayer))
          .statusCode,
      );
    expect(answers.filter((s) => s === 400)).toHaveLength(60);
    expect(
      await auth(t, 'local', { identifier: 'nobody-else@school.example', password: 'Summer2026!' }, sprayer),
    ).toBeApiError(429, 'Too many failed login attempts from your network. Please wait 15 minutes and try again.', {
      nested: true,
    });
    // The budget does not keep someone out of an account they signed in to from there before.
    const colleague = await createTeacher(t);
    const school = freshAddress();
    expect(
      await auth(t, 'local', { identifier: colleague.user.email, password: colleague.password }, school),
    ).toHaveStatus(200);
    for (let i = 0; i < 60; i += 1)
      await auth(t, 'local', { identifier: `stranger${i}@school.example`, password: 'Summer2026!' }, school);
    expect(
      await auth(t, 'local', { identifier: 'stranger-x@school.example', password: 'Summer2026!' }, school),
    ).toBeApiError(429, /from your network/, { nested: true });
    expect(
      await auth(t, 'local', { identifier: colleague.user.email, password: colleague.password }, school),
    ).toHaveStatus(200);

    // 22 addresses, 3 guesses each on one account: past 20 failures, new addresses wait.
    const victim = await createTeacher(t);
    const home = freshAddress();
    expect(await auth(t, 'local', { identifier: victim.user.email, password: victim.password }, home)).toHaveStatus(
      200,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 66; i += 1)
      statuses.push(
        (
          await auth(
            t,
            'local',
            { identifier: victim.user.email, password: `guess ${i}` },
            `10.66.${Math.floor(i / 3)}.1`,
          )
        ).statusCode,
      );
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(23);
    expect(
      await auth(t, 'local', { identifier: victim.user.email, password: victim.password }, freshAddress()),
    ).toBeApiError(429, /^Too many failed login attempts\. Please wait/, { nested: true });
    // The owner's own address signs in.
    expect(await auth(t, 'local', { identifier: victim.user.email, password: victim.password }, home)).toHaveStatus(
      200,
    );
  }, 120_000);
});

describe('issue 21 #17 headers', async () => {
  const proxied = await buildTestApp({ trustProxy: true });
  it('Permissions-Policy on pages and answers, no X-Frame-Options beside frame-ancestors, HSTS only over HTTPS (X-Forwarded-Proto only from a trusted proxy)', async () => {
    const plain = await t.api({ method: 'GET', url: '/health' });
    expect(plain.headers['permissions-policy']).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
    expect(plain.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(plain.headers['x-frame-options']).toBeUndefined();
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // An untrusted client cannot claim HTTPS; a trusted proxy can.
    const claimed = await t.api({ method: 'GET', url: '/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    const viaProxy = await proxied.api({ method: 'GET', url: '/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('issue 21 #17 bidirectional controls in file names', () => {
  it('are shown neutralised in download names', async () => {
    const { neutraliseBidi } = await import('./http/fileNames.ts');
    expect(neutraliseBidi('invoice\u202Efdp.exe')).toBe('invoice\uFFFDfdp.exe');
    expect(neutraliseBidi('a\u2066b\u2069c\u200F.pdf')).toBe('a\uFFFDb\uFFFDc\uFFFD.pdf');
    expect(neutraliseBidi('plain name.pdf')).toBe('plain name.pdf');
  });

  it('are stored neutralised, so every client (the web app, the mobile apps, the archive) shows the name as it is', async () => {
    const { createArtifact, createPortfolio, createTeacher } = await import('../test/factories.ts');
    const { multipart } = await import('../test/files.ts');
    const owner = await createTeacher(t);
    const portfolio = await createPortfolio(t, owner);
    const artifact = await createArtifact(t, portfolio);
    const url = `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`;
    const uploaded = await t.api({
      method: 'POST',
      url,
      token: owner.token,
      ...multipart('file', 'invoice\u202Efdp.txt', Buffer.from('hello')),
    });
    expect(uploaded).toHaveStatus(200);
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM media_files WHERE uploaded_by = $1', [
      owner.user.id,
    ]);
    expect(rows.map((r) => r.name)).toEqual(['invoice\uFFFDfdp.txt']);
    const listed = JSON.stringify(uploaded.json());
    expect(listed).toContain('invoice\uFFFDfdp.txt');
    expect(listed).not.toContain('\u202E');
  });
});

describe('issue 21 #9 demo accounts after a restart on a reachable address', async () => {
  const { seedDemo, DEMO_ACCOUNTS, DEMO_PASSWORD } = await import('./db/demo.ts');
  const { buildApp } = await import('./app.ts');
  const { CapturingMailer, testAppOf } = await import('../test/helper.ts');
  const local = await buildTestApp({ demoSignIn: true });
  await seedDemo(local.db);
  const config = { ...local.config, demoSignIn: false, host: '0.0.0.0' };
  const mail = new CapturingMailer();
  const reachableApp = await buildApp({ config, db: local.db, mailer: mail, logger: false });
  await reachableApp.ready();
  const reachable = testAppOf(reachableApp, local.db, mail, config);
  it('sessions of the demo accounts from before the restart end', async () => {
    const account = DEMO_ACCOUNTS[0]!;
    const jwt = AuthResponseSchema.parse(
      (await auth(local, 'local', { identifier: account.email, password: DEMO_PASSWORD })).json(),
    ).jwt;
    expect(await local.api({ method: 'GET', url: '/users/me', token: jwt })).toHaveStatus(200);
    expect(await reachable.api({ method: 'GET', url: '/users/me', token: jwt })).toBeApiError(
      401,
      'Your session has ended. Please log in again.',
    );
    expect(await reachable.api({ method: 'POST', url: '/token/refresh', token: jwt, payload: {} })).toBeApiError(401);
    await reachableApp.close();
  });
});
