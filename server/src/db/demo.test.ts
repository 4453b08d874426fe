import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { UserListResponseSchema } from '#schemas/user';
import { buildTestApp } from '../../test/helper.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './demo.ts';
import { drawDemoMedia, linkDemoMedia } from './demoMedia.ts';
import { DEMO_VIDEO_SECONDS } from './demoScores.ts';
import { isEmpty } from './seed.ts';

describe('seedDemo', async () => {
  const t = await buildTestApp();

  it('fills an empty database with the demo accounts of the architecture, who log in with the demo password', async () => {
    expect(await isEmpty(t.db)).toBe(true);
    await seedDemo(t.db);
    expect(await isEmpty(t.db)).toBe(false);

    const expected = [
      {
        email: 'researcher@example.org',
        username: 'Rita Researcher',
        role: { id: 4, name: 'Researcher', type: 'researcher' },
      },
      { email: 'lead@example.org', username: 'Lee Lead', role: { id: 3, name: 'PLC Lead', type: 'plc_lead' } },
      {
        email: 'teacher@example.org',
        username: 'Tess Teacher',
        role: { id: 1, name: 'Teacher', type: 'authenticated' },
      },
      {
        email: 'teacher2@example.org',
        username: 'Theo Teacher',
        role: { id: 1, name: 'Teacher', type: 'authenticated' },
      },
    ];
    expect(DEMO_PASSWORD).toBe('spiral-demo');
    expect(DEMO_ACCOUNTS.map((a) => a.email)).toEqual(expected.map((e) => e.email));
    let researcherToken = '';
    for (const account of expected) {
      const res = await t.api({
        method: 'POST',
        url: '/auth/local',
        payload: { identifier: account.email, password: 'spiral-demo' },
      });
      expect(res).toHaveStatus(200);
      const { jwt, user } = AuthResponseSchema.parse(res.json());
      expect(user).toMatchObject({
        email: account.email,
        username: account.username,
        blocked: false,
        role: account.role,
      });
      if (account.role.type === 'researcher') researcherToken = jwt;
      const byName = await t.api({
        method: 'POST',
        url: '/auth/local',
        payload: { identifier: account.username, password: 'spiral-demo' },
      });
      expect(byName.statusCode).toBe(200);
    }
    const users = UserListResponseSchema.parse(
      (await t.api({ method: 'GET', url: '/users', token: researcherToken })).json(),
    );
    expect(users.map((u) => u.email)).toEqual(expected.map((e) => e.email));
  });

  it('adds the living example: portfolios, artifacts, a shared portfolio with members, comments, reactions, an invitation, rubric scores', async () => {
    const count = async (sql: string) => (await t.db.query<{ n: number }>(sql)).rows[0]!.n;
    expect(await count('SELECT count(*)::int AS n FROM portfolios WHERE id = 1 AND owner_id IS NULL')).toBe(1);
    expect(
      await count(
        `SELECT count(DISTINCT owner_id)::int AS n FROM portfolios p JOIN users u ON u.id = p.owner_id WHERE u.role_id = 1`,
      ),
    ).toBe(2);
    expect(await count('SELECT count(*)::int AS n FROM artifacts WHERE parking_lot')).toBeGreaterThan(0);
    expect(await count('SELECT count(*)::int AS n FROM artifacts WHERE NOT parking_lot')).toBeGreaterThan(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM shared_portfolio_members m JOIN shared_portfolios s ON s.id = m.shared_portfolio_id
                   JOIN users o ON o.id = s.owner_id WHERE o.email = 'lead@example.org' AND s.name = 'Grades 5–7 Science PLC'`),
    ).toBe(3);
    expect(await count('SELECT count(*)::int AS n FROM shared_artifacts')).toBeGreaterThan(0);
    expect(await count('SELECT count(*)::int AS n FROM comments')).toBeGreaterThan(0);
    expect(await count('SELECT count(*)::int AS n FROM reactions')).toBeGreaterThan(0);
    expect(await count('SELECT count(*)::int AS n FROM invitations')).toBe(1);
    // Scores with the PLC's NGSS rubric, on practices its artifacts are tagged with (the coverage map's
    // levels): the lead's on the food web's models; the lesson video's come with the demo's media (below).
    expect(
      await count(`SELECT count(*)::int AS n FROM scores s JOIN rubric_criteria c ON c.id = s.criterion_id
                   JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id WHERE c.code = ANY (sa.standard_codes)`),
    ).toBe(1);
  });

  it('gives the demo PLC the NGSS rubric, chosen, with the lead’s score on Theo’s shared artifact (Theo is told)', async () => {
    const { rows } = await t.db.query<{ name: string; plc: string; versions: number; criteria: number }>(
      `SELECT r.name, sp.name AS plc, (SELECT count(*) FROM rubric_versions v WHERE v.rubric_id = r.id)::int AS versions,
         (SELECT count(*) FROM rubric_criteria c JOIN rubric_versions v ON v.id = c.version_id WHERE v.rubric_id = r.id)::int AS criteria
       FROM shared_portfolio_rubrics spr JOIN rubrics r ON r.id = spr.rubric_id JOIN shared_portfolios sp ON sp.id = spr.shared_portfolio_id`,
    );
    expect(rows).toEqual([
      { name: 'NGSS science and engineering practices', plc: 'Grades 5–7 Science PLC', versions: 1, criteria: 8 },
    ]);
    const scores = await t.db.query<{ scorer: string; owner: string; told: string | null }>(
      `SELECT u.email AS scorer, o.email AS owner, (SELECT n.kind FROM notifications n WHERE n.score_id = s.id) AS told
       FROM scores s JOIN users u ON u.id = s.scorer_id JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
       JOIN users o ON o.id = sa.owner_id`,
    );
    expect(scores.rows).toEqual([{ scorer: 'lead@example.org', owner: 'teacher2@example.org', told: 'score' }]);
  });

  it('adds the lesson video to the PLC’s “Ramp races” with scores at moments within it, by the lead and a second member', async () => {
    await linkDemoMedia(t.db, await drawDemoMedia(t.db, t.config));
    const video = await t.db.query<{ id: number; duration: number; caption: string }>(
      `SELECT m.id, m.duration, l.caption FROM shared_artifact_media l JOIN media_files m ON m.id = l.media_id
       JOIN shared_artifacts sa ON sa.id = l.shared_artifact_id
       WHERE m.kind = 'video' AND sa.responses->>'artifactName' = 'Ramp races: predicting speed'`,
    );
    expect(video.rows).toHaveLength(1);
    expect(Number(video.rows[0]!.duration)).toBeCloseTo(DEMO_VIDEO_SECONDS, 0);
    expect(video.rows[0]!.caption).toBe('B');
    const moments = await t.db.query<{ scorer: string; start: number; end: number | null; told: number }>(
      `SELECT u.email AS scorer, s.moment_start AS start, s.moment_end AS end,
         (SELECT count(*) FROM notifications n JOIN users o ON o.id = n.user_id
           WHERE n.score_id = s.id AND o.email = 'teacher@example.org')::int AS told
       FROM scores s JOIN users u ON u.id = s.scorer_id WHERE s.media_id = $1 ORDER BY s.id`,
      [video.rows[0]!.id],
    );
    expect(new Set(moments.rows.map((m) => m.scorer))).toEqual(new Set(['lead@example.org', 'teacher2@example.org']));
    expect(moments.rows.length).toBeGreaterThanOrEqual(4);
    for (const m of moments.rows) {
      expect(m.start).toBeGreaterThanOrEqual(0);
      expect(m.end ?? m.start).toBeLessThanOrEqual(Number(video.rows[0]!.duration));
      expect(m.told).toBe(1);
    }
    // Two people scored the same moment on the same criterion: agreement has pairs.
    const pairs = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scores a JOIN scores b ON a.criterion_id = b.criterion_id AND a.media_id = b.media_id
         AND a.moment_start = b.moment_start AND a.scorer_id < b.scorer_id`,
    );
    expect(pairs.rows[0]!.n).toBeGreaterThanOrEqual(2);
  });

  it('stores the demo password as an argon2id hash, never as text', async () => {
    const { rows } = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users');
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_hash).not.toContain('spiral-demo');
    }
  });
});
