import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../scripts/redisServer.mjs';
import { createTestDb } from '../../test/helper.ts';
import { redisClientOf, testRedisUrl } from '../../test/redis.ts';
import { PostgresCounterStore, type CounterStore } from './counterStore.ts';
import { REDIS_KEY_PREFIX, RedisCounterStore } from './redisCounterStore.ts';

const quiet = { warn: () => undefined };

const db = await createTestDb();
const redisUrl = await testRedisUrl();
const redis = new RedisCounterStore(redisUrl, quiet);
await redis.check();
afterAll(() => redis.close());

const stores: [string, CounterStore][] = [
  ['PostgreSQL', new PostgresCounterStore(db)],
  ['Redis', redis],
];

/** A key no other test uses. */
const fresh = () => `test:${randomUUID()}`;

describe.each(stores)('the counter store in %s', (_name, store) => {
  it('counts in a window, and reads without counting', async () => {
    const key = fresh();
    expect(await store.read(key)).toEqual({ count: 0, ttlMs: 0 });
    const counted = [];
    for (let i = 0; i < 3; i += 1) counted.push(await store.increment(key, 60_000));
    expect(counted.map((c) => c.count)).toEqual([1, 2, 3]);
    for (const { ttlMs } of counted) {
      expect(ttlMs).toBeGreaterThan(55_000);
      expect(ttlMs).toBeLessThanOrEqual(60_000);
    }
    const read = await store.read(key);
    expect(read.count).toBe(3);
    expect(read.ttlMs).toBeLessThanOrEqual(counted[2]!.ttlMs);
    expect(await store.read(key)).toMatchObject({ count: 3 });
  });

  it('starts a new window once the last one ended, and keeps its end while it lasts', async () => {
    const key = fresh();
    const first = await store.increment(key, 300);
    expect(first.count).toBe(1);
    // Counting again does not move the window's end.
    await sleep(100);
    const second = await store.increment(key, 300);
    expect(second.count).toBe(2);
    expect(second.ttlMs).toBeLessThan(first.ttlMs);
    await sleep(first.ttlMs + 50);
    expect(await store.read(key)).toEqual({ count: 0, ttlMs: 0 });
    const next = await store.increment(key, 60_000);
    expect(next.count).toBe(1);
    expect(next.ttlMs).toBeGreaterThan(55_000);
  });

  it('counts each key on its own', async () => {
    const [a, b] = [fresh(), fresh()];
    await store.increment(a, 60_000);
    await store.increment(a, 60_000);
    expect((await store.increment(b, 60_000)).count).toBe(1);
    expect((await store.read(a)).count).toBe(2);
    expect((await store.read(b)).count).toBe(1);
  });

  it('counts 50 increments at once exactly: each gets its own count', async () => {
    const key = fresh();
    const counted = await Promise.all(Array.from({ length: 50 }, () => store.increment(key, 60_000)));
    expect(counted.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await store.read(key)).count).toBe(50);
  });
});

describe('the counter store in Redis', () => {
  it('keeps its counters under its own prefix, each expiring with its window', async () => {
    const client = redisClientOf(redisUrl);
    const key = fresh();
    await redis.increment(key, 60_000);
    expect(await client.keys(`*${key}`)).toEqual([REDIS_KEY_PREFIX + key]);
    expect(await client.get(REDIS_KEY_PREFIX + key)).toBe('1');
    const ttl = await client.pttl(REDIS_KEY_PREFIX + key);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('fails a count at once while its Redis is gone, rather than holding the request, and counts again once it is back', async () => {
    const server = await startRedisServer();
    const store = new RedisCounterStore(server.url, quiet);
    try {
      await store.check();
      expect((await store.increment('gone', 60_000)).count).toBe(1);
      await server.stop();
      const started = Date.now();
      await expect(store.increment('gone', 60_000)).rejects.toThrow(/max retries per request|Connection is closed/);
      expect(Date.now() - started).toBeLessThan(5000);
      // The same Redis again (empty: it keeps nothing), on the same port.
      const again = await startRedisServer({ port: server.port });
      try {
        await expect
          .poll(
            () =>
              store.increment('gone', 60_000).then(
                (c) => c.count,
                () => 0,
              ),
            { timeout: 10_000 },
          )
          .toBeGreaterThan(0);
      } finally {
        await again.stop();
      }
    } finally {
      await store.close();
      await server.stop();
    }
  });

  it('refuses to start when Redis cannot be reached, naming REDIS_URL and never its password', async () => {
    const store = new RedisCounterStore('redis://:s3cret@127.0.0.1:1/0', quiet);
    try {
      const failed = await store.check().then(
        () => null,
        (error: unknown) => error as Error,
      );
      expect(failed?.message).toMatch(
        /^The Redis of the request limits at 127\.0\.0\.1:1 \(REDIS_URL\) cannot be reached: .*ECONNREFUSED/,
      );
      expect(failed?.message).not.toContain('s3cret');
    } finally {
      await store.close();
    }
  });
});
