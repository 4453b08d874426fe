import type { Queryable } from '../db/client.ts';
import { rateLimitRepository, type WindowCount } from '../repositories/rateLimitRepository.ts';

export type { WindowCount } from '../repositories/rateLimitRepository.ts';

/**
 * Where the limits that hold for every node together are counted: fixed windows of counts, one
 * per key, shared by every node of the installation. PostgreSQL by default; Redis when
 * `REDIS_URL` is set (decision 039).
 */
export interface CounterStore {
  readonly kind: 'postgres' | 'redis';
  /** Counts one more for `key` in its window of `windowMs` (a new window once the last one ended). */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** The count of `key` without counting (0, and 0 ms, outside a window). */
  read(key: string): Promise<WindowCount>;
  /** Resolves when the store can be used; rejects with a message that names the setting to fix. */
  check(): Promise<void>;
  /** Lets go of the store's connections (not the database's: its owner closes it). */
  close(): Promise<void>;
}

/** The counters in PostgreSQL (`rate_limit_counters`), in the server's own database. */
export class PostgresCounterStore implements CounterStore {
  readonly kind = 'postgres';
  constructor(private readonly db: Queryable) {}

  increment(key: string, windowMs: number): Promise<WindowCount> {
    return rateLimitRepository.increment(this.db, key, windowMs);
  }

  read(key: string): Promise<WindowCount> {
    return rateLimitRepository.read(this.db, key);
  }

  async check(): Promise<void> {
    // The database has checks of its own before the server starts.
  }

  async close(): Promise<void> {
    // The database belongs to the server, which closes it after the app.
  }
}

/** What the Redis store reports a lost connection to. */
export interface CounterLog {
  warn(details: object, message: string): void;
}

/** The counter store the configuration asks for: Redis when `REDIS_URL` is set, else PostgreSQL. */
export async function counterStoreOf(
  config: { redisUrl: string | null },
  db: Queryable,
  log: CounterLog,
): Promise<CounterStore> {
  if (!config.redisUrl) return new PostgresCounterStore(db);
  const { RedisCounterStore } = await import('./redisCounterStore.ts');
  return new RedisCounterStore(config.redisUrl, log);
}
