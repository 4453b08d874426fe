import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { InvitationListResponseSchema, InvitationSchema } from '#schemas/invitation';
import { SharedPortfolioSchema } from '#schemas/sharedPortfolio';
import {
  createInvitation,
  createLead,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  createUser,
  snapshot,
  type TestUser,
  TEMPLATE_STRUCTURE,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const invite = (token: string, payload: unknown) =>
  t.api({ method: 'POST', url: '/invitations', token, payload: payload as object });
const person = (u: TestUser) => ({ id: u.user.id, username: u.user.username, email: u.user.email });

describe('POST /invitations (an existing user)', () => {
  it('invites a user by id: a pending invitation and an e-mail with a link to it', async () => {
    const lead = await createLead(t);
    const teacher = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { name: 'Science PLC' });
    const res = await invite(lead.token, { to: teacher.user.id, sharedPortfolio: sp.id });
    expect(res).toHaveStatus(200);
    const invitation = InvitationSchema.parse(res.json());
    // Picked by id (from a search that showed the address masked): the address stays masked for the lead.
    const address = teacher.user.email;
    const masked = { ...person(teacher), email: `${address.slice(0, 2)}…${address.slice(address.lastIndexOf('@'))}` };
    expect(invitation).toMatchObject({
      to: masked,
      from: person(lead),
      sharedPortfolio: { id: sp.id, name: 'Science PLC' },
    });
    const mail = t.mail.lastTo(teacher.user.email)!;
    expect(mail.subject).toBe('Invitation to join a shared portfolio');
    expect(mail.links).toEqual([`http://portal.test/invitation/${invitation.id}`]);
    expect(mail.text).toContain('Science PLC');
    const members = (
      await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members`, token: lead.token })
    ).json();
    expect(members.pending).toEqual([{ ...masked, invitationId: invitation.id }]);
  });

  it('finds an existing account by e-mail in any case', async () => {
    const lead = await createLead(t);
    const teacher = await createUser(t, { email: 'mixed.case@school.example' });
    const sp = await createSharedPortfolio(t, lead);
    const res = await invite(lead.token, { email: '  Mixed.CASE@School.Example ', sharedPortfolio: String(sp.id) });
    expect(res).toHaveStatus(200);
    expect(res.json().to).toEqual(person(teacher));
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [
      'mixed.case@school.example',
    ]);
    expect(rows[0]).toEqual({ n: 1 });
  });

  it('refuses members and people already invited, with the messages, and changes nothing', async () => {
    const lead = await createLead(t);
    const member = await createTeacher(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [member], invitees: [invitee] });
    const before = await snapshot(t);
    const sent = t.mail.sent.length;
    // Named as the lead named them: by the address typed, or by name when picked by id.
    expect(await invite(lead.token, { to: member.user.id, sharedPortfolio: sp.id })).toBeApiError(
      400,
      `${member.user.username} is already a member of this shared portfolio.`,
    );
    expect(await invite(lead.token, { email: member.user.email.toUpperCase(), sharedPortfolio: sp.id })).toBeApiError(
      400,
      `${member.user.email} is already a member of this shared portfolio.`,
    );
    expect(await invite(lead.token, { to: lead.user.id, sharedPortfolio: sp.id })).toBeApiError(
      400,
      `${lead.user.username} is already a member of this shared portfolio.`,
    );
    expect(await invite(lead.token, { to: invitee.user.id, sharedPortfolio: sp.id })).toBeApiError(
      400,
      `${invitee.user.username} has already been invited to this shared portfolio.`,
    );
    expect(await snapshot(t)).toEqual(before);
    expect(t.mail.sent.length).toBe(sent);
  });

  it('refuses bad bodies with 4xx and changes nothing', async () => {
    const lead = await createLead(t);
    const teacher = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead);
    const before = await snapshot(t);
    const cases: [unknown, number, string][] = [
      [{ to: teacher.user.id }, 400, 'sharedPortfolio must be a shared portfolio id.'],
      [{ sharedPortfolio: sp.id }, 400, 'Send either "to" (a user id) or "email", not both.'],
      [
        { to: teacher.user.id, email: teacher.user.email, sharedPortfolio: sp.id },
        400,
        'Send either "to" (a user id) or "email", not both.',
      ],
      [{ email: '', sharedPortfolio: sp.id }, 400, 'Send either "to" (a user id) or "email", not both.'],
      [
        { email: 'not an address', sharedPortfolio: sp.id },
        400,
        'Please enter a valid email address to invite a new user.',
      ],
      [{ email: 'a@b', sharedPortfolio: sp.id }, 400, 'Please enter a valid email address to invite a new user.'],
      [
        { email: `${'x'.repeat(250)}@example.org`, sharedPortfolio: sp.id },
        400,
        'email must be at most 254 characters.',
      ],
      [{ to: 2_000_000_000, sharedPortfolio: sp.id }, 400, 'User not found.'],
      [{ to: teacher.user.id, sharedPortfolio: 2_000_000_000 }, 404, 'Invalid shared portfolio ID.'],
      [{ to: 'abc', sharedPortfolio: sp.id }, 400, 'to is not valid.'],
      [{ to: teacher.user.id, sharedPortfolio: sp.id, from: 1 }, 400, 'Unknown field "from"; it is not accepted.'],
    ];
    for (const [payload, status, message] of cases)
      expect(await invite(lead.token, payload)).toBeApiError(status, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('escapes the shared portfolio’s name in the HTML of the e-mail', async () => {
    const lead = await createLead(t);
    const teacher = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { name: '<b>x</b><img src=x onerror=alert(1)>' });
    expect(await invite(lead.token, { to: teacher.user.id, sharedPortfolio: sp.id })).toHaveStatus(200);
    const mail = t.mail.lastTo(teacher.user.email)!;
    expect(mail.html).not.toContain('<b>x</b>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;b&gt;x&lt;/b&gt;&lt;img src=x onerror=alert(1)&gt;');
    const stranger = 'new.html.person@school.example';
    expect(await invite(lead.token, { email: stranger, sharedPortfolio: sp.id })).toHaveStatus(200);
    const welcome = t.mail.lastTo(stranger)!;
    expect(welcome.html).not.toContain('<b>x</b>');
    expect(welcome.html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});

describe('POST /invitations (someone new, by e-mail)', () => {
  it('creates a teacher account without a usable password, a starter portfolio and a working set-password link', async () => {
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { name: 'Engineering Circle' });
    const res = await invite(lead.token, { email: 'Brand.New@School.Example', sharedPortfolio: sp.id });
    expect(res).toHaveStatus(200);
    const invitation = InvitationSchema.parse(res.json());
    expect(invitation.to).toMatchObject({ username: 'brand.new', email: 'brand.new@school.example' });
    const { rows } = await t.db.query<{ password_hash: string | null; role_id: number }>(
      'SELECT password_hash, role_id FROM users WHERE id = $1',
      [invitation.to.id],
    );
    expect(rows[0]).toEqual({ password_hash: null, role_id: 1 });
    const { rows: portfolios } = await t.db.query<{ name: string; structure: unknown }>(
      'SELECT name, structure FROM portfolios WHERE owner_id = $1',
      [invitation.to.id],
    );
    expect(portfolios).toEqual([{ name: 'My Portfolio 1', structure: TEMPLATE_STRUCTURE }]);

    // No password works, not even the e-mail address (the original's weakness).
    for (const password of ['brand.new@school.example', 'Brand.New@School.Example', 'password']) {
      expect(
        await t.api({
          method: 'POST',
          url: '/auth/local',
          payload: { identifier: 'brand.new@school.example', password },
        }),
      ).toBeApiError(400, 'Identifier or password invalid.', { nested: true });
    }
    const mail = t.mail.lastTo('brand.new@school.example')!;
    expect(mail.text).toContain('Engineering Circle');
    const code = /\/reset-password\/([A-Za-z0-9_-]+)\?welcome=1$/.exec(mail.links[0]!)![1]!;
    const set = await t.api({
      method: 'POST',
      url: '/auth/reset-password',
      payload: { code, password: 'my own secret 1', passwordConfirmation: 'my own secret 1' },
    });
    expect(set).toHaveStatus(200);
    const session = AuthResponseSchema.parse(set.json());
    const mine = InvitationListResponseSchema.parse(
      (await t.api({ method: 'GET', url: '/invitations', token: session.jwt })).json(),
    );
    expect(mine.map((i) => i.id)).toEqual([invitation.id]);
    expect(
      await t.api({ method: 'POST', url: `/invitations/${invitation.id}/accept`, token: session.jwt }),
    ).toHaveStatus(200);
  });

  it('gives the account a free username when the e-mail’s local part is taken', async () => {
    const lead = await createLead(t);
    await createUser(t, { username: 'sam' });
    const sp = await createSharedPortfolio(t, lead);
    const res = await invite(lead.token, { email: 'sam@other.example', sharedPortfolio: sp.id });
    expect(res.json().to.username).toBe('sam2');
  });

  it('creates nothing when the e-mail cannot be sent (502)', async () => {
    const lead = await createLead(t);
    const teacher = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead);
    const before = await snapshot(t);
    t.mail.fail = true;
    try {
      const message = 'The invitation e-mail could not be sent, so nobody was invited. Please try again.';
      expect(await invite(lead.token, { email: 'nobody.yet@school.example', sharedPortfolio: sp.id })).toBeApiError(
        502,
        message,
      );
      expect(await invite(lead.token, { to: teacher.user.id, sharedPortfolio: sp.id })).toBeApiError(502, message);
    } finally {
      t.mail.fail = false;
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('lets researchers invite to any shared portfolio', async () => {
    const sp = await createSharedPortfolio(t, await createLead(t));
    const researcher = await createResearcher(t);
    const teacher = await createTeacher(t);
    const res = await invite(researcher.token, { to: teacher.user.id, sharedPortfolio: sp.id });
    expect(res).toHaveStatus(200);
    expect(res.json().from).toEqual(person(researcher));
  });
});

describe('reading, accepting, declining and cancelling', () => {
  it('lets the invitee read the shared portfolio and its artifacts, but not write', async () => {
    const lead = await createLead(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { invitees: [invitee] });
    const sa = await createSharedArtifact(t, sp, lead);
    expect(await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}`, token: invitee.token })).toHaveStatus(200);
    expect(await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: invitee.token })).toHaveStatus(200);
    const before = await snapshot(t);
    expect(
      await t.api({
        method: 'PUT',
        url: `/shared-artifacts/${sa.id}`,
        token: invitee.token,
        payload: { responses: sa.responses },
      }),
    ).toBeApiError(404, 'Shared artifact not found.');
    expect(
      await t.api({
        method: 'POST',
        url: '/comments',
        token: invitee.token,
        payload: { text: 'Hi', sharedArtifact: sa.id },
      }),
    ).toBeApiError(404, 'Invalid shared artifact ID.');
    expect(
      await t.api({
        method: 'PUT',
        url: `/shared-portfolios/${sp.id}`,
        token: invitee.token,
        payload: { name: 'x', structure: [] },
      }),
    ).toBeApiError(404, 'Shared portfolio not found.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('accept (invitee only) adds the member and uses up the invitation', async () => {
    const lead = await createLead(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead);
    const id = await createInvitation(t, sp, invitee);
    const list = InvitationListResponseSchema.parse(
      (await t.api({ method: 'GET', url: '/invitations', token: invitee.token })).json(),
    );
    expect(list).toEqual([
      expect.objectContaining({
        id,
        to: person(invitee),
        from: person(lead),
        sharedPortfolio: expect.objectContaining({ id: sp.id }),
      }),
    ]);
    expect(
      InvitationSchema.parse((await t.api({ method: 'GET', url: `/invitations/${id}`, token: lead.token })).json()).id,
    ).toBe(id);

    const res = await t.api({ method: 'POST', url: `/invitations/${id}/accept`, token: invitee.token });
    expect(res).toHaveStatus(200);
    expect(SharedPortfolioSchema.parse(res.json()).members.map((m) => m.id)).toEqual([lead.user.id, invitee.user.id]);
    expect((await t.api({ method: 'GET', url: '/invitations', token: invitee.token })).json()).toEqual([]);
    expect(await t.api({ method: 'GET', url: `/invitations/${id}`, token: invitee.token })).toBeApiError(
      404,
      'Invitation not found.',
    );
    expect(await t.api({ method: 'POST', url: `/invitations/${id}/accept`, token: invitee.token })).toBeApiError(
      404,
      'Invitation not found.',
    );
    expect(
      (await t.api({ method: 'GET', url: '/shared-portfolios', token: invitee.token }))
        .json()
        .map((p: { id: number }) => p.id),
    ).toEqual([sp.id]);
    expect(await invite(lead.token, { to: invitee.user.id, sharedPortfolio: sp.id })).toBeApiError(
      400,
      `${invitee.user.username} is already a member of this shared portfolio.`,
    );
  });

  it('decline (invitee) or cancel (owner) deletes the invitation and answers it; the person may be invited again', async () => {
    const lead = await createLead(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead);
    const declined = await createInvitation(t, sp, invitee);
    const res = await t.api({ method: 'DELETE', url: `/invitations/${declined}`, token: invitee.token });
    expect(res).toHaveStatus(200);
    expect(InvitationSchema.parse(res.json())).toMatchObject({ id: declined, to: person(invitee) });
    expect(await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}`, token: invitee.token })).toBeApiError(
      404,
      'Shared portfolio not found.',
    );

    const again = (await invite(lead.token, { to: invitee.user.id, sharedPortfolio: sp.id })).json().id;
    expect(await t.api({ method: 'DELETE', url: `/invitations/${again}`, token: lead.token })).toHaveStatus(200);
    expect(await t.api({ method: 'DELETE', url: `/invitations/${again}`, token: lead.token })).toBeApiError(
      404,
      'Invitation not found.',
    );
    expect(await t.api({ method: 'DELETE', url: '/invitations/0', token: lead.token })).toBeApiError(
      400,
      'id must be a positive whole number.',
    );
  });
});
