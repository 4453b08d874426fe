import { describe, expect, it } from 'vitest';
import {
  COVERAGE_DIMENSIONS,
  CoverageArtifactPageSchema,
  CoverageSchema,
  coverageTags,
  type Coverage,
} from '#schemas/coverage';
import { STANDARDS_ITEMS } from '#schemas/standards';
import {
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createTeacher,
  type TestUser,
} from '../../test/factories.ts';
import { rubricKit } from '../../test/fixtures/rubrics.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp({ queryCountHeader: true });
const kit = rubricKit(t);

const tagged = (name: string, ...tags: string[]) => ({
  artifactName: name,
  learningGoal: 'Forces change motion.',
  standardFrameworkTags: tags,
});

async function map(who: TestUser, query: string): Promise<Coverage & { statements: number }> {
  const res = await t.api({ method: 'GET', url: `/coverage?${query}`, token: who.token });
  expect(res).toHaveStatus(200);
  return { ...CoverageSchema.parse(res.json()), statements: Number(res.headers['x-query-count']) };
}
const rowOf = (c: Coverage, id: number) => c.rows.find((r) => r.id === id)!;
const col = (c: Coverage, key: string) => c.columns.findIndex((x) => x.key === key);

/**
 * A team scoring with the NGSS practices: the member's artifact tagged with models (scored
 * Proficient by the lead, Beginning by the peer) and with forces; the peer's tagged with
 * argument; the member's personal portfolio with two tagged artifacts, one of them copied.
 */
async function world() {
  const team = await kit.team();
  const { lead, member, peer, sp, sa, rubric } = team;
  await t.db.query(`UPDATE shared_artifacts SET responses = $2::jsonb WHERE id = $1`, [
    sa.id,
    JSON.stringify(tagged('Ramp race', 'Developing and using models', 'PS2.A: Forces and Motion')),
  ]);
  const theirs = await createSharedArtifact(t, sp, peer, {
    responses: tagged('Argument walk', 'Engaging in argument from evidence'),
  });
  const models = rubric.criteria.findIndex((c) => c.code === 'SEP2');
  await kit.scored(lead, { sharedArtifact: sa.id, ...kit.first(rubric, models, 2) });
  await kit.scored(peer, { sharedArtifact: sa.id, ...kit.first(rubric, models, 0) });
  const portfolio = await createPortfolio(t, member, { name: 'Forces unit' });
  const a1 = await createArtifact(t, portfolio, {
    parkingLot: false,
    responses: tagged('Pendulum', 'Developing and using models', 'Using Mathematics and Computational Thinking'),
  });
  await createArtifact(t, portfolio, { parkingLot: false, responses: tagged('Magnets', 'Patterns') });
  await createArtifact(t, portfolio, { parkingLot: false });
  await t.db.query('UPDATE shared_artifacts SET source_artifact_id = $2 WHERE id = $1', [sa.id, a1.id]);
  return { ...team, theirs, portfolio, a1 };
}

describe('the codes kept beside the tags (migration 0028)', () => {
  it('gives every tag of every column, web and mobile spellings, that column’s code, and nothing else a code', async () => {
    const tags = COVERAGE_DIMENSIONS.flatMap((d) => coverageTags(d));
    expect(new Set(tags.map((t) => t.tag))).toEqual(new Set([...STANDARDS_ITEMS, ...tags.map((t) => t.tag)]));
    const { rows } = await t.db.query<{ tag: string; codes: string[] }>(
      `SELECT tag, standard_codes(jsonb_build_array(tag)) AS codes FROM unnest($1::text[]) AS t (tag)`,
      [tags.map((x) => x.tag)],
    );
    expect(rows.map((r) => [r.tag, r.codes])).toEqual(tags.map((x) => [x.tag, [x.column]]));
    const { rows: none } = await t.db.query<{ codes: string[] }>(
      `SELECT standard_codes('["Student work", "PS9.Z", 3]'::jsonb) AS codes, standard_codes('"Patterns"'::jsonb) AS codes2`,
    );
    expect(none[0]).toEqual({ codes: [], codes2: [] });
  });

  it('keeps them when the answers change', async () => {
    const teacher = await createTeacher(t);
    const a = await createArtifact(t, await createPortfolio(t, teacher), {
      responses: tagged('Kept', 'Patterns', 'PS2.A: Forces and Motion', 'PS2.B: Types of Interactions'),
    });
    const read = async () =>
      (await t.db.query<{ c: string[] }>('SELECT standard_codes AS c FROM artifacts WHERE id = $1', [a.id])).rows[0]!.c;
    expect(await read()).toEqual(['CCC1', 'PS2']);
    await t.db.query(`UPDATE artifacts SET responses = responses - 'standardFrameworkTags' WHERE id = $1`, [a.id]);
    expect(await read()).toEqual([]);
  });
});

describe('GET /coverage', () => {
  it('counts a shared portfolio’s tags per member and the highest level its owner sees', async () => {
    const w = await world();
    const c = await map(w.lead, `scope=shared&id=${w.sp.id}`);
    expect(c.name).toBe(w.sp.name);
    expect(c.columns.map((x) => x.key)).toEqual(['SEP1', 'SEP2', 'SEP3', 'SEP4', 'SEP5', 'SEP6', 'SEP7', 'SEP8']);
    expect(c.rows.map((r) => r.id).sort()).toEqual([w.lead.user.id, w.member.user.id, w.peer.user.id].sort());
    const member = rowOf(c, w.member.user.id);
    expect(member).toMatchObject({ kind: 'teacher', artifacts: 1 });
    expect(member.tagged).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
    expect(member.scores[col(c, 'SEP2')]).toBe(2);
    expect(member.best[col(c, 'SEP2')]).toEqual({ label: 'Proficient', rank: 3, of: 4 });
    expect(rowOf(c, w.peer.user.id).tagged[col(c, 'SEP7')]).toBe(1);
    expect(rowOf(c, w.lead.user.id)).toMatchObject({ artifacts: 0, tagged: [0, 0, 0, 0, 0, 0, 0, 0] });
  });

  it('shows another member only the scores she gave, and the artifact’s owner all of hers', async () => {
    const w = await world();
    const byPeer = rowOf(await map(w.peer, `scope=shared&id=${w.sp.id}`), w.member.user.id);
    expect(byPeer.scores[1]).toBe(1);
    expect(byPeer.best[1]).toEqual({ label: 'Beginning', rank: 1, of: 4 });
    const byOwner = rowOf(await map(w.member, `scope=shared&id=${w.sp.id}`), w.member.user.id);
    expect(byOwner.scores[1]).toBe(2);
  });

  it('maps core ideas by their items and one row per shared portfolio', async () => {
    const w = await world();
    const c = await map(w.researcher, `scope=shared&id=${w.sp.id}&rows=portfolios&dimension=coreIdeas`);
    expect(c.columns.map((x) => x.key)).toEqual([
      'PS1',
      'PS2',
      'PS3',
      'PS4',
      'LS1',
      'LS2',
      'LS3',
      'LS4',
      'ESS1',
      'ESS2',
      'ESS3',
      'ETS1',
    ]);
    expect(c.rows).toHaveLength(1);
    expect(c.rows[0]).toMatchObject({ id: w.sp.id, kind: 'shared', artifacts: 2 });
    expect(c.rows[0]!.tagged[col(c, 'PS2')]).toBe(1);
  });

  it('gives a teacher her personal portfolios, mobile spellings included, with the levels of their shared copies', async () => {
    const w = await world();
    const c = await map(w.member, `scope=teacher&id=${w.member.user.id}&rows=portfolios`);
    expect(c.rows.map((r) => r.name)).toEqual(['Forces unit']);
    const row = c.rows[0]!;
    expect(row).toMatchObject({ kind: 'portfolio', artifacts: 3 });
    expect(row.tagged).toEqual([0, 1, 0, 0, 1, 0, 0, 0]);
    expect(row.best[1]).toEqual({ label: 'Proficient', rank: 3, of: 4 });
    const ccc = await map(w.member, `scope=teacher&id=${w.member.user.id}&dimension=crosscutting`);
    expect(ccc.rows).toHaveLength(1);
    expect(ccc.rows[0]!.tagged[0]).toBe(1);
  });

  it('runs as many statements for many rows as for few: one for the map', async () => {
    const w = await world();
    const researcher = await createResearcher(t);
    // Each caller's account is read once, then kept (as on a running server).
    await map(researcher, 'scope=installation');
    await map(w.member, `scope=teacher&id=${w.member.user.id}`);
    const mine = await map(w.member, `scope=teacher&id=${w.member.user.id}`);
    const before = await map(researcher, 'scope=installation');
    for (let i = 0; i < 5; i++) {
      const p = await createPortfolio(t, await createTeacher(t));
      await createArtifact(t, p, { responses: tagged('More', 'Patterns') });
    }
    const after = await map(researcher, 'scope=installation');
    expect(after.rows.length).toBe(before.rows.length + 5);
    expect(after.statements).toBe(before.statements);
    expect(before.statements).toBe(1);
    // The teacher's own map also reads her account, a shared portfolio's map the portfolio.
    expect(mine.statements).toBe(2);
    expect((await map(w.peer, `scope=shared&id=${w.sp.id}`)).statements).toBe(2);
  });

  it('refuses unknown fields, values and a missing or extra id with a 400', async () => {
    const lead = await createLead(t);
    for (const [query, message] of [
      ['scope=installation&id=3', 'id is required'],
      ['scope=teacher', 'id is required'],
      ['scope=everyone', 'scope must be one of'],
      [`scope=teacher&id=${lead.user.id}&dimension=colours`, 'dimension must be one of'],
      [`scope=teacher&id=${lead.user.id}&rows=schools`, 'rows must be one of'],
      [`scope=teacher&id=${lead.user.id}&extra=1`, 'extra'],
      [`scope=teacher&id=0`, 'positive whole number'],
    ] as const) {
      const res = await t.api({ method: 'GET', url: `/coverage?${query}`, token: lead.token });
      expect(res, query).toHaveStatus(400);
      expect(res.json().message, query).toContain(message);
    }
  });
});

describe('GET /coverage/artifacts', () => {
  it('lists the artifacts behind a cell, newest first, a page at a time', async () => {
    const w = await world();
    const base = `scope=shared&id=${w.sp.id}&row=${w.member.user.id}`;
    const res = await t.api({ method: 'GET', url: `/coverage/artifacts?${base}&column=SEP2`, token: w.lead.token });
    expect(res).toHaveStatus(200);
    const page = CoverageArtifactPageSchema.parse(res.json());
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 50 });
    expect(page.items[0]).toMatchObject({
      kind: 'shared',
      id: w.sa.id,
      title: 'Ramp race',
      portfolio: { id: w.sp.id, name: w.sp.name },
      owner: { id: w.member.user.id },
    });
    const later = await t.api({
      method: 'GET',
      url: `/coverage/artifacts?${base}&column=SEP2&page=2`,
      token: w.lead.token,
    });
    expect(later.json()).toMatchObject({ total: 1, items: [], page: 2 });
    const mine = await t.api({
      method: 'GET',
      url: `/coverage/artifacts?scope=teacher&id=${w.member.user.id}&rows=portfolios&row=${w.portfolio.id}&column=SEP5`,
      token: w.member.token,
    });
    expect(mine.json()).toMatchObject({ total: 1, items: [{ kind: 'artifact', id: w.a1.id, title: 'Pendulum' }] });
  });

  it('refuses a column of another dimension and an unknown one', async () => {
    const w = await world();
    for (const column of ['CCC1', 'SEP9', 'sep1']) {
      const res = await t.api({
        method: 'GET',
        url: `/coverage/artifacts?scope=shared&id=${w.sp.id}&row=${w.member.user.id}&column=${column}`,
        token: w.lead.token,
      });
      expect(res, column).toHaveStatus(400);
    }
  });
});
