import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { UserSchema } from '#schemas/user';
import { countRows, createLead, createResearcher, createTeacher } from '../../test/factories.ts';
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
const createAccount = (token: string | null, payload: unknown) =>
  t.api({ method: 'POST', url: '/invitations/outside', token, payload: payload as object });

/** The raw row of a user (to prove that a refused request changed nothing). */
async function userRow(id: number) {
  const { rows } = await t.db.query('SELECT * FROM users WHERE id = $1', [id]);
  return rows[0];
}

/** Row counts of everything an account creation writes. */
const counts = async () => ({
  users: await countRows(t, 'users'),
  portfolios: await countRows(t, 'portfolios'),
  codes: await countRows(t, 'password_codes'),
});

const SECRET_WORDS = ['password', 'hash', 'session_epoch', 'code', 'token'];

describe('POST /invitations/outside', () => {
  it('creates an account without a usable password, a starter portfolio, and e-mails a working set-password link', async () => {
    const researcher = await createResearcher(t);
    const res = await createAccount(researcher.token, {
      email: '  New.Teacher@Example.ORG ',
      username: ' New Teacher ',
      roleId: 1,
    });
    expect(res).toHaveStatus(200);
    const user = UserSchema.parse(res.json());
    expect(user).toMatchObject({
      email: 'new.teacher@example.org',
      username: 'New Teacher',
      blocked: false,
      provider: 'local',
    });
    expect(user.role).toMatchObject({ id: 1, type: 'authenticated' });
    for (const word of SECRET_WORDS) expect(res.body.toLowerCase()).not.toContain(word);

    const row = await userRow(user.id);
    expect(row!['password_hash']).toBeNull();
    for (const password of [
      'new.teacher@example.org',
      'New.Teacher@Example.ORG',
      'New Teacher',
      'spiral-demo',
      'supersekkrit',
    ]) {
      expect(await login('new.teacher@example.org', password)).toBeApiError(400, 'Identifier or password invalid.');
    }

    const { rows: portfolios } = await t.db.query<{ name: string; same: boolean; grades: unknown }>(
      `SELECT p.name, p.structure = t.structure AS same, p.grades FROM portfolios p, portfolios t WHERE p.owner_id = $1 AND t.id = 1`,
      [user.id],
    );
    expect(portfolios).toEqual([{ name: 'My Portfolio 1', same: true, grades: [] }]);

    const mail = t.mail.lastTo('new.teacher@example.org')!;
    expect(mail.subject).toBe('Your PracticeFolio account');
    expect(mail.text).toContain('New Teacher');
    const link = mail.links[0]!;
    // A welcome link: the page says "Set your password" (the person never had one).
    expect(link).toMatch(/^http:\/\/portal\.test\/reset-password\/[A-Za-z0-9_-]{43,}\?welcome=1$/);
    expect(mail.text).toContain(link);
    const { rows: codes } = await t.db.query<{ purpose: string; days: number }>(
      `SELECT purpose, round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM password_codes WHERE user_id = $1`,
      [user.id],
    );
    expect(codes).toEqual([{ purpose: 'welcome', days: 7 }]);

    const code = new URL(link).pathname.split('/').pop()!;
    const opened = await t.api({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { code, password: 'my own password', passwordConfirmation: 'my own password' },
    });
    expect(opened.statusCode).toBe(200);
    const session = AuthResponseSchema.parse(opened.json());
    expect(session.user.id).toBe(user.id);
    expect(UserSchema.parse((await me(session.jwt)).json()).email).toBe('new.teacher@example.org');
    expect((await login('NEW.TEACHER@example.org', 'my own password')).statusCode).toBe(200);
  });

  it('gives PLC leads a starter portfolio and researchers none', async () => {
    const researcher = await createResearcher(t);
    const lead = UserSchema.parse(
      (
        await createAccount(researcher.token, { email: 'lead-new@example.org', username: 'Lead New', roleId: 3 })
      ).json(),
    );
    const other = UserSchema.parse(
      (
        await createAccount(researcher.token, {
          email: 'researcher-new@example.org',
          username: 'Researcher New',
          roleId: 4,
        })
      ).json(),
    );
    expect(lead.role.type).toBe('plc_lead');
    expect(other.role.type).toBe('researcher');
    const owned = async (id: number) =>
      (await t.db.query<{ name: string }>('SELECT name FROM portfolios WHERE owner_id = $1', [id])).rows.map(
        (r) => r.name,
      );
    expect(await owned(lead.id)).toEqual(['My Portfolio 1']);
    expect(await owned(other.id)).toEqual([]);
    expect(t.mail.lastTo('researcher-new@example.org')?.links[0]).toMatch(/^http:\/\/portal\.test\/reset-password\//);
  });

  it('is for researchers only, and creates nothing for anybody else', async () => {
    const before = await counts();
    const payload = { email: 'sneaky@example.org', username: 'Sneaky', roleId: 4 };
    expect(await createAccount(null, payload)).toBeApiError(401, 'You need to log in.');
    expect(await createAccount((await createTeacher(t)).token, payload)).toBeApiError(
      403,
      'Only researchers can manage users.',
    );
    expect(await createAccount((await createLead(t)).token, payload)).toBeApiError(
      403,
      'Only researchers can manage users.',
    );
    expect((await counts()).portfolios).toBe(before.portfolios);
    expect((await counts()).codes).toBe(before.codes);
    expect((await t.db.query('SELECT 1 FROM users WHERE email = $1', ['sneaky@example.org'])).rows).toEqual([]);
    expect(t.mail.lastTo('sneaky@example.org')).toBeUndefined();
  });

  it('refuses a taken address in any case, and a taken username', async () => {
    const researcher = await createResearcher(t);
    const existing = await createTeacher(t);
    const before = await counts();
    for (const email of [existing.user.email, existing.user.email.toUpperCase(), ` ${existing.user.email} `]) {
      expect(await createAccount(researcher.token, { email, username: 'Someone New', roleId: 1 })).toBeApiError(
        400,
        'User already exists.',
      );
    }
    expect(
      await createAccount(researcher.token, {
        email: 'fresh-address@example.org',
        username: existing.user.username,
        roleId: 1,
      }),
    ).toBeApiError(400, 'This user name is already taken.');
    expect(await counts()).toEqual(before);
  });

  it('creates one account when the same address or name is sent twice at once', async () => {
    const researcher = await createResearcher(t);
    const sameEmail = await Promise.all([
      createAccount(researcher.token, { email: 'twice@example.org', username: 'Twice One', roleId: 1 }),
      createAccount(researcher.token, { email: 'TWICE@example.org', username: 'Twice Two', roleId: 1 }),
    ]);
    expect(sameEmail.map((res) => res.statusCode).toSorted()).toEqual([200, 400]);
    expect(sameEmail.find((res) => res.statusCode === 400)).toBeApiError(400, 'User already exists.');
    const sameName = await Promise.all([
      createAccount(researcher.token, { email: 'name-one@example.org', username: 'Same Name', roleId: 1 }),
      createAccount(researcher.token, { email: 'name-two@example.org', username: 'Same Name', roleId: 3 }),
    ]);
    expect(sameName.map((res) => res.statusCode).toSorted()).toEqual([200, 400]);
    expect(sameName.find((res) => res.statusCode === 400)).toBeApiError(400, 'This user name is already taken.');
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM portfolios p JOIN users u ON u.id = p.owner_id WHERE u.email IN ('twice@example.org', 'name-one@example.org', 'name-two@example.org')`,
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('refuses invalid input with the form messages and creates nothing', async () => {
    const researcher = await createResearcher(t);
    const before = await counts();
    const sent = t.mail.sent.length;
    const valid = { email: 'valid@example.org', username: 'Valid Name', roleId: 1 };
    const cases: Array<[unknown, string | RegExp]> = [
      [{ ...valid, email: 'not-an-address' }, 'Field Email is not a valid email address.'],
      [{ ...valid, email: 'a@b' }, 'Field Email is not a valid email address.'],
      [{ ...valid, email: `${'a'.repeat(250)}@example.org` }, 'Field Email is not a valid email address.'],
      [{ ...valid, email: '' }, 'Field Email is required.'],
      [{ ...valid, email: '   ' }, 'Field Email is required.'],
      [{ ...valid, username: '' }, 'Field User Name is required.'],
      [{ ...valid, username: '   ' }, 'Field User Name is required.'],
      [{ ...valid, username: 'x'.repeat(101) }, 'Field User Name must be at most 100 characters.'],
      [{ email: valid.email, roleId: 1 }, 'username is required.'],
      [{ username: valid.username, roleId: 1 }, 'email is required.'],
      [
        { email: valid.email, username: valid.username },
        /^(roleId is required\.|Field Role with value +is invalid\.)$/,
      ],
      [{ ...valid, roleId: 2 }, 'Field Role with value 2 is invalid.'],
      [{ ...valid, roleId: 7 }, 'Field Role with value 7 is invalid.'],
      [{ ...valid, roleId: 0 }, 'Field Role with value 0 is invalid.'],
      [{ ...valid, roleId: 1.5 }, 'Field Role with value 1.5 is invalid.'],
      [{ ...valid, roleId: '1' }, /^(roleId must be a number|Field Role with value 1 is invalid)\.$/],
      [{ ...valid, roleId: null }, /^(roleId must be a number\.|Field Role with value +is invalid\.)$/],
      [{ ...valid, username: 42 }, 'username must be a text.'],
      [{ ...valid, password: 'chosen-by-researcher' }, 'Unknown field "password"; it is not accepted.'],
      [{ ...valid, blocked: false }, 'Unknown field "blocked"; it is not accepted.'],
      [{ ...valid, role: { id: 4 } }, 'Unknown field "role"; it is not accepted.'],
      [{ ...valid, sharedPortfolio: 1 }, 'Unknown field "sharedPortfolio"; it is not accepted.'],
      [undefined, 'The request body is required.'],
      [[valid], 'The request body must be an object.'],
    ];
    for (const [payload, message] of cases) {
      expect(await createAccount(researcher.token, payload)).toBeApiError(400, message);
    }
    expect(await counts()).toEqual(before);
    expect(t.mail.sent.length).toBe(sent);
  });

  it('answers 502 and keeps nothing when the welcome e-mail cannot be sent', async () => {
    const researcher = await createResearcher(t);
    const before = await counts();
    const payload = { email: 'unlucky@example.org', username: 'Unlucky', roleId: 1 };
    t.mail.fail = true;
    try {
      expect(await createAccount(researcher.token, payload)).toBeApiError(
        502,
        'The welcome e-mail could not be sent, so the account was not created. Please try again.',
      );
    } finally {
      t.mail.fail = false;
    }
    expect(await counts()).toEqual(before);
    // Trying again works: nothing was left behind to collide with.
    expect((await createAccount(researcher.token, payload)).statusCode).toBe(200);
  });
});
