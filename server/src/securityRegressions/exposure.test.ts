import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { CommentSchema } from '#schemas/sharedArtifact';
import { MembersResponseSchema, SharedArtifactSchema } from '#schemas/sharedPortfolio';
import {
  COMPLETE_RESPONSES,
  createArtifact,
  createComment,
  createPortfolio,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  createUser,
} from '../../test/factories.ts';
import { multipart, pdfDocument } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import {
  securityKit,
  INVALID_TOKEN,
  SHARED_NOT_FOUND,
  ONLY_RESEARCHERS_USERS,
  OWNER_ONLY,
  auth,
  nested,
  upload,
  storedSecrets,
  expectNoPrivateData,
  keySets,
  PERSON_KEYS,
  parseCsv,
} from '../../test/fixtures/security.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * exposure: private fields, unsanitised answers, enumeration, the user directory, CSV formulas, HTML
 * in e-mails, harmless-looking tokens and cells: one test per item proves that our server does not
 * have it, or names exactly how far the product protects against it.
 */
const t = await buildTestApp();
const { login, team } = securityKit(t);

describe('#9 no private fields in any answer', () => {
  it('#9 no private fields in any answer: no password hash, reset or confirmation token, session epoch or someone else’s lock in any body', async () => {
    const { lead, m1, m2, invitee, sp, sa1, sa2 } = await team();
    const researcher = await createResearcher(t);
    const portfolio = await createPortfolio(t, m1);
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    await createComment(t, sa1, m2, 'Nice one');
    await createReaction(t, sa1, lead);
    // A co-member asked for a reset link and holds an edit lock.
    expect(await auth(t, 'forgot-password', { email: m2.user.email })).toHaveStatus(200);
    const held = await t.api({ method: 'POST', url: `${nested(sp.id, sa2.id)}/lock`, token: m2.token });
    expect(held).toHaveStatus(200);
    const secrets = await storedSecrets(t);
    expect(secrets).toContain(held.json().lock);
    expect(secrets.length).toBeGreaterThan(5);
    const invitationId = (
      await t.db.query<{ id: number }>('SELECT id FROM invitations WHERE to_user_id = $1', [invitee.user.id])
    ).rows[0]!.id;

    const get = (token: string, url: string) => t.api({ method: 'GET', url, token });
    const answers: LightMyRequestResponse[] = [
      await get(m1.token, '/users/me'),
      await t.api({ method: 'POST', url: '/token/refresh', token: m1.token }),
      await get(researcher.token, '/users'),
      await get(m1.token, '/portfolios'),
      await get(researcher.token, '/portfolios'),
      await get(m1.token, `/portfolios/${portfolio.id}`),
      await get(m1.token, '/artifacts'),
      await get(researcher.token, `/artifacts/${artifact.id}`),
      await get(m1.token, '/shared-portfolios'),
      await get(researcher.token, '/shared-portfolios'),
      await get(m1.token, `/shared-portfolios/${sp.id}`),
      await get(
        lead.token,
        `/shared-portfolios/${sp.id}/members?search=${encodeURIComponent(m1.user.email.slice(0, 6))}`,
      ),
      await get(m1.token, '/shared-artifacts'),
      await get(m1.token, `/shared-artifacts/${sa2.id}`),
      await get(m1.token, `${nested(sp.id, sa2.id)}/gate-check?updated_at=1`),
      await get(m1.token, '/comments'),
      await get(m1.token, '/reactions'),
      await get(invitee.token, '/invitations'),
      await get(lead.token, `/invitations/${invitationId}`),
      await login(m1.user.email, m1.password),
      await t.api({
        method: 'PUT',
        url: `/shared-artifacts/${sa1.id}`,
        token: m1.token,
        payload: { responses: COMPLETE_RESPONSES, updated_at: sa1.updated_at },
      }),
      await t.api({
        method: 'POST',
        url: `/artifacts/${artifact.id}/share`,
        token: m1.token,
        payload: { sharedPortfolioId: sp.id },
      }),
    ];
    for (const res of answers) expectNoPrivateData(res, secrets);
    // The lock holder alone gets the lock's code (to release it), and never who else might hold one.
    expectNoPrivateData(held, secrets, held.json().lock);
  });
});

describe('§12.4 answers that bypassed sanitising', () => {
  it('§12.4 the login bundle, comment answers, upload and file-delete answers and the lock answer carry only public fields', async () => {
    const { lead, m1, m2, sp, sa1 } = await team();
    const portfolio = await createPortfolio(t, m1);
    const artifact = await createArtifact(t, portfolio);
    await createComment(t, sa1, m2, 'First!');
    expect(await auth(t, 'forgot-password', { email: m2.user.email })).toHaveStatus(200);
    expect(await auth(t, 'forgot-password', { email: lead.user.email })).toHaveStatus(200);
    const secretsNow = () => storedSecrets(t);

    // POST /auth/local: portfolios (owner), sharedPortfolios (members, owner), sharedArtifacts (owner).
    const bundle = await login(m1.user.email, m1.password);
    expectNoPrivateData(bundle, await secretsNow());
    const user = bundle.json().user as Record<string, Record<string, unknown>[]>;
    expect(user['portfolios']!.length).toBeGreaterThan(0);
    expect(keySets(user['portfolios']!.map((p) => p['owner']))).toEqual(user['portfolios']!.map(() => PERSON_KEYS));
    const shared = user['sharedPortfolios']!.find((p) => p['id'] === sp.id)!;
    expect(keySets([shared['owner'], ...(shared['members'] as unknown[])])).toEqual(Array(4).fill(PERSON_KEYS));
    expect(keySets(user['sharedArtifacts']!.map((a) => a['owner']))).toEqual(
      user['sharedArtifacts']!.map(() => PERSON_KEYS),
    );

    // POST / PUT / DELETE /comments: sharedArtifactComments[*] are comments, their owner a person (id, username, e-mail only).
    const created = await t.api({
      method: 'POST',
      url: '/comments',
      token: m1.token,
      payload: { text: 'Second', sharedArtifact: sa1.id },
    });
    const edited = await t.api({
      method: 'PUT',
      url: `/comments/${created.json().id}`,
      token: m1.token,
      payload: { text: 'Second, edited' },
    });
    const deleted = await t.api({ method: 'DELETE', url: `/comments/${created.json().id}`, token: m1.token });
    const commentKeys = Object.keys(CommentSchema.shape).sort();
    for (const res of [created, edited, deleted]) {
      expectNoPrivateData(res, await secretsNow());
      const list = res.json().sharedArtifactComments as Record<string, unknown>[];
      expect(list.length).toBeGreaterThan(0);
      expect(keySets(list)).toEqual(list.map(() => commentKeys));
      expect(keySets(list.map((c) => c['owner']))).toEqual(list.map(() => PERSON_KEYS));
    }

    // POST …/lock: the artifact, the caller's own code and its end; never who holds it or anyone's secrets.
    const lock = await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: m1.token });
    expectNoPrivateData(lock, await secretsNow(), lock.json().lock);
    // The lock answer is the mobile app's shape: the shared artifact without the web's optional `abilities`.
    const sharedArtifactKeys = Object.keys(SharedArtifactSchema.shape).filter((key) => key !== 'abilities');
    expect(Object.keys(lock.json()).sort()).toEqual([...sharedArtifactKeys, 'lock', 'lockedUntil'].sort());
    expect(Object.keys(lock.json().owner).sort()).toEqual(PERSON_KEYS);

    // Upload and file-delete answers: parentArtifact / parentSharedArtifact, even while the uploader holds the lock.
    const sharedUpload = await upload(
      t,
      m1.token,
      `${nested(sp.id, sa1.id)}/documents`,
      multipart('file', 'plan.pdf', pdfDocument()),
    );
    const personalUpload = await upload(
      t,
      m1.token,
      `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`,
      multipart('file', 'plan.pdf', pdfDocument()),
    );
    const sharedRemove = await t.api({
      method: 'DELETE',
      url: `${nested(sp.id, sa1.id)}/documents/${sharedUpload.json().id}`,
      token: m1.token,
    });
    const personalRemove = await t.api({
      method: 'DELETE',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents/${personalUpload.json().id}`,
      token: m1.token,
    });
    for (const res of [sharedUpload, personalUpload, sharedRemove, personalRemove])
      expectNoPrivateData(res, await secretsNow());
    for (const res of [sharedUpload, sharedRemove]) {
      expect(Object.keys(res.json().parentSharedArtifact).sort()).toEqual([...sharedArtifactKeys].sort());
      expect(Object.keys(res.json().parentSharedArtifact.owner).sort()).toEqual(PERSON_KEYS);
    }
    for (const res of [personalUpload, personalRemove]) {
      expect(Object.keys(ArtifactMediaResponseSchema.parse(res.json()).parentArtifact.owner).sort()).toEqual(
        PERSON_KEYS,
      );
    }
  });
});

describe('#10 no user enumeration or directory exposure', () => {
  it('#10 no user enumeration or directory exposure: the same answers for known and unknown people; people to invite only by a search, at most 20', async () => {
    const teacher = await createTeacher(t);
    const blocked = await createUser(t, { blocked: true });
    const sentBefore = t.mail.sent.length;
    const answers = [teacher.user.email, `nobody-${Date.now().toString(36)}@school.example`, blocked.user.email].map(
      (email) => auth(t, 'forgot-password', { email }),
    );
    const [known, unknown, blockedAnswer] = await Promise.all(answers);
    expect(known).toHaveStatus(200);
    expect(unknown!.body).toBe(known!.body);
    expect(blockedAnswer!.body).toBe(known!.body);
    expect(unknown!.statusCode).toBe(known!.statusCode);
    await t.mail.settled();
    expect(t.mail.sent.slice(sentBefore).map((m) => m.to)).toEqual([teacher.user.email]);

    const wrongPassword = await login(teacher.user.email, 'not the password');
    const noSuchUser = await login(`ghost-${Date.now().toString(36)}@school.example`, 'not the password');
    expect(wrongPassword.body).toBe(noSuchUser.body);
    // Only researchers may learn that an address is taken.
    expect(
      await t.api({
        method: 'POST',
        url: '/invitations/outside',
        token: teacher.token,
        payload: { email: blocked.user.email, username: 'Someone', roleId: 1 },
      }),
    ).toBeApiError(403, ONLY_RESEARCHERS_USERS);

    const { lead, m1, sp } = await team();
    const tag = `zx${Date.now().toString(36)}`;
    for (let i = 0; i < 25; i += 1) await createUser(t, { email: `${tag}-${i}@school.example` });
    const list = (query: string, token = lead.token) =>
      t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members${query}`, token });
    expect(MembersResponseSchema.parse((await list('')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list('?search=z')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list('?search=%40')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list(`?search=${tag}`)).json()).nonMembers).toHaveLength(20);
    expect(await list(`?search=${tag}`, m1.token)).toBeApiError(403, OWNER_ONLY);
    expect(await list(`?search=${tag}`, teacher.token)).toBeApiError(404, SHARED_NOT_FOUND);
    // Members' addresses are not shown to outsiders.
    expect(await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}`, token: teacher.token })).toBeApiError(
      404,
      SHARED_NOT_FOUND,
    );
  });
});

describe('#12 no CSV formula injection', () => {
  it('#12 no CSV formula injection: names, usernames and e-mails starting with = + - @ are neutralised in both exports', async () => {
    const tag = Date.now().toString(36);
    const researcher = await createResearcher(t);
    const teacher = await createUser(t, {
      username: `=HYPERLINK("http://evil.example","${tag}")`,
      email: `-teacher-${tag}@school.example`,
    });
    await createPortfolio(t, teacher, { name: `+SUM(1,1)${tag}` });
    const lead = await createUser(t, { roleId: 3, username: `@lead ${tag}`, email: `=lead-${tag}@school.example` });
    await createPortfolio(t, lead, { name: `-lead notes ${tag}` });
    const sp = await createSharedPortfolio(t, lead, { name: `@SUM(A1)${tag}`, members: [teacher] });
    const sa = await createSharedArtifact(t, sp, teacher);
    await createComment(t, sa, teacher);

    const teacherCsv = await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token });
    const sharedCsv = await t.api({ method: 'GET', url: '/shared-portfolios/export', token: researcher.token });
    expect(teacherCsv).toHaveStatus(200);
    expect(sharedCsv).toHaveStatus(200);
    const teacherRows = parseCsv(teacherCsv.body);
    const sharedRows = parseCsv(sharedCsv.body);
    expect(teacherRows.find((r) => r[1] === `'+SUM(1,1)${tag}`)?.[0]).toBe(
      `'=HYPERLINK("http://evil.example","${tag}")`,
    );
    expect(teacherRows.find((r) => r[0] === `'@lead ${tag}`)?.[1]).toBe(`'-lead notes ${tag}`);
    const row = sharedRows.find((r) => r[0] === `'@SUM(A1)${tag}`);
    expect(row?.slice(1, 3)).toEqual([`'=lead-${tag}@school.example`, `'-teacher-${tag}@school.example`]);
    expect(row?.[11]).toBe(`'-teacher-${tag}@school.example`);
    // No cell of either file starts a formula.
    for (const cell of [...teacherRows, ...sharedRows].flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe('#13 no HTML injection in e-mails', () => {
  it('#13 no HTML injection in e-mails: shared portfolio names, inviters and usernames are escaped in the HTML of every message', async () => {
    const tag = Date.now().toString(36);
    const lead = await createUser(t, { roleId: 3, username: `<img src=x onerror=alert(1)>Lead ${tag}` });
    const teacher = await createUser(t, { username: `<b>Bold ${tag}</b>` });
    const name = `<script>alert("${tag}")</script> & Co`;
    const sp = await createSharedPortfolio(t, lead, { name });
    const newcomer = `newcomer.${tag}@school.example`;
    expect(
      await t.api({
        method: 'POST',
        url: '/invitations',
        token: lead.token,
        payload: { to: teacher.user.id, sharedPortfolio: sp.id },
      }),
    ).toHaveStatus(200);
    expect(
      await t.api({
        method: 'POST',
        url: '/invitations',
        token: lead.token,
        payload: { email: newcomer, sharedPortfolio: sp.id },
      }),
    ).toHaveStatus(200);
    expect(await auth(t, 'forgot-password', { email: teacher.user.email })).toHaveStatus(200);
    const reset = t.mail.lastTo(teacher.user.email)!;
    const welcome = t.mail.lastTo(newcomer)!;
    expect(reset.subject).toBe('Reset your PracticeFolio password');
    expect(welcome.subject).toBe('You are invited to PracticeFolio');
    const invitationMail = t.mail.sent.find(
      (m) => m.to === teacher.user.email && m.subject === 'Invitation to join a shared portfolio',
    )!;
    expect(invitationMail).toBeDefined();
    for (const mail of [invitationMail, welcome, reset]) {
      expect(mail.html).not.toMatch(/<script|<img|<b>/);
    }
    for (const mail of [invitationMail, welcome]) {
      expect(mail.html).toContain(`&lt;script&gt;alert(&quot;${tag}&quot;)&lt;/script&gt; &amp; Co`);
      expect(mail.html).toContain(`&lt;img src=x onerror=alert(1)&gt;Lead ${tag}`);
    }
    expect(invitationMail.html).toContain(`&lt;b&gt;Bold ${tag}&lt;/b&gt;`);
    expect(reset.html).toContain(`&lt;b&gt;Bold ${tag}&lt;/b&gt;`);
  });
});

describe('#22 tokens and cells that looked harmless', () => {
  it('#22 a correctly signed token without an expiry is no session; a full-width ＝ or a leading space cannot smuggle a formula into a CSV cell', async () => {
    const teacher = await createTeacher(t);
    const key = new TextEncoder().encode(t.config.jwtSecret);
    const claims = { id: teacher.user.id, ep: 0 };
    const { rows } = await t.db.query<{ session_epoch: number }>('SELECT session_epoch FROM users WHERE id = $1', [
      teacher.user.id,
    ]);
    claims.ep = rows[0]!.session_epoch;
    const forever = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().sign(key);
    expect(await t.api({ method: 'GET', url: '/users/me', token: forever })).toBeApiError(401, INVALID_TOKEN);
    const dated = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect(await t.api({ method: 'GET', url: '/users/me', token: dated })).toHaveStatus(200);

    const researcher = await createResearcher(t);
    const sly = await createTeacher(t);
    await t.db.query('UPDATE users SET username = $2 WHERE id = $1', [
      sly.user.id,
      '\uFF1DHYPERLINK("http://evil.example","x")',
    ]);
    await createPortfolio(t, sly, { name: ' =1+1' });
    const csv = await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token });
    expect(csv).toHaveStatus(200);
    const cells = parseCsv(csv.body).flat();
    expect(cells).toContain('\'\uFF1DHYPERLINK("http://evil.example","x")');
    expect(cells).toContain("' =1+1");
    expect(cells.filter((c) => /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/.test(c))).toEqual([]);
  });
});

describe('#24 the user directory', () => {
  it('#24 a PLC lead cannot collect the user directory: searches need 3 characters, match only the start of an address or a name, show others’ addresses masked, and are limited per person', async () => {
    const { lead, sp } = await team();
    const tag = `dq${Date.now().toString(36)}`;
    const target = await createUser(t, { email: `${tag}.person@school.example`, username: `Dana ${tag}` });
    const list = (search: string) =>
      t.api({
        method: 'GET',
        url: `/shared-portfolios/${sp.id}/members?search=${encodeURIComponent(search)}`,
        token: lead.token,
      });
    expect(MembersResponseSchema.parse((await list('dq')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list(tag.slice(2))).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list('@school')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list(tag)).json()).nonMembers).toEqual([
      { id: target.user.id, username: `Dana ${tag}`, email: 'dq…@school.example' },
    ]);
    expect(MembersResponseSchema.parse((await list(target.user.email.toUpperCase())).json()).nonMembers).toEqual([
      { id: target.user.id, username: `Dana ${tag}`, email: target.user.email },
    ]);
    // 60 searches in ten minutes, then a pause (short texts are not searches and not counted).
    for (let i = 4; i < 60; i += 1) expect(await list(`${tag}${i}`)).toHaveStatus(200);
    expect(await list('ab')).toHaveStatus(200);
    expect(await list(`${tag}x`)).toBeApiError(429, 'Too many searches. Please wait a few minutes and try again.');
    const researcher = await createResearcher(t);
    expect(
      await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members?search=${tag}`, token: researcher.token }),
    ).toHaveStatus(200);
  });
});
