import { existsSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { CommentSchema } from '#schemas/sharedArtifact';
import { MembersResponseSchema } from '#schemas/sharedPortfolio';
import { attachMedia, COMPLETE_RESPONSES, createArtifact, createComment, createLead, createPortfolio, createResearcher, createSharedPortfolio, createTeacher, snapshot, teamQuestion, type TestUser } from '../../test/factories.ts';
import { multipart, pdfDocument } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { securityKit, PORTFOLIO_NOT_FOUND, ARTIFACT_NOT_FOUND, SHARED_ARTIFACT_NOT_FOUND, FILE_NOT_FOUND, TEMPLATE_FIXED, RESEARCHER_READ_ONLY, ONLY_RESEARCHERS_EXPORT, ONLY_RESEARCHERS_USERS, NO_PERMISSION, OWNER_ONLY, NOT_YOURS, HAS_ACTIVITY, nested, upload, json, withCookie } from '../../test/fixtures/security.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * access: nested routes, the template portfolio, mass assignment, roles, write rights in shared
 * portfolios, edit locks, invitations: one test per item proves that our server does not have it, or
 * names exactly how far the product protects against it.
 */
const t = await buildTestApp();
const { team } = securityKit(t);

describe('#5 no IDOR on nested routes', () => {
  it('#5 no IDOR on nested routes: an artifact of someone else paired with the caller’s own portfolio is refused, changing nothing', async () => {
    const victim = await createTeacher(t);
    const attacker = await createTeacher(t);
    const theirPortfolio = await createPortfolio(t, victim);
    const theirArtifact = await createArtifact(t, theirPortfolio, { parkingLot: false });
    const theirFile = await attachMedia(t, 'artifact', theirArtifact.id);
    const myPortfolio = await createPortfolio(t, attacker);
    const myArtifact = await createArtifact(t, myPortfolio);
    const theirs = await team();
    const mine = await createSharedPortfolio(t, attacker, { questions: [teamQuestion('team1')] });
    const before = await snapshot(t);

    for (const portfolioId of [myPortfolio.id, 1]) {
      const base = `/portfolios/${portfolioId}/artifacts/${theirArtifact.id}`;
      expect(await t.api({ method: 'PUT', url: `${base}/responses`, token: attacker.token, payload: { responses: { artifactName: 'Mine now' } } })).toBeApiError(404, ARTIFACT_NOT_FOUND);
      expect(await upload(t, attacker.token, `${base}/documents`, multipart('file', 'x.pdf', pdfDocument()))).toBeApiError(404, ARTIFACT_NOT_FOUND);
      expect(await t.api({ method: 'DELETE', url: `${base}/documents/${theirFile}`, token: attacker.token })).toBeApiError(404, ARTIFACT_NOT_FOUND);
    }
    // Nor may the caller add artifacts to someone else's portfolio.
    expect(await t.api({ method: 'POST', url: `/portfolios/${theirPortfolio.id}/artifacts/responses`, token: attacker.token, payload: {} })).toBeApiError(404, PORTFOLIO_NOT_FOUND);
    // The caller’s own artifact with someone else’s file id.
    expect(await t.api({ method: 'DELETE', url: `/portfolios/${myPortfolio.id}/artifacts/${myArtifact.id}/documents/${theirFile}`, token: attacker.token })).toBeApiError(404, FILE_NOT_FOUND);

    const base = nested(mine.id, theirs.sa1.id);
    const attempts = [
      t.api({ method: 'PUT', url: `${base}/responses`, token: attacker.token, payload: { responses: { team1: 'Mine now' } } }),
      t.api({ method: 'GET', url: `${base}/gate-check?updated_at=1`, token: attacker.token }),
      t.api({ method: 'POST', url: `${base}/lock`, token: attacker.token }),
      t.api({ method: 'POST', url: `${base}/unlock`, token: attacker.token, payload: {} }),
      upload(t, attacker.token, `${base}/documents`, multipart('file', 'x.pdf', pdfDocument())),
      t.api({ method: 'DELETE', url: `${base}/documents/${theirs.file1}`, token: attacker.token }),
    ];
    for (const res of await Promise.all(attempts)) expect(res).toBeApiError(404, SHARED_ARTIFACT_NOT_FOUND);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('#6 template portfolio closed', () => {
  it('#6 template portfolio closed: everyone may read portfolio 1, nobody may change, delete or write under it', async () => {
    const people = [await createTeacher(t), await createLead(t), await createResearcher(t)];
    for (const who of people) expect(await t.api({ method: 'GET', url: '/portfolios/1', token: who.token })).toHaveStatus(200);
    // Even an artifact that somehow sat in the template (no route can put one there; it would have
    // no owner) is nobody's to write.
    const stray = await createArtifact(t, { id: 1 });
    const before = await snapshot(t);
    for (const who of people) {
      const researcher = who.user.role.type === 'researcher';
      expect(await t.api({ method: 'PUT', url: '/portfolios/1', token: who.token, payload: { name: 'Mine now' } })).toBeApiError(403, TEMPLATE_FIXED);
      expect(await t.api({ method: 'DELETE', url: '/portfolios/1', token: who.token })).toBeApiError(403, TEMPLATE_FIXED);
      expect(await t.api({ method: 'POST', url: '/portfolios/1/artifacts/responses', token: who.token, payload: {} })).toBeApiError(403, TEMPLATE_FIXED);
      const [status, message] = researcher ? [403, RESEARCHER_READ_ONLY] : [404, ARTIFACT_NOT_FOUND];
      expect(await t.api({ method: 'PUT', url: `/artifacts/${stray.id}`, token: who.token, payload: { responses: COMPLETE_RESPONSES } })).toBeApiError(status, message);
      expect(await t.api({ method: 'DELETE', url: `/artifacts/${stray.id}`, token: who.token })).toBeApiError(status, message);
      expect(await t.api({ method: 'PUT', url: `/portfolios/1/artifacts/${stray.id}/responses`, token: who.token, payload: { responses: COMPLETE_RESPONSES } })).toBeApiError(status, message);
      expect(await upload(t, who.token, `/portfolios/1/artifacts/${stray.id}/documents`, multipart('file', 'x.pdf', pdfDocument()))).toBeApiError(status, message);
    }
    expect(await snapshot(t)).toEqual(before);
    await t.db.query('DELETE FROM artifacts WHERE id = $1', [stray.id]);
  });
});

describe('#7 no mass assignment', () => {
  it('#7 no mass assignment: portfolio, owner, artifacts, members, sharedPortfolio and file ids in a body answer 400 and change nothing', async () => {
    const teacher = await createTeacher(t);
    const other = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio);
    const otherPortfolio = await createPortfolio(t, other);
    const otherArtifact = await createArtifact(t, otherPortfolio);
    const otherFile = await attachMedia(t, 'artifact', otherArtifact.id);
    const { lead, m1, sp, sa1 } = await team();
    const elsewhere = await createSharedPortfolio(t, other);
    const spBody = { name: 'Renamed', structure: [] };
    const before = await snapshot(t);

    const refused: [InjectOptions & { token: string }, RegExp][] = [
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, portfolio: otherPortfolio.id } }, /"portfolio"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, portfolio: { id: otherPortfolio.id } } }, /"portfolio"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, owner: other.user.id } }, /"owner"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, images: [otherFile] } }, /"images"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, documents: [{ id: otherFile }] } }, /"documents"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, id: otherArtifact.id } }, /id in the body does not match/],
      [{ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: COMPLETE_RESPONSES, owner: other.user.id } }, /"owner"/],
      [{ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: COMPLETE_RESPONSES, sharedPortfolio: elsewhere.id } }, /"sharedPortfolio"/],
      [{ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: COMPLETE_RESPONSES, images: [otherFile] } }, /"images"/],
      [{ method: 'PUT', url: `/shared-portfolios/${sp.id}`, token: lead.token, payload: { ...spBody, members: [other.user.id] } }, /"members"/],
      [{ method: 'PUT', url: `/shared-portfolios/${sp.id}`, token: lead.token, payload: { ...spBody, owner: other.user.id } }, /"owner"/],
      [{ method: 'POST', url: '/shared-portfolios', token: lead.token, payload: { ...spBody, members: [other.user.id] } }, /"members"/],
      [{ method: 'POST', url: '/portfolios', token: teacher.token, payload: { name: 'Grab', artifacts: [otherArtifact.id] } }, /"artifacts"/],
      [{ method: 'POST', url: '/portfolios', token: teacher.token, payload: { name: 'Grab', owner: other.user.id } }, /"owner"/],
      [{ method: 'PUT', url: `/portfolios/${portfolio.id}`, token: teacher.token, payload: { artifacts: [otherArtifact.id] } }, /"artifacts"/],
      [{ method: 'PUT', url: `/portfolios/${portfolio.id}`, token: teacher.token, payload: { name: 'Mine', owner: other.user.id } }, /"owner"/],
    ];
    for (const [request, message] of refused) expect(await t.api(request), `${request.method} ${request.url}`).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);

    // Fields old clients send are ignored, never trusted: a comment is the caller's whatever `owner` says.
    const comment = await t.api({ method: 'POST', url: '/comments', token: m1.token, payload: { text: 'Mine', sharedArtifact: sa1.id, owner: other.user.id, updated_by: other.user.id } });
    expect(comment).toHaveStatus(200);
    expect(CommentSchema.parse(comment.json()).owner.id).toBe(m1.user.id);
    const reaction = await t.api({ method: 'POST', url: '/reactions', token: m1.token, payload: { value: '⭐', sharedArtifact: sa1.id, owner: other.user.id } });
    expect(reaction).toHaveStatus(200);
    expect(reaction.json().owner.id).toBe(m1.user.id);
  });
});

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
        const body = { email: `escalate-${roleId}-${who.user.id}@school.example`, username: `Escalate ${roleId} ${who.user.id}`, roleId };
        expect(await t.api({ method: 'POST', url: '/invitations/outside', token: who.token, payload: body })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      }
      expect(await t.api({ method: 'PUT', url: `/users/${target.user.id}`, token: who.token, payload: { blocked: true } })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      expect(await t.api({ method: 'PUT', url: `/users/${who.user.id}`, token: who.token, payload: { blocked: false } })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      expect(await t.api({ method: 'GET', url: '/users', token: who.token })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
    }
    expect(await t.api({ method: 'POST', url: '/shared-portfolios', token: teacher.token, payload: { name: 'Mine', structure: [] } })).toBeApiError(403, NO_PERMISSION);
    // A member who does not own the shared portfolio cannot invite.
    expect(await t.api({ method: 'POST', url: '/invitations', token: m1.token, payload: { to: teacher.user.id, sharedPortfolio: sp.id } })).toBeApiError(403, OWNER_ONLY);
    // Even a researcher changes nothing but `blocked`, and never on the own account.
    for (const payload of [{ blocked: false, role: 4 }, { blocked: false, password: 'taken over 1' }, { blocked: false, email: 'mine@school.example' }, { roleId: 4 }, { confirmed: false, blocked: false }]) {
      expect(await t.api({ method: 'PUT', url: `/users/${target.user.id}`, token: researcher.token, payload })).toBeApiError(400);
    }
    expect(await t.api({ method: 'PUT', url: `/users/${researcher.user.id}`, token: researcher.token, payload: { blocked: true } })).toBeApiError(403, 'You cannot block or unblock your own account.');
    expect(await t.api({ method: 'POST', url: '/invitations/outside', token: researcher.token, payload: { email: 'role2@school.example', username: 'Role Two', roleId: 2 } })).toBeApiError(400);
    expect(await snapshot(t)).toEqual(before);

    // The same calls by the right role work.
    expect(await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token })).toHaveStatus(200);
    expect(await t.api({ method: 'GET', url: '/shared-portfolios/export', token: researcher.token })).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: '/shared-portfolios', token: lead.token, payload: { name: 'Theirs', structure: [] } })).toHaveStatus(200);
  });
});

describe('#16 write rights inside shared portfolios', () => {
  it('#16 write rights inside shared portfolios are bounded: only members and researchers write, an edit lock is exclusive, stale saves and discussed deletes are refused, others’ comments are untouchable, an unlink never deletes the author’s own file', async () => {
    const { lead, m1, m2, invitee, former, sp, sa1, file1 } = await team();
    const researcher = await createResearcher(t);
    const outsider = await createTeacher(t);
    const otherLead = await createLead(t);
    await createSharedPortfolio(t, otherLead, { members: [outsider] });
    const writes = (who: TestUser) => [
      t.api({ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: who.token, payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Overwritten' } } }),
      t.api({ method: 'PUT', url: `${nested(sp.id, sa1.id)}/responses`, token: who.token, payload: { responses: { team1: 'Overwritten' } } }),
      upload(t, who.token, `${nested(sp.id, sa1.id)}/documents`, multipart('file', 'x.pdf', pdfDocument())),
      t.api({ method: 'DELETE', url: `${nested(sp.id, sa1.id)}/documents/${file1}`, token: who.token }),
      t.api({ method: 'DELETE', url: `/shared-artifacts/${sa1.id}`, token: who.token }),
    ];
    let before = await snapshot(t);
    for (const who of [outsider, otherLead, invitee, former]) {
      for (const res of await Promise.all(writes(who))) expect(res).toBeApiError(404, SHARED_ARTIFACT_NOT_FOUND);
      expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: who.token })).toBeApiError(404, SHARED_ARTIFACT_NOT_FOUND);
    }
    expect(await snapshot(t)).toEqual(before);

    // While its author edits, nobody else writes to the artifact (not even a researcher or the owner of the shared portfolio).
    const lock = await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: m1.token });
    expect(lock).toHaveStatus(200);
    before = await snapshot(t);
    for (const who of [m2, lead, researcher]) {
      for (const res of await Promise.all(writes(who))) expect(res).toBeApiError(423, /^This artifact is being edited by /);
    }
    expect(await snapshot(t)).toEqual(before);
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/unlock`, token: m1.token, payload: { lock: lock.json().lock } })).toHaveStatus(200);

    // A save based on an older version cannot silently overwrite a newer one.
    const saved = await t.api({ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Author' }, updated_at: sa1.updated_at } });
    expect(saved).toHaveStatus(200);
    before = await snapshot(t);
    expect(await t.api({ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m2.token, payload: { responses: COMPLETE_RESPONSES, updated_at: sa1.updated_at } })).toBeApiError(
      409,
      /^This artifact has recently been saved by someone else at /,
    );
    expect(await snapshot(t)).toEqual(before);

    // Once discussed, a shared artifact cannot be deleted by anybody; a comment belongs to its author alone.
    const commentId = await createComment(t, sa1, m1, 'My own words');
    before = await snapshot(t);
    for (const who of [m1, m2, lead, researcher]) expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa1.id}`, token: who.token })).toBeApiError(400, HAS_ACTIVITY);
    for (const who of [m2, lead, researcher]) {
      expect(await t.api({ method: 'PUT', url: `/comments/${commentId}`, token: who.token, payload: { text: 'Not what I said' } })).toBeApiError(403, NOT_YOURS);
      expect(await t.api({ method: 'DELETE', url: `/comments/${commentId}`, token: who.token })).toBeApiError(403, NOT_YOURS);
    }
    expect(await snapshot(t)).toEqual(before);

    // A member may unlink a file from a shared copy, but the author's own artifact keeps it, on disk and served.
    const portfolio = await createPortfolio(t, m1);
    const own = await createArtifact(t, portfolio, { parkingLot: false });
    const file = ArtifactMediaResponseSchema.parse(
      (await upload(t, m1.token, `/portfolios/${portfolio.id}/artifacts/${own.id}/documents`, multipart('file', 'plan.pdf', pdfDocument()))).json(),
    );
    const copy = await t.api({ method: 'POST', url: `/artifacts/${own.id}/share`, token: m1.token, payload: { sharedPortfolioId: sp.id } });
    expect(copy).toHaveStatus(200);
    expect(await t.api({ method: 'DELETE', url: `${nested(sp.id, copy.json().id)}/documents/${file.id}`, token: m2.token })).toHaveStatus(200);
    expect(existsSync(path.join(t.config.dataDir, 'uploads', file.url.split('/').pop()!))).toBe(true);
    expect((await t.api({ method: 'GET', url: `/artifacts/${own.id}`, token: m1.token })).json().documents.map((d: { id: number }) => d.id)).toEqual([file.id]);
    expect(await t.app.inject({ method: 'GET', url: `/api/v1${file.url}` })).toHaveStatus(200);

    // Researchers never write teachers' personal work.
    before = await snapshot(t);
    expect(await t.api({ method: 'PUT', url: `/artifacts/${own.id}`, token: researcher.token, payload: { responses: COMPLETE_RESPONSES } })).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${own.id}`, token: researcher.token })).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await t.api({ method: 'PUT', url: `/portfolios/${portfolio.id}`, token: researcher.token, payload: { name: 'Renamed' } })).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await upload(t, researcher.token, `/portfolios/${portfolio.id}/artifacts/${own.id}/documents`, multipart('file', 'x.pdf', pdfDocument()))).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await t.api({ method: 'DELETE', url: `/portfolios/${portfolio.id}/artifacts/${own.id}/documents/${file.id}`, token: researcher.token })).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('#23 an edit lock for good', () => {
  it('#23 nobody keeps a colleague out for good: renewals and re-locks count as one hold of at most an hour, then its holder waits a quarter of an hour while others may lock', async () => {
    const { m1, m2, sp, sa1 } = await team();
    const lockAs = (who: TestUser) => t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: who.token });
    const first = await lockAs(m1);
    expect(first).toHaveStatus(200);
    // 50 minutes of renewals later (simulated), a renewal ends at the hour, not 15 minutes on.
    await t.db.query("UPDATE shared_artifacts SET lock_started_at = lock_started_at - interval '50 minutes' WHERE id = $1", [sa1.id]);
    const renewed = await lockAs(m1);
    expect(renewed).toHaveStatus(200);
    const minutesLeft = (Date.parse(renewed.json().lockedUntil) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(9.5);
    expect(minutesLeft).toBeLessThanOrEqual(10);
    expect(await lockAs(m2)).toBeApiError(423, /^This artifact is being edited by /);
    // Releasing and locking again does not start a new hour.
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/unlock`, token: m1.token, payload: { lock: renewed.json().lock } })).toHaveStatus(200);
    await t.db.query("UPDATE shared_artifacts SET lock_started_at = lock_started_at - interval '10 minutes' WHERE id = $1", [sa1.id]);
    expect(await lockAs(m1)).toBeApiError(423, /^You have kept this artifact locked for an hour, so others may edit it now\. You can lock it again after /);
    // A colleague may lock it now; after that hold the first holder may lock again.
    const colleague = await lockAs(m2);
    expect(colleague).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/unlock`, token: m2.token, payload: { lock: colleague.json().lock } })).toHaveStatus(200);
    expect(await lockAs(m1)).toHaveStatus(200);
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

    const byId = await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { to: outsider.user.id, sharedPortfolio: sp.id } });
    expect(byId).toHaveStatus(200);
    const invitation = json(byId.json());
    expect(json(invitation['to'])['email']).toBe(masked);
    expect(JSON.stringify(invitation)).not.toContain(outsider.user.email);
    expect(JSON.stringify((await t.api({ method: 'GET', url: `/invitations/${String(invitation['id'])}`, token: lead.token })).json())).not.toContain(outsider.user.email);
    const again = await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { to: outsider.user.id, sharedPortfolio: sp.id } });
    expect(again).toBeApiError(400, `${outsider.user.username} has already been invited to this shared portfolio.`);

    expect(await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { email: typed.user.email, sharedPortfolio: sp.id } })).toHaveStatus(200);
    const members = MembersResponseSchema.parse((await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members`, token: lead.token })).json());
    expect(members.pending.map((p) => p.email).sort()).toEqual([masked, typed.user.email].sort());

    // The invitee sees their own invitation in full, and a researcher (who manages accounts) too.
    const own = (await t.api({ method: 'GET', url: '/invitations', token: outsider.token })).json() as { to: { email: string } }[];
    expect(own.map((i) => i.to.email)).toEqual([outsider.user.email]);
    const asResearcher = json((await t.api({ method: 'GET', url: `/invitations/${String(invitation['id'])}`, token: researcher.token })).json());
    expect(json(asResearcher['to'])['email']).toBe(outsider.user.email);
  });
});
