import { describe, expect, it } from 'vitest';
import { PortfolioRubricSchema, RubricListSchema, RubricSchema, ScoreListSchema } from '#schemas/rubrics';
import { NGSS_PRACTICES_TEMPLATE } from '#schemas/rubricTemplates';
import { createLead, createResearcher, createSharedPortfolio, createTeacher, snapshot } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { rubricKit, SMALL_RUBRIC } from '../../test/fixtures/rubrics.ts';

const t = await buildTestApp();
const { makeRubric, choose, scored, team, first } = rubricKit(t);

describe('rubrics', () => {
  it('a lead makes the NGSS rubric for her shared portfolio and chooses it; members and invitees read it', async () => {
    const { sp, member, invitee, rubric } = await team();
    expect(rubric).toMatchObject({
      name: NGSS_PRACTICES_TEMPLATE.name,
      sharedPortfolio: sp.id,
      version: 1,
      used: false,
    });
    expect(rubric.criteria.map((c) => c.code)).toEqual([
      'SEP1',
      'SEP2',
      'SEP3',
      'SEP4',
      'SEP5',
      'SEP6',
      'SEP7',
      'SEP8',
    ]);
    expect(rubric.criteria[0]!.levels.map((l) => [l.label, l.score])).toEqual([
      ['Beginning', 1],
      ['Developing', 2],
      ['Proficient', 3],
      ['Exemplary', 4],
    ]);
    expect(rubric.abilities.edit).toBe(true);

    const asMember = await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/rubric`, token: member.token });
    expect(asMember).toHaveStatus(200);
    const chosen = PortfolioRubricSchema.parse(asMember.json());
    expect(chosen.rubric?.id).toBe(rubric.id);
    expect(chosen.rubric?.abilities.edit).toBe(false);
    expect(chosen.abilities).toEqual({ score: true, choose: false });

    const asInvitee = await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/rubric`, token: invitee.token });
    expect(PortfolioRubricSchema.parse(asInvitee.json()).abilities).toEqual({ score: false, choose: false });
  });

  it('only researchers make installation-wide rubrics, which everyone signed in can list and choose', async () => {
    const lead = await createLead(t);
    const before = await snapshot(t);
    const refused = await t.api({
      method: 'POST',
      url: '/rubrics',
      token: lead.token,
      payload: { ...SMALL_RUBRIC, sharedPortfolio: null },
    });
    expect(refused).toBeApiError(403, 'Only researchers can make or change rubrics for the whole installation.');
    expect(await snapshot(t)).toEqual(before);

    const researcher = await createResearcher(t);
    const wide = await makeRubric(researcher, null);
    expect(wide.sharedPortfolio).toBeNull();
    const teacher = await createTeacher(t);
    const list = RubricListSchema.parse((await t.api({ method: 'GET', url: '/rubrics', token: teacher.token })).json());
    expect(list.find((r) => r.id === wide.id)?.abilities.edit).toBe(false);

    const sp = await createSharedPortfolio(t, lead);
    expect(await choose(lead, sp.id, wide.id)).toHaveStatus(200);
    const edit = await t.api({
      method: 'PUT',
      url: `/rubrics/${wide.id}`,
      token: lead.token,
      payload: { ...SMALL_RUBRIC, name: 'Mine now' },
    });
    expect(edit).toBeApiError(403, 'Only researchers can make or change rubrics for the whole installation.');
  });

  it('lists a portfolio’s own rubrics only to those who read it', async () => {
    const { sp, rubric, member } = await team(SMALL_RUBRIC);
    const outsider = await createTeacher(t);
    const mine = RubricListSchema.parse((await t.api({ method: 'GET', url: '/rubrics', token: member.token })).json());
    expect(mine.map((r) => r.id)).toContain(rubric.id);
    const theirs = RubricListSchema.parse(
      (await t.api({ method: 'GET', url: '/rubrics', token: outsider.token })).json(),
    );
    expect(theirs.map((r) => r.id)).not.toContain(rubric.id);
    expect(
      await t.api({ method: 'GET', url: `/rubrics?sharedPortfolio=${sp.id}`, token: outsider.token }),
    ).toBeApiError(404, 'Shared portfolio not found.');
    expect(await t.api({ method: 'GET', url: `/rubrics/${rubric.id}`, token: outsider.token })).toBeApiError(
      404,
      'Rubric not found.',
    );
  });

  it('changes an unused rubric in place, and makes a new version of a used one; earlier scores keep theirs', async () => {
    const { lead, member, sa, rubric } = await team(SMALL_RUBRIC);
    const renamed = { ...SMALL_RUBRIC, criteria: [{ ...SMALL_RUBRIC.criteria[0]!, label: 'Students talking' }] };
    const inPlace = RubricSchema.parse(
      (await t.api({ method: 'PUT', url: `/rubrics/${rubric.id}`, token: lead.token, payload: renamed })).json(),
    );
    expect(inPlace).toMatchObject({ version: 1, used: false });
    expect(inPlace.criteria.map((c) => c.label)).toEqual(['Students talking']);

    const given = await scored(member, { sharedArtifact: sa.id, ...first(inPlace, 0, 2) });
    expect(given.rubric.version).toBe(1);

    // A new name alone changes no criterion: still version 1.
    const named = await t.api({
      method: 'PUT',
      url: `/rubrics/${rubric.id}`,
      token: lead.token,
      payload: { ...renamed, name: 'Talk moves' },
    });
    expect(RubricSchema.parse(named.json())).toMatchObject({ name: 'Talk moves', version: 1, used: true });

    const changed = RubricSchema.parse(
      (await t.api({ method: 'PUT', url: `/rubrics/${rubric.id}`, token: lead.token, payload: SMALL_RUBRIC })).json(),
    );
    expect(changed).toMatchObject({ version: 2, used: false });
    expect(changed.criteria.map((c) => c.label)).toEqual(['Student talk', 'Questioning']);

    const scores = ScoreListSchema.parse(
      (await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}/scores`, token: lead.token })).json(),
    );
    expect(scores).toEqual([
      expect.objectContaining({
        rubric: { id: rubric.id, name: 'Discourse', version: 1 },
        criterion: expect.objectContaining({ label: 'Students talking' }),
        level: expect.objectContaining({ label: 'High', score: 3 }),
      }),
    ]);
    // The old version's criterion no longer scores: the portfolio scores with version 2.
    const stale = await t.api({
      method: 'POST',
      url: '/scores',
      token: member.token,
      payload: { sharedArtifact: sa.id, ...first(inPlace) },
    });
    expect(stale).toBeApiError(400, 'This criterion is not part of the portfolio’s rubric.');
  });

  it('refuses a rubric of another portfolio, and members choosing, changing nothing', async () => {
    const { lead, member, sp } = await team(SMALL_RUBRIC);
    const otherLead = await createLead(t);
    const other = await createSharedPortfolio(t, otherLead);
    const elsewhere = await makeRubric(otherLead, other.id);
    const before = await snapshot(t);
    expect(await choose(lead, sp.id, elsewhere.id)).toBeApiError(
      400,
      'This rubric belongs to another shared portfolio.',
    );
    expect(await choose(member, sp.id, null)).toBeApiError(403, 'Only the owner of this shared portfolio can do this.');
    expect(await choose(lead, sp.id, 2_000_000_000)).toBeApiError(400, 'Rubric not found.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('holds rubrics to their limits, storing nothing', async () => {
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead);
    const criterion = SMALL_RUBRIC.criteria[0]!;
    const post = (payload: object) =>
      t.api({ method: 'POST', url: '/rubrics', token: lead.token, payload: { sharedPortfolio: sp.id, ...payload } });
    const before = await snapshot(t);
    const many = Array.from({ length: 25 }, (_, i) => ({ ...criterion, label: `C${i}` }));
    expect(await post({ name: 'Big', criteria: many })).toBeApiError(400, /at most 24 criteria/);
    const levels = Array.from({ length: 7 }, (_, i) => ({ label: `L${i}`, score: i }));
    expect(await post({ name: 'Deep', criteria: [{ label: 'C', levels }] })).toBeApiError(400, /at most 6 levels/);
    expect(await post({ name: 'One', criteria: [{ label: 'C', levels: [{ label: 'L', score: 1 }] }] })).toBeApiError(
      400,
      /at least 2 levels/,
    );
    expect(
      await post({
        name: 'Odd',
        criteria: [{ label: 'C', levels: [{ label: 'L', score: 1.5 }, criterion.levels[1]] }],
      }),
    ).toBeApiError(400, /whole number/);
    expect(await post({ ...SMALL_RUBRIC, owner: 1 })).toBeApiError(400);
    expect(await post({ ...SMALL_RUBRIC, name: '   ' })).toBeApiError(400, /name is required/);
    expect(await snapshot(t)).toEqual(before);

    await t.db.query(
      `INSERT INTO rubrics (shared_portfolio_id, name) SELECT $1, 'R' || g FROM generate_series(1, 20) g`,
      [sp.id],
    );
    expect(await post(SMALL_RUBRIC)).toBeApiError(409, /at most 20 rubrics/);
  });
});
