import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** Anything that runs one SQL statement with positional parameters. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
}

/** The database (the embedded PostgreSQL server or the one of `DATABASE_URL`), behind one small interface. */
export interface Db extends Queryable {
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Listens to `NOTIFY` on `channel` over a connection of its own, reconnecting when it is lost:
   * `up` once listening (again), `down` when notifications may be missed until the next `up`.
   * Resolves (once first listening) with a function that stops.
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
}

export interface ListenHandlers {
  message(payload: string): void;
  up(): void;
  down(): void;
}

/** Counts the statements one request runs (for the benchmarks' "queries per request"). */
export const queryCounter = new AsyncLocalStorage<{ count: number }>();

function counted(): void {
  const store = queryCounter.getStore();
  if (store) store.count += 1;
}

class PostgresDb implements Db {
  constructor(
    private readonly pool: pg.Pool,
    private readonly onClose: () => Promise<void>,
  ) {}
  async query<T>(sql: string, params: readonly unknown[] = []) {
    counted();
    const result = await this.pool.query(sql, params as unknown[]);
    return { rows: result.rows as T[] };
  }
  async exec(sql: string) {
    await this.pool.query(sql);
  }
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn({
        async query<R>(sql: string, params: readonly unknown[] = []) {
          counted();
          const r = await client.query(sql, params as unknown[]);
          return { rows: r.rows as R[] };
        },
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  async close() {
    await this.pool.end();
    await this.onClose();
  }
  async listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    const settings = this.pool.options as pg.ClientConfig;
    let client: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | null = null;
    const connect = async (): Promise<void> => {
      const c = new pg.Client(settings);
      c.on('notification', (n) => {
        if (n.channel === channel) handlers.message(n.payload ?? '');
      });
      c.on('error', () => lost(c));
      c.on('end', () => lost(c));
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      client = c;
      handlers.up();
    };
    const lost = (c: pg.Client) => {
      if (client !== c) return;
      client = null;
      handlers.down();
      void c.end().catch(() => undefined);
      schedule();
    };
    const schedule = () => {
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = null;
        if (!stopped) connect().catch(() => schedule());
      }, 1000);
      retry.unref();
    };
    await connect();
    return async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    };
  }
}

// int8 (counts, sums) as JavaScript numbers rather than strings; values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Opens PostgreSQL at `target` (a URL or `pg` settings); `schema` (tests) sets the search path of
 * every connection; `onClose` runs after the pool has ended (the embedded server stops there).
 */
export function openPostgres(
  target: string | pg.ClientConfig,
  options: { schema?: string; max?: number; onClose?: () => Promise<void> } = {},
): Db {
  const pool = new pg.Pool({
    ...(typeof target === 'string' ? { connectionString: target } : target),
    max: options.max ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  pool.on('error', () => undefined); // idle-client errors surface on the next query instead
  return new PostgresDb(pool, options.onClose ?? (async () => undefined));
}
