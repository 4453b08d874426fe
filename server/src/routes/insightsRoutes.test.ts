import { beforeAll, describe, expect, it } from 'vitest';
import { InsightsSchema } from '#schemas/insights';
import {
  attachVideo,
  createComment,
  createLead,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  snapshot,
  type TestUser,
} from '../../test/factories.ts';
import { scoresOn } from '../../test/fixtures/insights.ts';
import { seedRubricAndScore } from '../../test/fixtures/rubrics.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp({ queryCountHeader: true });

const insights = async (who: TestUser, query = '') => {
  const res = await t.api({ method: 'GET', url: `/insights${query}`, token: who.token });
  expect(res).toHaveStatus(200);
  return { body: InsightsSchema.parse(res.json()), statements: Number(res.headers['x-query-count']) };
};

/**
 * The hand-computed example: two raters (A, the lower id, and B) scored ten moments of one video
 * on one criterion with levels Low / Some. Both Low 4, A Low & B Some 2, A Some & B Low 1, both
 * Some 3. Observed p_o = 7/10 = 0.7; A gave Low 6 and Some 4 times, B Low 5 and Some 5 times, so
 * expected p_e = (6·5 + 4·5) / 10² = 0.5, and kappa = (0.7 − 0.5) / (1 − 0.5) = 0.4.
 */
const TABLE: [a: number, b: number, times: number][] = [
  [0, 0, 4],
  [0, 1, 2],
  [1, 0, 1],
  [1, 1, 3],
];

let lead: TestUser;
let member: TestUser;
let researcher: TestUser;
let teacher: TestUser;
let world: { spId: number; otherId: number };

beforeAll(async () => {
  lead = await createLead(t);
  member = await createTeacher(t);
  researcher = await createResearcher(t);
  teacher = await createTeacher(t);
  const sp = await createSharedPortfolio(t, lead, { name: 'Grade 5 PLC', members: [member] });
  const sa = await createSharedArtifact(t, sp, member);
  const video = await attachVideo(t, 'sharedArtifact', sa.id, 20);
  const { rubricId } = await seedRubricAndScore(t, sp.id, sa.id, member.user.id);
  const { add } = await scoresOn(t, rubricId, sa.id, video);
  // An earlier score of A on the first moment that her later one replaces.
  await add(lead, 0, 2, 0);
  let moment = 0;
  for (const [a, b, times] of TABLE)
    for (let i = 0; i < times; i += 1) {
      await add(lead, 0, a, moment);
      await add(member, 0, b, moment);
      moment += 1;
    }
  // A moment only A scored: no pair.
  await add(lead, 0, 1, 15);
  // The whole artifact on the second criterion, both on one level: kappa undefined.
  await add(lead, 1, 2, null);
  await add(member, 1, 2, null);
  await createComment(t, sa, member);
  await createComment(t, sa, lead);
  await createReaction(t, sa, lead);
  // Another lead's portfolio, discussed in another week.
  const otherLead = await createLead(t);
  const other = await createSharedPortfolio(t, otherLead, { name: 'Algebra team' });
  const otherArtifact = await createSharedArtifact(t, other, otherLead);
  const comment = await createComment(t, otherArtifact, otherLead);
  await t.db.query(`UPDATE comments SET created_at = '2026-01-07T12:00:00Z' WHERE id = $1`, [comment]);
  await t.db.query(`UPDATE shared_artifacts SET created_at = '2026-01-14T12:00:00Z' WHERE id = $1`, [otherArtifact.id]);
  world = { spId: sp.id, otherId: other.id };
});

describe('GET /insights', () => {
  it('computes Cohen’s kappa in SQL as the hand-computed example says, with the number of pairs', async () => {
    const { body } = await insights(lead);
    const [first, second] = body.agreement;
    expect(first).toMatchObject({ criterion: { code: 'D1', label: 'Student talk', rubric: 'Discourse', version: 1 } });
    expect(first!.pairs).toBe(10);
    expect(first!.observed).toBeCloseTo(0.7, 10);
    expect(first!.expected).toBeCloseTo(0.5, 10);
    expect(first!.kappa).toBe(0.4);
    expect(second).toMatchObject({ pairs: 1, observed: 1, expected: 1, kappa: null });
    expect(body.agreement).toHaveLength(2);
  });

  it('counts the levels given per criterion, unused levels as 0', async () => {
    const { body } = await insights(lead);
    // Criterion D1: the seeded whole-artifact score (Low) + A's 12 moment scores + B's 10.
    expect(body.levels[0]!.levels.map((l) => [l.label, l.count])).toEqual([
      ['Low', 1 + 6 + 5],
      ['Some', 4 + 1 + 5],
      ['High', 1],
    ]);
    expect(body.levels[1]!.levels.map((l) => l.count)).toEqual([0, 0, 2]);
  });

  it('shows a lead her own portfolios only; a researcher the installation, or one portfolio and a range', async () => {
    const mine = (await insights(lead)).body;
    expect(mine.scope).toBe('portfolios');
    expect(mine.portfolios).toEqual([{ id: world.spId, name: 'Grade 5 PLC' }]);
    expect(mine.discussion).toEqual([{ id: world.spId, name: 'Grade 5 PLC', artifacts: 1, comments: 2, reactions: 1 }]);
    const week = mine.activity.at(-1)!;
    expect(mine.activity).toHaveLength(1);
    expect(week).toMatchObject({ artifacts: 1, comments: 2, reactions: 1, scores: 1 + 1 + 20 + 1 + 2 });

    const all = (await insights(researcher)).body;
    expect(all.scope).toBe('installation');
    expect(all.portfolios.map((p) => p.name)).toEqual(['Algebra team', 'Grade 5 PLC']);
    expect(all.discussion.map((p) => p.name)).toEqual(['Grade 5 PLC', 'Algebra team']);
    expect(all.discussionMore).toBe(0);
    // From the week of 2026-01-05 to this week, every week there, with zeros between.
    expect(all.activity[0]).toEqual({ week: '2026-01-05', artifacts: 0, comments: 1, reactions: 0, scores: 0 });
    expect(all.activity[1]).toEqual({ week: '2026-01-12', artifacts: 1, comments: 0, reactions: 0, scores: 0 });
    expect(all.activity[2]).toMatchObject({ week: '2026-01-19', artifacts: 0, comments: 0 });
    const days = all.activity.map((w) => Date.parse(`${w.week}T00:00:00Z`));
    for (let i = 1; i < days.length; i += 1) expect(days[i]! - days[i - 1]!).toBe(7 * 24 * 3600 * 1000);

    const january = (await insights(researcher, `?sharedPortfolio=${world.otherId}&from=2026-01-01&to=2026-01-10`))
      .body;
    expect(january.scope).toBe('portfolios');
    expect(january.activity).toEqual([{ week: '2026-01-05', artifacts: 0, comments: 1, reactions: 0, scores: 0 }]);
    expect(january.discussion).toEqual([
      { id: world.otherId, name: 'Algebra team', artifacts: 0, comments: 1, reactions: 0 },
    ]);
    expect(january.levels).toEqual([]);
    expect(january.agreement).toEqual([]);
  });

  it('runs the same number of statements whatever the data', async () => {
    const twice = async (who: TestUser, query = '') => {
      await insights(who, query);
      return (await insights(who, query)).statements;
    };
    // A portfolio with one comment and one with 25 scores, 2 comments and a reaction.
    expect(await twice(researcher, `?sharedPortfolio=${world.otherId}`)).toBe(
      await twice(researcher, `?sharedPortfolio=${world.spId}`),
    );
    const installation = await twice(researcher);
    expect(await twice(lead)).toBe(installation);
    // The portfolios to pick from and the four aggregates (and, with a portfolio named, finding it).
    expect(installation).toBe(5);
  });

  it('refuses teachers who lead nothing, and a portfolio the caller does not lead', async () => {
    const before = await snapshot(t);
    expect(await t.api({ method: 'GET', url: '/insights', token: teacher.token })).toBeApiError(
      403,
      'Charts are for researchers and for the leads of shared portfolios.',
    );
    expect(
      await t.api({ method: 'GET', url: `/insights?sharedPortfolio=${world.spId}`, token: member.token }),
    ).toBeApiError(403, 'Only the owner of this shared portfolio can do this.');
    expect(
      await t.api({ method: 'GET', url: `/insights?sharedPortfolio=${world.otherId}`, token: lead.token }),
    ).toBeApiError(404, 'Shared portfolio not found.');
    expect(
      await t.api({ method: 'GET', url: '/insights?sharedPortfolio=999999', token: researcher.token }),
    ).toBeApiError(404, 'Shared portfolio not found.');
    expect(await snapshot(t)).toEqual(before);
  });

  it.each([
    ['?sharedPortfolio=0', 'sharedPortfolio must be a positive whole number.'],
    ['?sharedPortfolio=abc', 'sharedPortfolio must be a positive whole number.'],
    ['?sharedPortfolio=2147483648', 'sharedPortfolio is out of range.'],
    ['?from=2026-02-30', 'from must be a date that exists.'],
    ['?to=yesterday', 'to must be a date written YYYY-MM-DD.'],
    ['?from=2026-03-02&to=2026-03-01', 'The end date must not be before the start date.'],
    ['?teacher=3', 'Unknown field "teacher" in the query; it is not accepted.'],
  ])('answers the bad query %s with 400', async (query, message) => {
    const res = await t.api({ method: 'GET', url: `/insights${query}`, token: researcher.token });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain(message);
  });

  it('is in the OpenAPI document with its query parameters', async () => {
    const doc = (await t.api({ method: 'GET', url: '/openapi.json' })).json();
    const get = doc.paths['/api/v1/insights'].get;
    expect(get.tags).toEqual(['insights']);
    expect(get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:from',
      'query:sharedPortfolio',
      'query:to',
    ]);
    expect(get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/Insights');
    expect(get.responses['403'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiError');
  });
});
