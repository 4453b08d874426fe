import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createTeacher } from '../../test/factories.ts';
import { buildTestApp, CapturingMailer, testAppOf, type TestApp } from '../../test/helper.ts';

// Two server nodes of one installation: one database, each node its own process state.
const a = await buildTestApp();
const b = await (async (): Promise<TestApp> => {
  const app = await buildApp({ config: a.config, db: a.db, mailer: new CapturingMailer(), logger: false });
  await app.ready();
  return testAppOf(app, a.db, new CapturingMailer(), a.config);
})();

const register = (node: TestApp, token: string, n: number) =>
  node.api({
    method: 'POST',
    url: '/messages/register-token',
    token,
    payload: { platform: 'android', osVersion: '14', fcmToken: `phone-${n}`, devMode: false },
  });

describe('request limits across nodes', () => {
  it('a per-person limit of 30 holds for the installation, not 30 per node', async () => {
    const teacher = await createTeacher(a);
    for (let n = 0; n < 30; n += 1) expect(await register(n % 2 ? a : b, teacher.token, n)).toHaveStatus(200);
    for (const node of [a, b]) {
      const refused = await register(node, teacher.token, 99);
      expect(refused).toBeApiError(429, /^Too many attempts, please try again in \d+ minutes?\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    }
    // Someone else still has a whole budget.
    const other = await createTeacher(a);
    expect(await register(b, other.token, 1)).toHaveStatus(200);
  });

  it('counts each route on its own and forgets a window once it ended', async () => {
    const teacher = await createTeacher(a);
    expect(await register(a, teacher.token, 1)).toHaveStatus(200);
    const { rows } = await a.db.query<{ key: string; count: number }>(
      'SELECT key, count FROM rate_limit_counters WHERE key LIKE $1',
      [`%user:${teacher.user.id}`],
    );
    expect(rows).toEqual([{ key: `POST /api/v1/messages/register-token|user:${teacher.user.id}`, count: 1 }]);
    await a.db.query("UPDATE rate_limit_counters SET window_ends = now() - interval '1 second' WHERE key = $1", [
      rows[0]!.key,
    ]);
    expect(await register(b, teacher.token, 2)).toHaveStatus(200);
    const again = await a.db.query<{ count: number }>('SELECT count FROM rate_limit_counters WHERE key = $1', [
      rows[0]!.key,
    ]);
    expect(again.rows).toEqual([{ count: 1 }]);
  });
});
