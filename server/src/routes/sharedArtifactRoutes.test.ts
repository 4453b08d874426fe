import { describe, expect, it } from 'vitest';
import {
  GateCheckResponseSchema,
  SharedArtifactDetailSchema,
  SharedArtifactMediaResponseSchema,
} from '#schemas/sharedArtifact';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import { csvDate } from '../export/csv.ts';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  createArtifact,
  createComment,
  createInvitation,
  createLead,
  createPortfolio,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  removeMember,
  snapshot,
  teamQuestion,
  type TestUser,
} from '../../test/factories.ts';
import { multipart, pdfDocument, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const NOT_FOUND = 'Shared artifact not found.';
const INVALID_UPDATED_AT = 'Invalid updated_at parameter.';
const savedBySomeoneElse = (at: string) => `This artifact has recently been saved by someone else at ${csvDate(at)}.`;
const NOT_SEEN =
  'This artifact may have changed since you opened it. Open it again to see the latest version, then save your changes.';

const put = (token: string, id: number, payload: unknown) =>
  t.api({ method: 'PUT', url: `/shared-artifacts/${id}`, token, payload: payload as object });
const read = async (token: string, id: number) =>
  SharedArtifactDetailSchema.parse((await t.api({ method: 'GET', url: `/shared-artifacts/${id}`, token })).json());
/** A gate check with a long-gone version: the stored version counts as acknowledged (the app's "continue anyway"). */
const acknowledge = (who: TestUser, spId: number, id: number) => gate(who.token, spId, id, '?updated_at=0');
const gate = (token: string, spId: number, id: number, query: string) =>
  t.api({ method: 'GET', url: `/shared-portfolios/${spId}/shared-artifacts/${id}/gate-check${query}`, token });
const nested = (spId: number, id: number) => `/shared-portfolios/${spId}/shared-artifacts/${id}`;

/** A shared portfolio of a PLC lead with one team question, a member and one artifact of that member. */
async function team(colleagues: Awaited<ReturnType<typeof createTeacher>>[] = []) {
  const lead = await createLead(t);
  const member = await createTeacher(t);
  const sp = await createSharedPortfolio(t, lead, {
    members: [member, ...colleagues],
    questions: [teamQuestion('team1'), { key: 'unitDay', text: '', type: 'number' }],
  });
  const sa = await createSharedArtifact(t, sp, member, { responses: { ...COMPLETE_RESPONSES, team1: 'First answer' } });
  return { lead, member, sp, sa };
}

describe('GET /shared-artifacts/{id}', () => {
  it('answers with its comments (with usernames) and reactions as a list', async () => {
    const { lead, member, sa } = await team();
    const c = await createComment(t, sa, lead, 'Lovely ramp.');
    const r = await createReaction(t, sa, member, '🔖');
    const detail = await read(member.token, sa.id);
    expect(detail).toMatchObject({
      id: sa.id,
      responses: { ...COMPLETE_RESPONSES, team1: 'First answer' },
      commentCount: 1,
      commentTexts: ['Lovely ramp.'],
    });
    expect(detail.comments).toEqual([
      expect.objectContaining({
        id: c,
        text: 'Lovely ramp.',
        owner: { id: lead.user.id, username: lead.user.username, email: lead.user.email },
        username: lead.user.username,
        sharedArtifact: expect.objectContaining({ id: sa.id, sharedPortfolio: sa.sharedPortfolio.id }),
      }),
    ]);
    expect(detail.reactions).toEqual([r]);
  });
});

describe('copying a personal artifact (POST /artifacts/{id}/share)', () => {
  it('makes a snapshot: the target’s questions and the answers they can show, the same files and captions, the portfolio’s grades, subject and topic; the copier owns it', async () => {
    const { lead, member: teacher, sp } = await team();
    const portfolio = await createPortfolio(t, teacher, {
      grades: ['4th', '5th'],
      subject: 'Science',
      topic: 'Forces',
    });
    const artifact = await createArtifact(t, portfolio, {
      parkingLot: false,
      responses: { ...COMPLETE_RESPONSES, nextSteps: 'Try ice.', unitDay: 3 },
    });
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;
    const image = (
      await t.api({
        method: 'POST',
        url: `${base}/images`,
        token: teacher.token,
        ...multipart('file', 'a.png', await pngImage(40, 40)),
      })
    ).json();
    const doc = (
      await t.api({
        method: 'POST',
        url: `${base}/documents`,
        token: teacher.token,
        ...multipart('file', 'b.pdf', pdfDocument()),
      })
    ).json();

    const res = await t.api({
      method: 'POST',
      url: `/artifacts/${artifact.id}/share`,
      token: teacher.token,
      payload: { sharedPortfolioId: sp.id },
    });
    expect(res).toHaveStatus(200);
    const copy = SharedArtifactSchema.parse(res.json());
    expect(copy).toMatchObject({
      sharedPortfolio: { id: sp.id },
      owner: { id: teacher.user.id },
      ownerUsername: teacher.user.username,
      structure: sp.structure,
      responses: { ...COMPLETE_RESPONSES, unitDay: 3 },
      portfolioGrades: ['4th', '5th'],
      portfolioSubject: 'Science',
      portfolioTopic: 'Forces',
      nextCaption: 'C',
      commentCount: 0,
      reactions: { '🔖': false, '⭐': false, '🌉': false, '❓': false },
    });
    expect(copy.images.map((m) => [m.id, m.caption, m.url])).toEqual([[image.id, 'A', image.url]]);
    expect(copy.documents.map((m) => [m.id, m.caption])).toEqual([[doc.id, 'B']]);

    // A snapshot: later edits of the personal artifact stay there.
    await t.api({
      method: 'PUT',
      url: `/artifacts/${artifact.id}`,
      token: teacher.token,
      payload: { responses: { ...COMPLETE_RESPONSES, artifactName: 'Changed' } },
    });
    expect((await read(lead.token, copy.id)).responses.artifactName).toBe(COMPLETE_RESPONSES.artifactName);
    // An upload to the copy continues its letters.
    const upload = await t.api({
      method: 'POST',
      url: `${nested(sp.id, copy.id)}/documents`,
      token: lead.token,
      ...multipart('file', 'c.pdf', pdfDocument()),
    });
    expect(SharedArtifactMediaResponseSchema.parse(upload.json()).caption).toBe('C');
  });

  it('copies only completed artifacts, only into shared portfolios the caller belongs to (others are unknown, unless invited), and changes nothing otherwise', async () => {
    const { member: teacher, sp } = await team();
    const portfolio = await createPortfolio(t, teacher);
    const parked = await createArtifact(t, portfolio);
    const done = await createArtifact(t, portfolio, { parkingLot: false });
    const foreign = await createSharedPortfolio(t, await createLead(t));
    const invitedTo = await createSharedPortfolio(t, await createLead(t), { invitees: [teacher] });
    const researcher = await createResearcher(t);
    const before = await snapshot(t);
    const share = (who: TestUser, id: number, payload: unknown) =>
      t.api({ method: 'POST', url: `/artifacts/${id}/share`, token: who.token, payload: payload as object });
    expect(await share(teacher, parked.id, { sharedPortfolioId: sp.id })).toBeApiError(
      400,
      'Only completed artifacts can be copied. Submit the artifact to its portfolio first.',
    );
    expect(await share(teacher, done.id, { sharedPortfolioId: foreign.id })).toBeApiError(
      404,
      'Invalid shared portfolio ID.',
    );
    expect(await share(teacher, done.id, { sharedPortfolioId: invitedTo.id })).toBeApiError(
      403,
      'You are not a member of this shared portfolio.',
    );
    expect(await share(teacher, done.id, { sharedPortfolioId: 2_000_000_000 })).toBeApiError(
      404,
      'Invalid shared portfolio ID.',
    );
    expect(await share(researcher, done.id, { sharedPortfolioId: sp.id })).toBeApiError(
      403,
      'Researchers can read teacher portfolios but not change them.',
    );
    expect(await share(teacher, done.id, {})).toBeApiError(400, 'sharedPortfolioId must be a shared portfolio id.');
    expect(await share(teacher, done.id, { sharedPortfolioId: 'abc' })).toBeApiError(
      400,
      'sharedPortfolioId must be a shared portfolio id.',
    );
    expect(await share(teacher, done.id, { sharedPortfolioId: -4 })).toBeApiError(
      400,
      'sharedPortfolioId must be greater than 0.',
    );
    expect(await share(teacher, done.id, { sharedPortfolioId: sp.id, owner: 1 })).toBeApiError(
      400,
      'Unknown field "owner"; it is not accepted.',
    );
    expect(await snapshot(t)).toEqual(before);
    expect(await share(teacher, done.id, { sharedPortfolioId: String(sp.id) })).toHaveStatus(200);
  });
});

describe('copying a shared artifact (POST /shared-artifacts/{id}/share)', () => {
  it('copies into another shared portfolio: the copier owns the copy, with the target’s questions, no comments, no lock', async () => {
    const { lead, member, sp, sa } = await team();
    const target = await createSharedPortfolio(t, await createLead(t), {
      members: [lead],
      questions: [teamQuestion('other')],
    });
    await attachMedia(t, 'sharedArtifact', sa.id, 'image');
    await createComment(t, sa, member);
    await createReaction(t, sa, member);
    await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: member.token });
    const res = await t.api({
      method: 'POST',
      url: `/shared-artifacts/${sa.id}/share`,
      token: lead.token,
      payload: { sharedPortfolioId: target.id },
    });
    expect(res).toHaveStatus(200);
    const copy = SharedArtifactSchema.parse(res.json());
    expect(copy).toMatchObject({
      owner: { id: lead.user.id },
      sharedPortfolio: { id: target.id },
      structure: target.structure,
      responses: COMPLETE_RESPONSES,
      commentCount: 0,
    });
    expect(copy.images.map((m) => m.caption)).toEqual(['A']);
    expect(copy.nextCaption).toBe('B');
    // Not locked: the member who holds the source's lock is not even in the target; the lead can write.
    expect(
      await put(lead.token, copy.id, { responses: { ...COMPLETE_RESPONSES, other: 'x' }, updated_at: copy.updated_at }),
    ).toHaveStatus(200);
  });

  it('lets researchers copy any shared artifact into any shared portfolio', async () => {
    const { sa } = await team();
    const target = await createSharedPortfolio(t, await createLead(t));
    const researcher = await createResearcher(t);
    const res = await t.api({
      method: 'POST',
      url: `/shared-artifacts/${sa.id}/share`,
      token: researcher.token,
      payload: { sharedPortfolioId: target.id },
    });
    expect(res).toHaveStatus(200);
    expect(res.json().owner.id).toBe(researcher.user.id);
  });
});

describe('gate check', () => {
  it('answers ok for the stored version (ISO or milliseconds), conflict for an older one, error for a missing or bad value', async () => {
    const { member, sp, sa } = await team();
    const ok = GateCheckResponseSchema.parse(
      (await gate(member.token, sp.id, sa.id, `?updated_at=${encodeURIComponent(sa.updated_at)}`)).json(),
    );
    expect(ok).toEqual({ type: 'ok', message: 'Shared artifact can be safely saved.', updated_at: sa.updated_at });
    const ms = Date.parse(sa.updated_at);
    expect((await gate(member.token, sp.id, sa.id, `?updated_at=${ms}`)).json().type).toBe('ok');
    expect((await gate(member.token, sp.id, sa.id, `?updated_at=${ms + 60_000}`)).json().type).toBe('ok');
    const older = (await gate(member.token, sp.id, sa.id, `?updated_at=${ms - 1}`)).json();
    // Never saved since it was made: who saved it is not known.
    expect(older).toEqual({
      type: 'warning',
      message: savedBySomeoneElse(sa.updated_at),
      updated_at: sa.updated_at,
      saved_by: null,
    });
    expect(
      (
        await gate(member.token, sp.id, sa.id, `?updated_at=${encodeURIComponent(new Date(ms - 1000).toISOString())}`)
      ).json().type,
    ).toBe('warning');
    for (const query of [
      '',
      '?updated_at=',
      '?updated_at=yesterday',
      '?updated_at=2024-13-45',
      `?updated_at=${'9'.repeat(20)}`,
    ]) {
      const res = await gate(member.token, sp.id, sa.id, query);
      expect(res).toHaveStatus(200);
      expect(res.json()).toEqual({ type: 'error', message: INVALID_UPDATED_AT });
    }
    expect(await gate(member.token, sp.id, sa.id, `?updated_at=${'1'.repeat(65)}`)).toBeApiError(
      400,
      'updated_at must be at most 64 characters.',
    );
  });
});

describe('PUT /shared-artifacts/{id}', () => {
  it('saves with the version the editor saw; a stale version answers 409 and changes nothing', async () => {
    const { lead, member, sa } = await team();
    const first = await put(lead.token, sa.id, {
      responses: { ...COMPLETE_RESPONSES, team1: 'Lead' },
      updated_at: sa.updated_at,
      id: sa.id,
    });
    expect(first).toHaveStatus(200);
    const saved = SharedArtifactSchema.parse(first.json());
    expect(saved.responses.team1).toBe('Lead');
    expect(Date.parse(saved.updated_at)).toBeGreaterThan(Date.parse(sa.updated_at));

    const before = await snapshot(t);
    expect(
      await put(member.token, sa.id, {
        responses: { ...COMPLETE_RESPONSES, team1: 'Member' },
        updated_at: sa.updated_at,
      }),
    ).toBeApiError(409, savedBySomeoneElse(saved.updated_at));
    expect(
      await put(member.token, sa.id, { responses: COMPLETE_RESPONSES, updated_at: String(Date.parse(sa.updated_at)) }),
    ).toBeApiError(409);
    expect(await snapshot(t)).toEqual(before);

    // With the version the gate check returned (overwrite on purpose).
    const overwrite = await put(member.token, sa.id, {
      responses: { ...COMPLETE_RESPONSES, team1: 'Member' },
      updated_at: saved.updated_at,
    });
    expect(overwrite).toHaveStatus(200);
  });

  it('without updated_at (the mobile app), saves only over the version its user last read or acknowledged at a gate check', async () => {
    const { lead, member, sp, sa } = await team();
    const before = await snapshot(t);
    // Never checked: nothing is known of what the lead has seen.
    expect(await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Blind' } })).toBeApiError(
      409,
      NOT_SEEN,
    );
    expect(await snapshot(t)).toEqual(before);
    // The app's flow: gate check with the local copy's version (ok), then the save without a version.
    expect((await gate(lead.token, sp.id, sa.id, `?updated_at=${Date.parse(sa.updated_at)}`)).json().type).toBe('ok');
    const first = await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead' } });
    expect(first).toHaveStatus(200);
    // Its own save counts as seen: the lead may save again.
    const second = await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead 2' } });
    expect(second).toHaveStatus(200);
    // The member saves on the web; the lead's next blind save would overwrite unseen work: 409.
    const member1 = await put(member.token, sa.id, {
      responses: { ...COMPLETE_RESPONSES, team1: 'Member' },
      updated_at: second.json().updated_at,
    });
    expect(member1).toHaveStatus(200);
    const afterMember = await snapshot(t);
    expect(await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead 3' } })).toBeApiError(
      409,
      savedBySomeoneElse(member1.json().updated_at),
    );
    expect(await snapshot(t)).toEqual(afterMember);
    // The gate check warns; continuing (the app's "save anyway") acknowledges the member's version.
    const warned = (await gate(lead.token, sp.id, sa.id, `?updated_at=${Date.parse(second.json().updated_at)}`)).json();
    // It names who saved the newer version (the web's Edit Conflict dialog says it).
    expect(GateCheckResponseSchema.parse(warned)).toMatchObject({
      type: 'warning',
      updated_at: member1.json().updated_at,
      saved_by: { id: member.user.id, username: member.user.username },
    });
    const overwrite = await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead 3' } });
    expect(overwrite).toHaveStatus(200);
    expect(overwrite.json().responses.team1).toBe('Lead 3');
    // Another member's acknowledgement is theirs alone.
    expect(await put(member.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Member 2' } })).toBeApiError(
      409,
    );
  });

  it('of 20 simultaneous saves of one version, exactly one wins; the stored answers are the winner’s', async () => {
    const { lead, member, sa } = await team();
    const researcher = await createResearcher(t);
    const editors = [lead, member, researcher];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        put(editors[i % 3]!.token, sa.id, {
          responses: { ...COMPLETE_RESPONSES, team1: `Version ${i}` },
          updated_at: sa.updated_at,
        }),
      ),
    );
    const winners = results.flatMap((r, i) => (r.statusCode === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    const losers = results.filter((_, i) => i !== winners[0]);
    expect(losers).toHaveLength(19);
    for (const r of losers) expect(r).toBeApiError(409);
    expect((await read(lead.token, sa.id)).responses.team1).toBe(`Version ${winners[0]}`);
  });

  it('checks the answers against the artifact’s questions (core ones required) and refuses fields it does not take', async () => {
    const { lead, member, sa } = await team();
    const elsewhere = await createSharedPortfolio(t, lead);
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ responses: { team1: 'Only this' } }, 400, 'Field Artifact Name is required.'],
      [{ responses: { ...COMPLETE_RESPONSES, unitDay: 1.5 } }, 400, 'Field Day of the unit must be an integer.'],
      [{ responses: { ...COMPLETE_RESPONSES, unitDay: 250 } }, 400, 'Field Day of the unit must be between 0 and 200.'],
      [
        { responses: { ...COMPLETE_RESPONSES, nextSteps: 'not asked here' } },
        400,
        'There is no question "nextSteps" in this artifact.',
      ],
      [{ responses: COMPLETE_RESPONSES, updated_at: 'last week' }, 400, INVALID_UPDATED_AT],
      [
        { responses: COMPLETE_RESPONSES, sharedPortfolio: elsewhere.id },
        400,
        'Unknown field "sharedPortfolio"; it is not accepted.',
      ],
      [{ responses: COMPLETE_RESPONSES, owner: lead.user.id }, 400, 'Unknown field "owner"; it is not accepted.'],
      [{ responses: COMPLETE_RESPONSES, structure: [] }, 400, 'Unknown field "structure"; it is not accepted.'],
      [{ responses: COMPLETE_RESPONSES, id: sa.id + 1 }, 400, 'The id in the body does not match the address.'],
      [{}, 400, 'responses is required.'],
    ];
    for (const [payload, status, message] of cases)
      expect(await put(member.token, sa.id, payload)).toBeApiError(status, message);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('PUT /shared-portfolios/{id}/shared-artifacts/{artifactId}/responses (mobile merge)', () => {
  it('merges answers (null deletes a key) and refuses a stale version with 409', async () => {
    const { member, sp, sa } = await team();
    await acknowledge(member, sp.id, sa.id);
    const res = await t.api({
      method: 'PUT',
      url: `${nested(sp.id, sa.id)}/responses`,
      token: member.token,
      payload: { responses: { team1: null, unitDay: 5 } },
    });
    expect(res).toHaveStatus(200);
    expect(res.json().responses).toEqual({ ...COMPLETE_RESPONSES, unitDay: 5 });
    const stale = await t.api({
      method: 'PUT',
      url: `${nested(sp.id, sa.id)}/responses`,
      token: member.token,
      payload: { responses: { unitDay: 6 }, updated_at: sa.updated_at },
    });
    expect(stale).toBeApiError(409, savedBySomeoneElse(res.json().updated_at));
    const core = await t.api({
      method: 'PUT',
      url: `${nested(sp.id, sa.id)}/responses`,
      token: member.token,
      payload: { responses: { artifactName: null } },
    });
    expect(core).toBeApiError(400, 'Field Artifact Name is required.');
  });

  it('answers 404 for an artifact of another shared portfolio on every nested route (no IDOR), changing nothing', async () => {
    const mine = await team();
    const theirs = await team();
    const alsoMine = await createSharedPortfolio(t, mine.lead, { members: [mine.member] });
    const inOtherOfMine = await createSharedArtifact(t, alsoMine, mine.member);
    const fileId = await attachMedia(t, 'sharedArtifact', theirs.sa.id);
    const before = await snapshot(t);
    for (const target of [theirs.sa.id, inOtherOfMine.id]) {
      const base = nested(mine.sp.id, target);
      const calls = [
        t.api({
          method: 'PUT',
          url: `${base}/responses`,
          token: mine.member.token,
          payload: { responses: { team1: 'x' } },
        }),
        t.api({ method: 'GET', url: `${base}/gate-check?updated_at=1`, token: mine.member.token }),
        t.api({ method: 'POST', url: `${base}/lock`, token: mine.member.token }),
        t.api({ method: 'POST', url: `${base}/unlock`, token: mine.member.token, payload: {} }),
        t.api({
          method: 'POST',
          url: `${base}/documents`,
          token: mine.member.token,
          ...multipart('file', 'x.pdf', pdfDocument()),
        }),
        t.api({ method: 'DELETE', url: `${base}/documents/${fileId}`, token: mine.member.token }),
      ];
      for (const res of await Promise.all(calls)) expect(res).toBeApiError(404, NOT_FOUND);
    }
    expect(
      await t.api({
        method: 'DELETE',
        url: `${nested(mine.sp.id, mine.sa.id)}/documents/${fileId}`,
        token: mine.member.token,
      }),
    ).toBeApiError(404, 'File not found.');
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('lock and unlock', () => {
  it('gives one holder 15 minutes of exclusive writes; others get 423; it is re-entrant, keeps updated_at, and ends with its code', async () => {
    const colleague = await createTeacher(t);
    const { lead, member, sp, sa } = await team([colleague]);
    const researcher = await createResearcher(t);
    const lockRes = await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: member.token });
    expect(lockRes).toHaveStatus(200);
    const lock = lockRes.json<{ lock: string; lockedUntil: string; updated_at: string }>();
    expect(lock.updated_at).toBe(sa.updated_at);
    const minutes = (Date.parse(lock.lockedUntil) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14.9);
    expect(minutes).toBeLessThanOrEqual(15);
    const locked = `This artifact is being edited by ${member.user.username}. They have exclusive access until ${csvDate(lock.lockedUntil)}.`;

    const fileId = await attachMedia(t, 'sharedArtifact', sa.id);
    const before = await snapshot(t);
    for (const who of [lead, researcher]) {
      const refused = [
        await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: who.token }),
        await put(who.token, sa.id, { responses: COMPLETE_RESPONSES }),
        await t.api({
          method: 'PUT',
          url: `${nested(sp.id, sa.id)}/responses`,
          token: who.token,
          payload: { responses: { team1: 'x' } },
        }),
        await t.api({
          method: 'POST',
          url: `${nested(sp.id, sa.id)}/documents`,
          token: who.token,
          ...multipart('file', 'x.pdf', pdfDocument()),
        }),
        await t.api({ method: 'DELETE', url: `${nested(sp.id, sa.id)}/documents/${fileId}`, token: who.token }),
        await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: who.token }),
      ];
      for (const res of refused) expect(res).toBeApiError(423, locked);
    }
    // Another member cannot release it without its code (the owner, the lead and a researcher can: see below).
    expect(
      await t.api({
        method: 'POST',
        url: `${nested(sp.id, sa.id)}/unlock`,
        token: colleague.token,
        payload: { lock: 'guess' },
      }),
    ).toBeApiError(
      400,
      `There was a problem releasing the lock. This artifact can be edited after ${csvDate(lock.lockedUntil)}.`,
    );
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/unlock`, token: colleague.token })).toBeApiError(
      400,
    );
    expect(await snapshot(t)).toEqual(before);
    // Reading, the gate check and comments are not writes to the artifact.
    expect((await gate(lead.token, sp.id, sa.id, `?updated_at=${encodeURIComponent(sa.updated_at)}`)).json().type).toBe(
      'ok',
    );

    const again = await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: member.token });
    expect(again).toHaveStatus(200);
    expect(again.json().lock).not.toBe(lock.lock);
    await acknowledge(member, sp.id, sa.id);
    expect(await put(member.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Holder' } })).toHaveStatus(200);
    expect(
      await t.api({
        method: 'POST',
        url: `${nested(sp.id, sa.id)}/unlock`,
        token: member.token,
        payload: { lock: lock.lock },
      }),
    ).toBeApiError(400);
    const unlocked = await t.api({
      method: 'POST',
      url: `${nested(sp.id, sa.id)}/unlock`,
      token: member.token,
      payload: { lock: again.json().lock },
    });
    expect(unlocked).toHaveStatus(200);
    expect(unlocked.json()).toEqual({});
    await acknowledge(lead, sp.id, sa.id);
    expect(await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead again' } })).toHaveStatus(
      200,
    );
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/unlock`, token: lead.token })).toHaveStatus(200);
  });

  it('expires: after its time others may write and lock', async () => {
    const { lead, member, sp, sa } = await team();
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: member.token })).toHaveStatus(200);
    await t.db.query("UPDATE shared_artifacts SET locked_until = now() - interval '1 second' WHERE id = $1", [sa.id]);
    await acknowledge(lead, sp.id, sa.id);
    expect(await put(lead.token, sa.id, { responses: COMPLETE_RESPONSES })).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: lead.token })).toHaveStatus(200);
    expect(await put(member.token, sa.id, { responses: COMPLETE_RESPONSES })).toBeApiError(423);
  });
});

describe('DELETE /shared-artifacts/{id}', () => {
  it('is refused while it has comments or reactions, then answers the deleted artifact with its shared portfolio id', async () => {
    const { lead, member, sp, sa } = await team();
    const commentId = await createComment(t, sa, lead);
    const before = await snapshot(t);
    const refusal = 'You cannot delete a shared artifact with comments or reactions.';
    expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: member.token })).toBeApiError(
      400,
      refusal,
    );
    expect(await snapshot(t)).toEqual(before);
    expect(await t.api({ method: 'DELETE', url: `/comments/${commentId}`, token: lead.token })).toHaveStatus(200);
    const reaction = await createReaction(t, sa, member, '❓');
    expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: lead.token })).toBeApiError(
      400,
      refusal,
    );
    expect(await t.api({ method: 'DELETE', url: `/reactions/${reaction.id}`, token: member.token })).toHaveStatus(200);
    const res = await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: lead.token });
    expect(res).toHaveStatus(200);
    expect(SharedArtifactSchema.parse(res.json())).toMatchObject({ id: sa.id, sharedPortfolio: { id: sp.id } });
    expect(await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: lead.token })).toBeApiError(
      404,
      NOT_FOUND,
    );
  });
});

describe('uploads to shared artifacts', () => {
  it('keep the artifact’s updated_at, so nobody’s gate check trips; removing a file does not move it either', async () => {
    const { lead, member, sp, sa } = await team();
    const res = await t.api({
      method: 'POST',
      url: `${nested(sp.id, sa.id)}/images`,
      token: member.token,
      ...multipart('file', 'a.png', await pngImage(30, 30)),
    });
    const file = SharedArtifactMediaResponseSchema.parse(res.json());
    expect(file.caption).toBe('A');
    expect(file.parentSharedArtifact).toMatchObject({ id: sa.id, updated_at: sa.updated_at, nextCaption: 'B' });
    expect(file.parentSharedArtifact.images.map((m) => m.id)).toEqual([file.id]);
    expect((await gate(lead.token, sp.id, sa.id, `?updated_at=${encodeURIComponent(sa.updated_at)}`)).json().type).toBe(
      'ok',
    );
    const removed = await t.api({
      method: 'DELETE',
      url: `${nested(sp.id, sa.id)}/images/${file.id}`,
      token: lead.token,
    });
    expect(removed).toHaveStatus(200);
    expect(removed.json().parentSharedArtifact).toMatchObject({ updated_at: sa.updated_at, images: [] });
    expect(await put(lead.token, sa.id, { responses: COMPLETE_RESPONSES, updated_at: sa.updated_at })).toHaveStatus(
      200,
    );
  });

  it('serve the file and its formats to members, invitees and researchers only, each by the address signed for them', async () => {
    const { lead, member, sp, sa } = await team();
    const invitee = await createTeacher(t);
    const former = await createTeacher(t);
    const stranger = await createTeacher(t);
    await createInvitation(t, sp, invitee);
    await t.db.query('INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)', [
      sp.id,
      former.user.id,
    ]);
    await removeMember(t, sp, former);
    const res = await t.api({
      method: 'POST',
      url: `${nested(sp.id, sa.id)}/images`,
      token: member.token,
      ...multipart('file', 'a.png', await pngImage(400, 300)),
    });
    const file = SharedArtifactMediaResponseSchema.parse(res.json());
    const urls = [file.url, ...Object.values(file.formats!).map((f) => f!.url)];
    expect(urls).toHaveLength(5);
    const fetch = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}` });
    const signedFor = (who: TestUser, url: string) => t.app.services.media.signFor(who.user.id)(url);
    for (const url of urls) {
      for (const who of [lead, member, invitee, await createResearcher(t)])
        expect(await fetch(signedFor(who, url))).toHaveStatus(200);
      for (const who of [former, stranger])
        expect(await fetch(signedFor(who, url))).toBeApiError(404, 'File not found.');
    }
    // What a member reads of the artifact carries addresses signed for them.
    const read = await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: invitee.token });
    const image = read.json().images[0];
    expect(image.url).toBe(signedFor(invitee, file.url));
    expect(await fetch(image.formats.thumbnail.url)).toHaveStatus(200);
  });
});
