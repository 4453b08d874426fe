import { describe, expect, it } from 'vitest';
import { MembersResponseSchema } from '#schemas/sharedPortfolio';
import { createLead, createResearcher, createSharedPortfolio, createTeacher, snapshot } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import {
  securityKit,
  ONLY_RESEARCHERS_EXPORT,
  ONLY_RESEARCHERS_USERS,
  NO_PERMISSION,
  OWNER_ONLY,
  json,
  withCookie,
} from '../../test/fixtures/security.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * roles and invitations: one test per item proves that our server does not have it, or names
 * exactly how far the product protects against it.
 */
const t = await buildTestApp();
const { team } = securityKit(t);

describe('#8 role checks on the server', () => {
  it('#8 role checks on the server: exports, shared-portfolio creation, account creation (any roleId) and PUT /users are refused to the wrong roles', async () => {
    const teacher = await createTeacher(t);
    const lead = await createLead(t);
    const researcher = await createResearcher(t);
    const target = await createTeacher(t);
    const { m1, sp } = await team();
    const before = await snapshot(t);

    for (const who of [teacher, lead]) {
      for (const url of ['/portfolios/export', '/shared-portfolios/export']) {
        expect(await t.api({ method: 'GET', url, token: who.token })).toBeApiError(403, ONLY_RESEARCHERS_EXPORT);
        expect(await withCookie(t, { method: 'GET', url }, who.token)).toBeApiError(403, ONLY_RESEARCHERS_EXPORT);
      }
      for (const roleId of [4, 3, 1]) {
        const body = {
          email: `escalate-${roleId}-${who.user.id}@school.example`,
          username: `Escalate ${roleId} ${who.user.id}`,
          roleId,
        };
        expect(
          await t.api({ method: 'POST', url: '/invitations/outside', token: who.token, payload: body }),
        ).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      }
      expect(
        await t.api({ method: 'PUT', url: `/users/${target.user.id}`, token: who.token, payload: { blocked: true } }),
      ).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      expect(
        await t.api({ method: 'PUT', url: `/users/${who.user.id}`, token: who.token, payload: { blocked: false } }),
      ).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      expect(await t.api({ method: 'GET', url: '/users', token: who.token })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
    }
    expect(
      await t.api({
        method: 'POST',
        url: '/shared-portfolios',
        token: teacher.token,
        payload: { name: 'Mine', structure: [] },
      }),
    ).toBeApiError(403, NO_PERMISSION);
    // A member who does not own the shared portfolio cannot invite.
    expect(
      await t.api({
        method: 'POST',
        url: '/invitations',
        token: m1.token,
        payload: { to: teacher.user.id, sharedPortfolio: sp.id },
      }),
    ).toBeApiError(403, OWNER_ONLY);
    // Even a researcher changes nothing but `blocked`, and never on the own account.
    for (const payload of [
      { blocked: false, role: 4 },
      { blocked: false, password: 'taken over 1' },
      { blocked: false, email: 'mine@school.example' },
      { roleId: 4 },
      { confirmed: false, blocked: false },
    ]) {
      expect(
        await t.api({ method: 'PUT', url: `/users/${target.user.id}`, token: researcher.token, payload }),
      ).toBeApiError(400);
    }
    expect(
      await t.api({
        method: 'PUT',
        url: `/users/${researcher.user.id}`,
        token: researcher.token,
        payload: { blocked: true },
      }),
    ).toBeApiError(403, 'You cannot block or unblock your own account.');
    expect(
      await t.api({
        method: 'POST',
        url: '/invitations/outside',
        token: researcher.token,
        payload: { email: 'role2@school.example', username: 'Role Two', roleId: 2 },
      }),
    ).toBeApiError(400);
    expect(await snapshot(t)).toEqual(before);

    // The same calls by the right role work.
    expect(await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token })).toHaveStatus(200);
    expect(await t.api({ method: 'GET', url: '/shared-portfolios/export', token: researcher.token })).toHaveStatus(200);
    expect(
      await t.api({
        method: 'POST',
        url: '/shared-portfolios',
        token: lead.token,
        payload: { name: 'Theirs', structure: [] },
      }),
    ).toHaveStatus(200);
  });
});

describe('an invitation by id tells the lead no more than the search they picked from (issue 21, 16)', () => {
  it('the answer, the pending list and a refusal show a picked person’s address masked; a typed address and the invitee see it in full', async () => {
    const lead = await createLead(t);
    const outsider = await createTeacher(t);
    const typed = await createTeacher(t);
    const researcher = await createResearcher(t);
    const sp = await createSharedPortfolio(t, lead);
    const masked = `${outsider.user.email.slice(0, 2)}…${outsider.user.email.slice(outsider.user.email.lastIndexOf('@'))}`;

    const byId = await t.api({
      method: 'POST',
      url: '/invitations',
      token: lead.token,
      payload: { to: outsider.user.id, sharedPortfolio: sp.id },
    });
    expect(byId).toHaveStatus(200);
    const invitation = json(byId.json());
    expect(json(invitation['to'])['email']).toBe(masked);
    expect(JSON.stringify(invitation)).not.toContain(outsider.user.email);
    expect(
      JSON.stringify(
        (await t.api({ method: 'GET', url: `/invitations/${String(invitation['id'])}`, token: lead.token })).json(),
      ),
    ).not.toContain(outsider.user.email);
    const again = await t.api({
      method: 'POST',
      url: '/invitations',
      token: lead.token,
      payload: { to: outsider.user.id, sharedPortfolio: sp.id },
    });
    expect(again).toBeApiError(400, `${outsider.user.username} has already been invited to this shared portfolio.`);

    expect(
      await t.api({
        method: 'POST',
        url: '/invitations',
        token: lead.token,
        payload: { email: typed.user.email, sharedPortfolio: sp.id },
      }),
    ).toHaveStatus(200);
    const members = MembersResponseSchema.parse(
      (await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members`, token: lead.token })).json(),
    );
    expect(members.pending.map((p) => p.email).sort()).toEqual([masked, typed.user.email].sort());

    // The invitee sees their own invitation in full, and a researcher (who manages accounts) too.
    const own = (await t.api({ method: 'GET', url: '/invitations', token: outsider.token })).json() as {
      to: { email: string };
    }[];
    expect(own.map((i) => i.to.email)).toEqual([outsider.user.email]);
    const asResearcher = json(
      (await t.api({ method: 'GET', url: `/invitations/${String(invitation['id'])}`, token: researcher.token })).json(),
    );
    expect(json(asResearcher['to'])['email']).toBe(outsider.user.email);
  });
});
