import { describe, expect, it } from 'vitest';
import { ArtifactBriefSchema, PortfolioSchema, PortfolioSummarySchema } from '#schemas/portfolio';
import {
  attachMedia,
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createTeacher,
  TEMPLATE_STRUCTURE,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

/**
 * `GET /portfolios/{id}/summary`, the web's compact portfolio: the structure once and each
 * artifact in brief, allowed exactly as `GET /portfolios/{id}` (which keeps its full shape).
 */

const t = await buildTestApp();

const NOT_FOUND = 'Portfolio not found.';
const BRIEF_FIELDS = Object.keys(ArtifactBriefSchema.shape).sort();

const get = (token: string, url: string) => t.api({ method: 'GET', url, token });

describe('GET /portfolios/{id}/summary', () => {
  it('answers the owner and researchers with the portfolio, its structure once and its artifacts in brief, as the full route lists them', async () => {
    const teacher = await createTeacher(t);
    const p = await createPortfolio(t, teacher, {
      name: 'Forces',
      grades: ['5th'],
      subject: 'Science',
      topic: 'Motion',
    });
    const parked = await createArtifact(t, p, {
      responses: { artifactName: 'Ramp', learningGoal: 'Friction slows the car.' },
    });
    const done = await createArtifact(t, p, { responses: { artifactName: 'Pulleys' }, parkingLot: false });
    await attachMedia(t, 'artifact', done.id, 'image');
    for (const who of [teacher, await createResearcher(t)]) {
      const full = PortfolioSchema.parse((await get(who.token, `/portfolios/${p.id}`)).json());
      const res = await get(who.token, `/portfolios/${p.id}/summary`);
      expect(res).toHaveStatus(200);
      const raw = res.json() as { artifacts: Record<string, unknown>[] };
      const body = PortfolioSummarySchema.parse(raw);
      const { artifacts: _full, ...portfolio } = full;
      expect(body).toEqual({ ...portfolio, artifacts: body.artifacts });
      expect(body.structure).toEqual(TEMPLATE_STRUCTURE);
      // Only the table's fields: no structure, files or owner per artifact.
      for (const artifact of raw.artifacts) expect(Object.keys(artifact).sort()).toEqual(BRIEF_FIELDS);
      expect(body.artifacts).toEqual(full.artifacts.map((a) => ArtifactBriefSchema.parse(a)));
      expect(body.artifacts.map((a) => a.id)).toEqual([done.id, parked.id]);
      expect(body.artifacts[1]).toMatchObject({
        parkingLot: true,
        ownerUsername: teacher.user.username,
        commentCount: 0,
        responses: parked.responses,
      });
    }
  });

  it('leaves out a new artifact never saved, as the full route does', async () => {
    const teacher = await createTeacher(t);
    const p = await createPortfolio(t, teacher);
    const kept = await createArtifact(t, p);
    const created = await t.api({
      method: 'POST',
      url: `/portfolios/${p.id}/artifacts/responses`,
      token: teacher.token,
      payload: {},
    });
    expect(created).toHaveStatus(200);
    const body = PortfolioSummarySchema.parse((await get(teacher.token, `/portfolios/${p.id}/summary`)).json());
    expect(body.artifacts.map((a) => a.id)).toEqual([kept.id]);
  });

  it('is allowed exactly as GET /portfolios/{id}: 404 alike for another teacher’s or lead’s portfolio and a missing one, the template for everyone', async () => {
    const owner = await createTeacher(t);
    const p = await createPortfolio(t, owner);
    await createArtifact(t, p);
    for (const who of [await createTeacher(t), await createLead(t)]) {
      for (const id of [p.id, 2_147_483_647]) {
        expect(await get(who.token, `/portfolios/${id}/summary`)).toBeApiError(404, NOT_FOUND);
        expect(await get(who.token, `/portfolios/${id}`)).toBeApiError(404, NOT_FOUND);
      }
      const template = PortfolioSummarySchema.parse((await get(who.token, '/portfolios/1/summary')).json());
      expect(template).toMatchObject({ id: 1, owner: null, artifacts: [] });
    }
    expect(await t.api({ method: 'GET', url: `/portfolios/${p.id}/summary` })).toHaveStatus(401);
  });

  it('answers ids that are not positive whole numbers in range with 400', async () => {
    const teacher = await createTeacher(t);
    for (const id of ['0', 'abc', '1.5'])
      expect(await get(teacher.token, `/portfolios/${id}/summary`)).toBeApiError(
        400,
        'id must be a positive whole number.',
      );
    expect(await get(teacher.token, '/portfolios/2147483648/summary')).toBeApiError(400, 'id is out of range.');
  });
});
