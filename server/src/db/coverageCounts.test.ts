import { describe, expect, it } from 'vitest';
import {
  createArtifact,
  createPortfolio,
  createSharedArtifact,
  createTeacher,
  type TestUser,
} from '../../test/factories.ts';
import { rubricKit } from '../../test/fixtures/rubrics.ts';
import { buildTestApp } from '../../test/helper.ts';
import { STANDARD_BITS } from '../repositories/coverageRepository.ts';

const t = await buildTestApp();
const kit = rubricKit(t);

interface Count {
  owner_id: number;
  shared_portfolio_id: number;
  criterion_id: number;
  level_id: number;
  n: number;
}

/** The counts kept by the triggers (migration 0033), which must be those of the scores as they are. */
async function counted(): Promise<Count[]> {
  const kept = await t.db.query<Count>(
    `SELECT owner_id, shared_portfolio_id, criterion_id, level_id, n FROM score_level_counts ORDER BY 1, 2, 3, 4`,
  );
  const actual = await t.db.query<Count>(
    `SELECT sa.owner_id, sa.shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int AS n
     FROM scores s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  );
  expect(kept.rows).toEqual(actual.rows);
  return kept.rows;
}

const tagged = (name: string, ...tags: string[]) => ({
  artifactName: name,
  learningGoal: 'Forces change motion.',
  standardFrameworkTags: tags,
});

describe('the tags’ codes as bits (migration 0033)', () => {
  it('keeps the same codes as bits (migration 0033), in the order the map counts them', async () => {
    const { rows } = await t.db.query<{ code: string; bits: number }>(
      `SELECT code, standard_bits(ARRAY[code]) AS bits FROM unnest($1::text[]) AS c (code)`,
      [STANDARD_BITS],
    );
    expect(rows).toEqual(STANDARD_BITS.map((code, i) => ({ code, bits: 2 ** i })));
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const a = await createArtifact(t, portfolio, { responses: tagged('Bits', 'Patterns', 'PS2.A: Forces and Motion') });
    const sa = await createSharedArtifact(t, (await kit.team()).sp, teacher, {
      responses: tagged('Shared bits', 'Engaging in argument from evidence'),
    });
    const read = async () =>
      (
        await t.db.query<{ a: number; s: number }>(
          `SELECT (SELECT standard_bits FROM artifacts WHERE id = $1) AS a,
                  (SELECT standard_bits FROM shared_artifacts WHERE id = $2) AS s`,
          [a.id, sa.id],
        )
      ).rows[0]!;
    const bit = (code: string) => 2 ** STANDARD_BITS.indexOf(code);
    expect(await read()).toEqual({ a: bit('CCC1') + bit('PS2'), s: bit('SEP7') });
    await t.db.query(`UPDATE artifacts SET responses = $2::jsonb WHERE id = $1`, [
      a.id,
      JSON.stringify(tagged('Bits', 'Developing and using models')),
    ]);
    await t.db.query(`UPDATE shared_artifacts SET responses = responses - 'standardFrameworkTags' WHERE id = $1`, [
      sa.id,
    ]);
    expect(await read()).toEqual({ a: bit('SEP2'), s: 0 });
  });
});

/** The personal portfolios' tag counts (migration 0033), which must be those of the artifacts as they are. */
async function tagCounts(): Promise<{ portfolio_id: number; n: number; tagged: number[] }[]> {
  const kept = await t.db.query<{ portfolio_id: number; n: number; tagged: number[] }>(
    `SELECT portfolio_id, n, tagged FROM portfolio_tag_counts WHERE n <> 0 OR EXISTS (SELECT 1 FROM unnest(tagged) x WHERE x <> 0) ORDER BY 1`,
  );
  const actual = await t.db.query<{ portfolio_id: number; n: number; tagged: number[] }>(
    `SELECT a.portfolio_id, count(*)::int AS n,
            ARRAY(SELECT count(*) FILTER (WHERE (b.standard_bits >> i) & 1 = 1)::int
                  FROM artifacts b, generate_series(0, 26) AS i WHERE b.portfolio_id = a.portfolio_id GROUP BY i ORDER BY i) AS tagged
     FROM artifacts a GROUP BY a.portfolio_id ORDER BY 1`,
  );
  expect(kept.rows).toEqual(actual.rows);
  return kept.rows;
}

const bitOf = (code: string) => STANDARD_BITS.indexOf(code);

describe('the personal portfolios’ tag counts (migration 0033)', () => {
  it('follow artifacts created, saved with other tags or the same, shared, deleted, and their portfolio deleted', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const mine = async () => (await tagCounts()).find((r) => r.portfolio_id === portfolio.id);
    const created = await t.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/responses`,
      token: teacher.token,
      payload: { parkingLot: false, responses: tagged('Ramp', 'Patterns', 'Developing and using models') },
    });
    expect(created).toHaveStatus(200);
    const id = (created.json() as { id: number }).id;
    await createArtifact(t, portfolio, { responses: tagged('Magnets', 'Patterns') });
    let row = (await mine())!;
    expect(row.n).toBe(2);
    expect([row.tagged[bitOf('CCC1')], row.tagged[bitOf('SEP2')], row.tagged[bitOf('SEP7')]]).toEqual([2, 1, 0]);
    const merge = (responses: object) =>
      t.api({
        method: 'PUT',
        url: `/portfolios/${portfolio.id}/artifacts/${id}/responses`,
        token: teacher.token,
        payload: { responses },
      });
    expect(await merge({ standardFrameworkTags: ['Engaging in argument from evidence'] })).toHaveStatus(200);
    expect(await merge({ learningGoal: 'Magnets pull.' })).toHaveStatus(200);
    row = (await mine())!;
    expect([row.n, row.tagged[bitOf('CCC1')], row.tagged[bitOf('SEP2')], row.tagged[bitOf('SEP7')]]).toEqual([
      2, 1, 0, 1,
    ]);
    const sp = (await kit.team()).sp;
    await t.db.query('INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)', [
      sp.id,
      teacher.user.id,
    ]);
    const shared = await t.api({
      method: 'POST',
      url: `/artifacts/${id}/share`,
      token: teacher.token,
      payload: { sharedPortfolioId: sp.id },
    });
    expect(shared).toHaveStatus(200);
    expect((await mine())!.n).toBe(2);
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${id}`, token: teacher.token })).toHaveStatus(200);
    expect((await mine())!.tagged[bitOf('SEP7')]).toBe(0);
    await t.db.query('DELETE FROM artifacts WHERE portfolio_id = $1', [portfolio.id]);
    expect(await mine()).toBeUndefined();
    await t.db.query('DELETE FROM portfolios WHERE id = $1', [portfolio.id]);
    const { rows } = await t.db.query('SELECT 1 FROM portfolio_tag_counts WHERE portfolio_id = $1', [portfolio.id]);
    expect(rows).toEqual([]);
  });

  it('move an artifact’s counts with it, and count several artifacts of one statement', async () => {
    const teacher = await createTeacher(t);
    const from = await createPortfolio(t, teacher);
    const to = await createPortfolio(t, teacher);
    const a = await createArtifact(t, from, { responses: tagged('Moved', 'Cause and Effect') });
    await t.db.query('UPDATE artifacts SET portfolio_id = $2 WHERE id = $1', [a.id, to.id]);
    await t.db.query(
      `INSERT INTO artifacts (portfolio_id, structure, responses)
       SELECT $1::int, structure, responses FROM artifacts WHERE id = $2 UNION ALL SELECT $3::int, structure, responses FROM artifacts WHERE id = $2`,
      [from.id, a.id, to.id],
    );
    const rows = await tagCounts();
    expect(rows.find((r) => r.portfolio_id === from.id)!.tagged[bitOf('CCC2')]).toBe(1);
    expect(rows.find((r) => r.portfolio_id === to.id)).toMatchObject({ n: 2 });
    await t.db.query('TRUNCATE artifacts CASCADE');
    expect(await tagCounts()).toEqual([]);
  });
});

const total = (rows: Count[]) => rows.reduce((sum, r) => sum + r.n, 0);

/** A team with its NGSS rubric, the member's artifact scored twice on one level and once on another. */
async function scoredTeam() {
  const team = await kit.team();
  const { lead, peer, sa, rubric } = team;
  const given = [
    await kit.scored(lead, { sharedArtifact: sa.id, ...kit.first(rubric, 1, 2) }),
    await kit.scored(peer, { sharedArtifact: sa.id, ...kit.first(rubric, 1, 2) }),
    await kit.scored(peer, { sharedArtifact: sa.id, ...kit.first(rubric, 3, 0) }),
  ];
  return { ...team, given };
}

const del = (who: TestUser, id: number) => t.api({ method: 'DELETE', url: `/scores/${id}`, token: who.token });

describe('the scores counted per owner, portfolio, criterion and level (migration 0033)', () => {
  it('counts scores as they are given and deleted, and forgets a count that reaches 0', async () => {
    const { lead, peer, member, sp, rubric, given } = await scoredTeam();
    const mine = async () => (await counted()).filter((r) => r.shared_portfolio_id === sp.id);
    expect((await mine()).map((r) => [r.owner_id, r.criterion_id, r.level_id, r.n])).toEqual([
      [member.user.id, rubric.criteria[1]!.id, rubric.criteria[1]!.levels[2]!.id, 2],
      [member.user.id, rubric.criteria[3]!.id, rubric.criteria[3]!.levels[0]!.id, 1],
    ]);
    expect(await del(lead, given[0]!.id)).toHaveStatus(200);
    expect(await del(peer, given[2]!.id)).toHaveStatus(200);
    expect((await mine()).map((r) => [r.criterion_id, r.n])).toEqual([[rubric.criteria[1]!.id, 1]]);
    expect(await del(peer, given[1]!.id)).toHaveStatus(200);
    expect(await mine()).toEqual([]);
  });

  it('subtracts the scores of a shared artifact deleted with them, once', async () => {
    const { member, sp, sa } = await scoredTeam();
    const other = await scoredTeam();
    expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: member.token })).toHaveStatus(200);
    const rows = await counted();
    expect(rows.filter((r) => r.shared_portfolio_id === sp.id)).toEqual([]);
    expect(total(rows.filter((r) => r.shared_portfolio_id === other.sp.id))).toBe(3);
  });

  it('follows several scores in one statement, their scorer deleted, a change of level and of artifact', async () => {
    const { peer, lead, member, sp, sa, rubric } = await scoredTeam();
    const second = await createSharedArtifact(t, sp, peer);
    await t.db.query(
      `INSERT INTO scores (shared_artifact_id, version_id, criterion_id, level_id, scorer_id)
       SELECT a.id, s.version_id, s.criterion_id, s.level_id, s.scorer_id
       FROM scores s CROSS JOIN (VALUES ($1::int), ($2::int)) AS a (id) WHERE s.shared_artifact_id = $1`,
      [sa.id, second.id],
    );
    expect(total((await counted()).filter((r) => r.shared_portfolio_id === sp.id))).toBe(9);
    await t.db.query(`UPDATE scores SET level_id = $2 WHERE criterion_id = $1`, [
      rubric.criteria[1]!.id,
      rubric.criteria[1]!.levels[0]!.id,
    ]);
    await t.db.query(`UPDATE scores SET shared_artifact_id = $2 WHERE shared_artifact_id = $1 AND scorer_id = $3`, [
      sa.id,
      second.id,
      lead.user.id,
    ]);
    const moved = (await counted()).filter((r) => r.shared_portfolio_id === sp.id);
    expect(moved.filter((r) => r.owner_id === member.user.id).map((r) => r.n)).toEqual([2, 2]);
    expect(moved.filter((r) => r.owner_id === peer.user.id).map((r) => r.n)).toEqual([4, 1]);
    expect(total(moved)).toBe(9);
    const scorer = await createTeacher(t);
    await t.db.query(`UPDATE scores SET scorer_id = $2 WHERE scorer_id = $1`, [peer.user.id, scorer.user.id]);
    await t.db.query(`DELETE FROM users WHERE id = $1`, [scorer.user.id]);
    // The peer's scores went with their scorer; the lead's three are all on the peer's artifact now.
    expect(
      (await counted()).filter((r) => r.shared_portfolio_id === sp.id).map((r) => [r.owner_id, r.criterion_id, r.n]),
    ).toEqual([[peer.user.id, rubric.criteria[1]!.id, 3]]);
  });

  it('moves the counts of a shared artifact given to another owner or portfolio', async () => {
    const { peer, sp, sa } = await scoredTeam();
    const other = await scoredTeam();
    await t.db.query(`UPDATE shared_artifacts SET owner_id = $2 WHERE id = $1`, [sa.id, peer.user.id]);
    expect((await counted()).filter((r) => r.shared_portfolio_id === sp.id).map((r) => r.owner_id)).toEqual([
      peer.user.id,
      peer.user.id,
    ]);
    await t.db.query(`UPDATE shared_artifacts SET shared_portfolio_id = $2 WHERE id = $1`, [sa.id, other.sp.id]);
    const rows = await counted();
    expect(rows.filter((r) => r.shared_portfolio_id === sp.id)).toEqual([]);
    expect(total(rows.filter((r) => r.shared_portfolio_id === other.sp.id))).toBe(6);
  });

  it('empties with the scores', async () => {
    await scoredTeam();
    expect((await counted()).length).toBeGreaterThan(0);
    await t.db.query('TRUNCATE scores CASCADE');
    expect(await counted()).toEqual([]);
  });
});
