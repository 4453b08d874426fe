import type { CounterStore, WindowCount } from '../counters/counterStore.ts';

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
 * A store for @fastify/rate-limit that counts in the installation's counter store (PostgreSQL,
 * or Redis with `REDIS_URL`), one round trip per limited request, so that every server node
 * shares the counts: N per minute is N for the installation, not N per node. Each route counts on
 * its own, as the plugin's own stores do.
 */
export function counterRateLimitStore(counters: CounterStore) {
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

  return class CounterRateLimitStore {
    private readonly prefix: string;

    /** The plugin makes the first store with its settings; `child` makes one per route. */
    constructor(prefix: unknown = '') {
      this.prefix = typeof prefix === 'string' ? prefix : '';
    }

    incr(key: string, done: Answer, timeWindow: number): void {
      void answer(done, () => counters.increment(this.prefix + key, timeWindow));
    }

    read(key: string, done: Answer): void {
      void answer(done, () => counters.read(this.prefix + key));
    }

    child(limit: RouteLimit): CounterRateLimitStore {
      const method = [limit.routeInfo?.method ?? ''].flat().join(',');
      return new CounterRateLimitStore(`${this.prefix}${method} ${limit.routeInfo?.url ?? ''}|`);
    }
  };
}
