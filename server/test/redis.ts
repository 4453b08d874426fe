import { Redis } from 'ioredis';
import { afterAll, inject } from 'vitest';

/**
 * `REDIS_URL` for a test app: a numbered database of the run's Redis that no other test app uses
 * (test files run side by side, and their users' ids repeat), handed out by a counter in database 0.
 */
export async function testRedisUrl(): Promise<string> {
  const { url, databases } = inject('redis');
  const client = new Redis(url);
  try {
    const n = await client.incr('pf:test:databases');
    if (n >= databases) throw new Error(`The run's Redis has no database left (it has ${databases}).`);
    return `${url}/${n}`;
  } finally {
    client.disconnect();
  }
}

/** A client of the Redis at `url` for a test to look inside, closed after the file. */
export function redisClientOf(url: string): Redis {
  const client = new Redis(url);
  afterAll(async () => {
    await client.quit();
  });
  return client;
}
