import { describe, expect, it } from 'vitest';
import {
  SharedArtifactBriefSchema,
  SharedPortfolioSchema,
  SharedPortfolioSummarySchema,
} from '#schemas/sharedPortfolio';
import {
  attachMedia,
  createComment,
  createInvitation,
  createLead,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  removeMember,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

/**
 * `GET /shared-portfolios/{id}/summary`, the web's compact shared portfolio: its fields, its
 * structure once and each artifact in brief, allowed exactly as `GET /shared-portfolios/{id}`
 * (which keeps its full shape for the mobile apps).
 */

const t = await buildTestApp();

const NOT_FOUND = 'Shared portfolio not found.';
const BRIEF_FIELDS = Object.keys(SharedArtifactBriefSchema.shape).sort();

const get = (token: string, url: string) => t.api({ method: 'GET', url, token });

describe('GET /shared-portfolios/{id}/summary', () => {
  it('answers members, invitees and researchers with the portfolio and its artifacts in brief, as the full route lists them', async () => {
    const lead = await createLead(t);
    const member = await createTeacher(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { name: 'Fractions team', members: [member], grades: ['4th'] });
    await createInvitation(t, sp, invitee);
    const first = await createSharedArtifact(t, sp, member, {
      responses: { artifactName: 'Number lines' },
      grades: ['4th'],
    });
    const second = await createSharedArtifact(t, sp, lead, { responses: { artifactName: 'Pizza slices' } });
    await attachMedia(t, 'sharedArtifact', second.id, 'image');
    await createComment(t, first, lead, 'Lovely number lines.');
    await createComment(t, first, member, 'Thanks!');
    await createReaction(t, first, lead, '⭐');
    for (const who of [lead, member, invitee, await createResearcher(t)]) {
      const full = SharedPortfolioSchema.parse((await get(who.token, `/shared-portfolios/${sp.id}`)).json());
      const res = await get(who.token, `/shared-portfolios/${sp.id}/summary`);
      expect(res).toHaveStatus(200);
      const raw = res.json() as { sharedArtifacts: Record<string, unknown>[] };
      const body = SharedPortfolioSummarySchema.parse(raw);
      const { sharedArtifacts: _full, ...portfolio } = full;
      expect(body).toEqual({ ...portfolio, sharedArtifacts: body.sharedArtifacts });
      // Only the table's fields: no structure, files, caption letters or topic per artifact.
      for (const artifact of raw.sharedArtifacts) expect(Object.keys(artifact).sort()).toEqual(BRIEF_FIELDS);
      expect(body.sharedArtifacts).toEqual(full.sharedArtifacts.map((a) => SharedArtifactBriefSchema.parse(a)));
      expect(body.sharedArtifacts.map((a) => a.id)).toEqual([second.id, first.id]);
      expect(body.sharedArtifacts[1]).toMatchObject({
        owner: { id: member.user.id },
        ownerUsername: member.user.username,
        portfolioGrades: ['4th'],
        commentCount: 2,
        commentTexts: ['Lovely number lines.', 'Thanks!'],
        reactions: expect.objectContaining({ '⭐': true }),
      });
      expect(body.commentCount).toBe(2);
    }
  });

  it('answers an empty shared portfolio with no artifacts', async () => {
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead);
    const body = SharedPortfolioSummarySchema.parse(
      (await get(lead.token, `/shared-portfolios/${sp.id}/summary`)).json(),
    );
    expect(body).toMatchObject({ id: sp.id, sharedArtifacts: [], commentCount: 0 });
  });

  it('is allowed exactly as GET /shared-portfolios/{id}: 404 alike for outsiders, former members and a missing one', async () => {
    const lead = await createLead(t);
    const former = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [former] });
    await createSharedArtifact(t, sp, lead);
    await removeMember(t, sp, former);
    for (const who of [await createTeacher(t), await createLead(t), former]) {
      for (const id of [sp.id, 2_147_483_647]) {
        expect(await get(who.token, `/shared-portfolios/${id}/summary`)).toBeApiError(404, NOT_FOUND);
        expect(await get(who.token, `/shared-portfolios/${id}`)).toBeApiError(404, NOT_FOUND);
      }
    }
    expect(await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/summary` })).toHaveStatus(401);
  });

  it('answers ids that are not positive whole numbers in range with 400', async () => {
    const teacher = await createTeacher(t);
    for (const id of ['0', 'abc', '1.5'])
      expect(await get(teacher.token, `/shared-portfolios/${id}/summary`)).toBeApiError(
        400,
        'id must be a positive whole number.',
      );
    expect(await get(teacher.token, '/shared-portfolios/2147483648/summary')).toBeApiError(400, 'id is out of range.');
  });
});
