import { describe, expect, it } from 'vitest';
import { PortfolioListResponseSchema, PortfolioSchema } from '#schemas/portfolio';
import {
  countRows,
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createTeacher,
  TEMPLATE_STRUCTURE,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const NOT_FOUND = 'Portfolio not found.';

const list = (token: string, query = '') => t.api({ method: 'GET', url: `/portfolios${query}`, token });
const read = (token: string, id: number | string) => t.api({ method: 'GET', url: `/portfolios/${id}`, token });

describe('GET /portfolios', () => {
  it('lists the caller’s own portfolios, newest first, without the template or anyone else’s', async () => {
    const teacher = await createTeacher(t);
    const other = await createTeacher(t);
    const first = await createPortfolio(t, teacher, { name: 'First' });
    const second = await createPortfolio(t, teacher, { name: 'Second' });
    await createPortfolio(t, other, { name: 'Not mine' });
    const parked = await createArtifact(t, second);
    const done = await createArtifact(t, second, { parkingLot: false });

    const res = await list(teacher.token);
    expect(res).toHaveStatus(200);
    const body = PortfolioListResponseSchema.parse(res.json());
    expect(body.map((p) => p.id)).toEqual([second.id, first.id]);
    expect(body[0]!.owner).toEqual({ id: teacher.user.id, username: teacher.user.username, email: teacher.user.email });
    expect(body[0]!.artifacts).toEqual([
      { id: parked.id, parkingLot: true, created_at: parked.created_at, updated_at: parked.updated_at },
      { id: done.id, parkingLot: false, created_at: done.created_at, updated_at: done.updated_at },
    ]);
    expect(body[1]!.artifacts).toEqual([]);
  });

  it('gives each portfolio the time it was last edited, its artifacts’ edits included (an ISO string, as the mobile apps read it)', async () => {
    const teacher = await createTeacher(t);
    const researcher = await createResearcher(t);
    const edited = await createPortfolio(t, teacher, { name: 'Edited inside' });
    const untouched = await createPortfolio(t, teacher, { name: 'Untouched' });
    const artifact = await createArtifact(t, edited);
    // The portfolio itself was last changed before its artifact was saved again.
    await t.db.query(`UPDATE portfolios SET updated_at = now() - interval '3 days' WHERE id = ANY($1::int[])`, [
      [edited.id, untouched.id],
    ]);
    await t.db.query(`UPDATE artifacts SET updated_at = now() - interval '2 days' WHERE id = $1`, [artifact.id]);
    const saved = await t.api({
      method: 'PUT',
      url: `/artifacts/${artifact.id}`,
      token: teacher.token,
      payload: { responses: { studentThinking: 'They compare slopes.' } },
    });
    expect(saved).toHaveStatus(200);
    const artifactEdited = saved.json<{ updated_at: string }>().updated_at;

    for (const token of [teacher.token, researcher.token]) {
      const res = await list(token, `?owner=${teacher.user.id}`);
      expect(res).toHaveStatus(200);
      const body = PortfolioListResponseSchema.parse(res.json());
      const byName = new Map(body.map((p) => [p.name, p]));
      expect(byName.get('Edited inside')!.updated_at).toBe(artifactEdited);
      expect(byName.get('Edited inside')!.artifacts[0]!.updated_at).toBe(artifactEdited);
      expect(Date.parse(byName.get('Untouched')!.updated_at)).toBeLessThan(
        Date.parse(artifactEdited) - 2 * 24 * 3600 * 1000,
      );
      for (const p of res.json<{ updated_at: unknown; created_at: unknown }[]>()) {
        expect(typeof p.updated_at).toBe('string');
        expect(new Date(p.updated_at as string).toISOString()).toBe(p.updated_at);
      }
    }
    // The portfolio's own page keeps its own time (the edit form's version).
    expect(Date.parse(PortfolioSchema.parse((await read(teacher.token, edited.id)).json()).updated_at)).toBeLessThan(
      Date.parse(artifactEdited),
    );
  });

  it('gives a teacher or PLC lead only their own portfolios, whatever ?owner= names', async () => {
    const lead = await createLead(t);
    const other = await createTeacher(t);
    const mine = await createPortfolio(t, lead);
    await createPortfolio(t, other);
    expect((await list(lead.token, `?owner=${other.user.id}`)).json()).toEqual([]);
    expect((await list(lead.token, `?owner=${lead.user.id}`)).json().map((p: { id: number }) => p.id)).toEqual([
      mine.id,
    ]);
  });

  it('gives researchers every portfolio but the template, or one owner’s with ?owner=', async () => {
    const researcher = await createResearcher(t);
    const a = await createTeacher(t);
    const b = await createLead(t);
    const pa = await createPortfolio(t, a);
    const pb = await createPortfolio(t, b);
    const all = PortfolioListResponseSchema.parse((await list(researcher.token)).json());
    const ids = all.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([pa.id, pb.id]));
    expect(ids).not.toContain(1);
    expect(all).toHaveLength((await countRows(t, 'portfolios')) - 1);
    expect((await list(researcher.token, `?owner=${b.user.id}`)).json().map((p: { id: number }) => p.id)).toEqual([
      pb.id,
    ]);
    expect((await list(researcher.token, '?owner=2147483000')).json()).toEqual([]);
    expect((await list(researcher.token, '?owner=9999999999')).json()).toEqual([]);
    expect((await list(researcher.token, '?owner=0')).json()).toEqual([]);
  });

  it('answers a bad query with 400', async () => {
    const researcher = await createResearcher(t);
    expect(await list(researcher.token, '?owner=abc')).toBeApiError(400, 'owner must be a user id.');
    expect(await list(researcher.token, '?owner=-3')).toBeApiError(400, 'owner must be a user id.');
    expect(await list(researcher.token, '?owner=')).toBeApiError(400, 'owner must be a user id.');
    expect(await list(researcher.token, '?_limit=5')).toBeApiError(
      400,
      'Unknown field "_limit" in the query; it is not accepted.',
    );
  });
});

describe('GET /portfolios/{id}', () => {
  it('answers the owner and researchers with the portfolio and its full artifacts', async () => {
    const teacher = await createTeacher(t);
    const p = await createPortfolio(t, teacher, {
      name: 'Forces',
      grades: ['5th', '6th'],
      subject: 'Science',
      topic: 'Motion',
    });
    const a = await createArtifact(t, p, { responses: { artifactName: 'Ramp' } });
    for (const who of [teacher, await createResearcher(t)]) {
      const res = await read(who.token, p.id);
      expect(res).toHaveStatus(200);
      const body = PortfolioSchema.parse(res.json());
      expect(body).toMatchObject({
        id: p.id,
        name: 'Forces',
        grades: ['5th', '6th'],
        subject: 'Science',
        topic: 'Motion',
        template: 'Basic',
      });
      expect(body.structure).toEqual(TEMPLATE_STRUCTURE);
      expect(body.artifacts).toEqual([a]);
    }
  });

  it('lets every signed-in user read the template (portfolio 1), which has no owner', async () => {
    for (const who of [await createTeacher(t), await createLead(t), await createResearcher(t)]) {
      const body = PortfolioSchema.parse((await read(who.token, 1)).json());
      expect(body).toMatchObject({ id: 1, name: 'Basic', owner: null, artifacts: [] });
      expect(body.structure).toEqual(TEMPLATE_STRUCTURE);
    }
  });

  it('answers 404 alike for someone else’s portfolio and for one that does not exist', async () => {
    const teacher = await createTeacher(t);
    const other = await createPortfolio(t, await createTeacher(t));
    expect(await read(teacher.token, other.id)).toBeApiError(404, NOT_FOUND);
    expect(await read(teacher.token, 2_147_483_647)).toBeApiError(404, NOT_FOUND);
  });

  it('answers ids that are not positive whole numbers in range with 400', async () => {
    const teacher = await createTeacher(t);
    for (const id of ['0', '-1', 'abc', '1.5', '1e3', '%20', '99999999999']) {
      expect(await read(teacher.token, id)).toBeApiError(400, 'id must be a positive whole number.');
    }
    expect(await read(teacher.token, '2147483648')).toBeApiError(400, 'id is out of range.');
    expect(await read(teacher.token, '9999999999')).toBeApiError(400, 'id is out of range.');
  });
});
