import { Redis, type Result } from 'ioredis';
import type { CounterLog, CounterStore, WindowCount } from './counterStore.ts';

/** Every key of the counters starts with this, so that one Redis can serve other uses too. */
export const REDIS_KEY_PREFIX = 'pf:limit:';

/**
 * One more in the key's window, atomically: a key without an expiry (the first of a window) gets
 * the window's length; answers the count and the milliseconds left.
 */
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

/** The key's count and the milliseconds left, or 0 and 0 outside a window. */
const READ = `
local count = redis.call('GET', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if not count or ttl < 0 then return {0, 0} end
return {tonumber(count), ttl}`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    pfLimitIncrement(key: string, windowMs: number): Result<[number, number], Context>;
    pfLimitRead(key: string): Result<[number, number], Context>;
  }
}

/**
 * The counters in Redis (`REDIS_URL`): each window is a key that expires with it, counted by one
 * script (one round trip, atomic), so that every node sharing the Redis shares the counts.
 */
export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis';
  private readonly redis: Redis;
  /** The server as the messages name it (host and port: never the password of the URL). */
  private readonly where: string;
  /** The connection's last error: what a failed start tells (the command only learns that the connection closed). */
  private lastError: Error | null = null;

  constructor(url: string, log: CounterLog) {
    this.where = new URL(url).host;
    this.redis = new Redis(url, {
      // Connected by `check()` when the server starts, so that a Redis out of reach stops the start.
      lazyConnect: true,
      connectTimeout: 5000,
      // A request waits for a lost connection a little, not minutes: past that its limit fails.
      maxRetriesPerRequest: 2,
    });
    this.redis.defineCommand('pfLimitIncrement', { numberOfKeys: 1, lua: INCREMENT });
    this.redis.defineCommand('pfLimitRead', { numberOfKeys: 1, lua: READ });
    // Reported once per outage; the client reconnects by itself.
    let lost = false;
    this.redis.on('error', (error: Error) => {
      this.lastError = error;
      if (lost) return;
      lost = true;
      log.warn({ err: error, redis: this.where }, 'the Redis of the request limits (REDIS_URL) cannot be reached');
    });
    this.redis.on('ready', () => {
      lost = false;
      this.lastError = null;
    });
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttlMs] = await this.redis.pfLimitIncrement(REDIS_KEY_PREFIX + key, Math.max(1, Math.ceil(windowMs)));
    return { count, ttlMs };
  }

  async read(key: string): Promise<WindowCount> {
    const [count, ttlMs] = await this.redis.pfLimitRead(REDIS_KEY_PREFIX + key);
    return { count, ttlMs };
  }

  async check(): Promise<void> {
    try {
      if (this.redis.status === 'wait') await this.redis.connect();
      await this.redis.ping();
    } catch (error) {
      const cause = this.lastError ?? error;
      const reason = (cause instanceof Error ? cause.message || cause.name : String(cause)).replace(/\.$/, '');
      throw new Error(`The Redis of the request limits at ${this.where} (REDIS_URL) cannot be reached: ${reason}.`, {
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
  }
}
