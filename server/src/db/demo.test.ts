import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { UserListResponseSchema } from '#schemas/user';
import { buildTestApp } from '../../test/helper.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './demo.ts';
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
    // Scores with the PLC's NGSS rubric, on practices its artifacts are tagged with (the coverage map's levels).
    expect(
      await count(`SELECT count(*)::int AS n FROM scores s JOIN rubric_criteria c ON c.id = s.criterion_id
                   JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id WHERE c.code = ANY (sa.standard_codes)`),
    ).toBe(3);
  });

  it('stores the demo password as an argon2id hash, never as text', async () => {
    const { rows } = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users');
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_hash).not.toContain('spiral-demo');
    }
  });
});
