import { describe, expect, it } from 'vitest';
import { SharedArtifactMediaResponseSchema } from '#schemas/sharedArtifact';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  createArtifact,
  createComment,
  createLead,
  createPortfolio,
  createReaction,
  createResearcher,
  createSharedPortfolio,
  snapshot,
  teamQuestion,
  type TestUser,
} from '../../test/factories.ts';
import { multipart, pdfDocument, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { nested, sharedArtifactKit } from '../../test/fixtures/sharedArtifacts.ts';

const t = await buildTestApp();
const { put, read, team } = sharedArtifactKit(t);

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
