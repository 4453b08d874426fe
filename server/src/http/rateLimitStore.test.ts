import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { REDIS_KEY_PREFIX } from '../counters/redisCounterStore.ts';
import { createTeacher } from '../../test/factories.ts';
import { buildTestApp, CapturingMailer, testAppOf, testConfig, type TestApp } from '../../test/helper.ts';
import { redisClientOf, testRedisUrl } from '../../test/redis.ts';

/** Another server node of the installation of `node`: the same configuration and database, its own process state. */
async function anotherNode(node: TestApp): Promise<TestApp> {
  const app = await buildApp({ config: node.config, db: node.db, mailer: new CapturingMailer(), logger: false });
  await app.ready();
  afterAll(() => app.close());
  return testAppOf(app, node.db, new CapturingMailer(), node.config);
}

// Two server nodes of one installation: one database, each node its own process state.
const a = await buildTestApp();
const b = await anotherNode(a);

// Two nodes of another installation that counts its limits in Redis (REDIS_URL).
const redisUrl = await testRedisUrl();
const c = await buildTestApp({ redisUrl });
const d = await anotherNode(c);
const redis = redisClientOf(redisUrl);

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

describe('request limits across nodes, counted in Redis (REDIS_URL)', () => {
  it('a per-person limit of 30 holds for the installation, not 30 per node', async () => {
    const teacher = await createTeacher(c);
    for (let n = 0; n < 30; n += 1) expect(await register(n % 2 ? c : d, teacher.token, n)).toHaveStatus(200);
    for (const node of [c, d]) {
      const refused = await register(node, teacher.token, 99);
      expect(refused).toBeApiError(429, /^Too many attempts, please try again in \d+ minutes?\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    }
    const other = await createTeacher(c);
    expect(await register(d, other.token, 1)).toHaveStatus(200);
    // Nothing of it in the database.
    const { rows } = await c.db.query('SELECT key FROM rate_limit_counters');
    expect(rows).toEqual([]);
  });

  it('counts each route on its own under the prefix, and forgets a window once it ended', async () => {
    const teacher = await createTeacher(c);
    expect(await register(c, teacher.token, 1)).toHaveStatus(200);
    const key = `${REDIS_KEY_PREFIX}POST /api/v1/messages/register-token|user:${teacher.user.id}`;
    expect(await redis.keys(`*user:${teacher.user.id}`)).toEqual([key]);
    expect(await redis.get(key)).toBe('1');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
    // The window ends: Redis drops its key.
    await redis.pexpire(key, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await register(d, teacher.token, 2)).toHaveStatus(200);
    expect(await redis.get(key)).toBe('1');
  });

  it('the login throttle holds across the nodes: failures on one count on the other', async () => {
    const teacher = await createTeacher(c);
    const address = '10.77.0.1';
    const login = (node: TestApp, password: string) =>
      node.api({
        method: 'POST',
        url: '/auth/local',
        payload: { identifier: teacher.user.email, password },
        remoteAddress: address,
      });
    // Five free failures, on either node.
    for (let n = 0; n < 5; n += 1)
      expect(await login(n % 2 ? c : d, `guess ${n}`)).toBeApiError(400, 'Identifier or password invalid.', {
        nested: true,
      });
    // Then every node makes the address wait, even with the right password.
    for (const node of [c, d])
      expect(await login(node, teacher.password)).toBeApiError(
        429,
        /^Too many failed login attempts\. Please wait \d+ seconds? and try again\.$/,
        { nested: true },
      );
    // The address's requests to the route were counted in Redis for both nodes together.
    expect(await redis.get(`${REDIS_KEY_PREFIX}POST /api/v1/auth/local|${address}`)).toBe('7');
  });
});

describe('a start with REDIS_URL', () => {
  it('stops when Redis cannot be reached, with a message naming REDIS_URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const app = await buildApp({
      config: testConfig({ redisUrl: `redis://127.0.0.1:${port}` }),
      db: a.db,
      mailer: new CapturingMailer(),
      logger: false,
    });
    try {
      await expect(app.ready()).rejects.toThrow(
        new RegExp(
          `^The Redis of the request limits at 127\\.0\\.0\\.1:${port} \\(REDIS_URL\\) cannot be reached: .*ECONNREFUSED`,
        ),
      );
    } finally {
      await app.close();
    }
  });
});
