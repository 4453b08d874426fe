import type { Queryable } from '../db/client.ts';
import { rateLimitRepository, type WindowCount } from '../repositories/rateLimitRepository.ts';

type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The route a child store counts for: @fastify/rate-limit passes the route's limit settings with
 * the route itself as `routeInfo` (its typings describe the route's options).
 */
interface RouteLimit {
  url?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A store for @fastify/rate-limit that counts in PostgreSQL (`rate_limit_counters`), one
 * statement per limited request, so that every server node sharing the database shares the
 * counts: N per minute is N for the installation, not N per node. Each route counts on its own,
 * as the plugin's own stores do.
 */
export function postgresRateLimitStore(db: Queryable) {
  /** Runs the count, then answers the plugin's callback (outside the promise chain). */
  const answer = async (done: Answer, counting: () => Promise<WindowCount>): Promise<void> => {
    let counted: WindowCount;
    try {
      counted = await counting();
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    done(null, { current: counted.count, ttl: counted.ttlMs });
  };

  return class PostgresRateLimitStore {
    private readonly prefix: string;

    /** The plugin makes the first store with its settings; `child` makes one per route. */
    constructor(prefix: unknown = '') {
      this.prefix = typeof prefix === 'string' ? prefix : '';
    }

    incr(key: string, done: Answer, timeWindow: number): void {
      void answer(done, () => rateLimitRepository.increment(db, this.prefix + key, timeWindow));
    }

    read(key: string, done: Answer): void {
      void answer(done, () => rateLimitRepository.read(db, this.prefix + key));
    }

    child(limit: RouteLimit): PostgresRateLimitStore {
      const method = [limit.routeInfo?.method ?? ''].flat().join(',');
      return new PostgresRateLimitStore(`${this.prefix}${method} ${limit.routeInfo?.url ?? ''}|`);
    }
  };
}
