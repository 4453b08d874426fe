import { describe, expect, it } from 'vitest';
import { RubricListSchema, RubricSchema } from '#schemas/rubrics';
import { createResearcher, createSharedPortfolio, snapshot } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { rubricKit, SMALL_RUBRIC } from '../../test/fixtures/rubrics.ts';

const t = await buildTestApp();
const { makeRubric, choose, scored, team, first } = rubricKit(t);

const remove = (id: number, token: string) => t.api({ method: 'DELETE', url: `/rubrics/${id}`, token });
const list = async (token: string, query = '') =>
  RubricListSchema.parse((await t.api({ method: 'GET', url: `/rubrics${query}`, token })).json());

describe('deleting rubrics (decision 058)', () => {
  it('deletes an unused rubric with its versions, criteria and levels, and answers it as it was', async () => {
    const { lead, sp } = await team();
    const spare = await makeRubric(lead, sp.id, { ...SMALL_RUBRIC, name: 'Spare' });
    expect(spare.usage).toEqual({ scores: 0, portfolios: [] });
    const res = await remove(spare.id, lead.token);
    expect(res).toHaveStatus(200);
    expect(RubricSchema.parse(res.json())).toMatchObject({ id: spare.id, name: 'Spare' });
    expect(await t.api({ method: 'GET', url: `/rubrics/${spare.id}`, token: lead.token })).toHaveStatus(404);
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM rubric_versions WHERE rubric_id = $1)::int
            + (SELECT count(*) FROM rubric_criteria c JOIN rubric_versions v ON v.id = c.version_id WHERE v.rubric_id = $1)::int AS n`,
      [spare.id],
    );
    expect(rows[0]!.n).toBe(0);
    expect(await remove(spare.id, lead.token)).toHaveStatus(404);
  });

  it('refuses a rubric that scores were given with (they keep it), naming the portfolios to stop using it in', async () => {
    const { lead, peer, sp, sa, rubric } = await team();
    await scored(peer, { sharedArtifact: sa.id, ...first(rubric) });
    await scored(peer, { sharedArtifact: sa.id, ...first(rubric, 1, 2) });
    const before = await snapshot(t);
    const res = await remove(rubric.id, lead.token);
    expect(res).toBeApiError(
      409,
      `2 scores were given with this rubric, and they keep it: it cannot be deleted. To stop using it, choose another rubric (or none) in “${sp.name}”.`,
    );
    expect(await snapshot(t)).toEqual(before);

    // Stopping its use leaves the scores; the rubric still cannot go, and says so.
    expect(await choose(lead, sp.id, null)).toHaveStatus(200);
    const again = await remove(rubric.id, lead.token);
    expect(again).toBeApiError(
      409,
      '2 scores were given with this rubric, and they keep it: it cannot be deleted. No shared portfolio scores with it now, so it gets no new scores.',
    );
  });

  it('refuses a rubric shared portfolios score with, saying which; deletes it once they chose another', async () => {
    const { lead } = await team();
    const researcher = await createResearcher(t);
    const wide = await makeRubric(researcher, null, { ...SMALL_RUBRIC, name: 'District walkthrough' });
    const a = await createSharedPortfolio(t, lead, { name: 'Algebra team' });
    const b = await createSharedPortfolio(t, lead, { name: 'Biology team' });
    for (const sp of [a, b]) expect(await choose(lead, sp.id, wide.id)).toHaveStatus(200);

    const listed = (await list(researcher.token, '?scope=installation')).find((r) => r.id === wide.id)!;
    expect(listed.usage).toEqual({
      scores: 0,
      portfolios: [
        { id: a.id, name: 'Algebra team' },
        { id: b.id, name: 'Biology team' },
      ],
    });
    // Those who may not edit it do not learn which portfolios use it.
    expect((await list(lead.token, '?scope=installation')).find((r) => r.id === wide.id)!.usage).toBeNull();

    const res = await remove(wide.id, researcher.token);
    expect(res).toBeApiError(
      409,
      '“Algebra team” and “Biology team” score with this rubric. Choose another rubric (or none) there first, then delete it.',
    );
    for (const sp of [a, b]) expect(await choose(lead, sp.id, null)).toHaveStatus(200);
    expect(await remove(wide.id, researcher.token)).toHaveStatus(200);
  });

  it('lists only the installation’s rubrics with scope=installation, and refuses both filters at once', async () => {
    const { lead, sp, rubric } = await team();
    const researcher = await createResearcher(t);
    const wide = await makeRubric(researcher, null, { ...SMALL_RUBRIC, name: 'Installation rubric' });
    const ids = (await list(researcher.token, '?scope=installation')).map((r) => r.id);
    expect(ids).toContain(wide.id);
    expect(ids).not.toContain(rubric.id);
    expect((await list(lead.token, '?scope=installation')).every((r) => r.sharedPortfolio === null)).toBe(true);
    const both = await t.api({
      method: 'GET',
      url: `/rubrics?scope=installation&sharedPortfolio=${sp.id}`,
      token: lead.token,
    });
    expect(both).toHaveStatus(400);
    expect(both.body).toContain('not both');
    const odd = await t.api({ method: 'GET', url: '/rubrics?scope=everything', token: lead.token });
    expect(odd).toHaveStatus(400);
    expect(odd.body).toContain('scope can only be');
  });

  it('is in the OpenAPI document: the delete with its refusal, and the list’s scope', async () => {
    const doc = (await t.api({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { tags: string[]; responses: Record<string, unknown>; parameters?: { name: string }[] }>
      >;
    };
    const remove = doc.paths['/api/v1/rubrics/{id}']!['delete']!;
    expect(remove.tags).toEqual(['rubrics and scores']);
    expect(Object.keys(remove.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '409']));
    const list = doc.paths['/api/v1/rubrics']!['get']!;
    expect(list.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['sharedPortfolio', 'scope']));
  });
});
