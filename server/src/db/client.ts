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
   * Listens to `NOTIFY` on `channel` over the database's one listening connection (shared by every
   * channel and listener, so each server process holds one), reconnecting when it is lost:
   * `up` once listening (again), `down` when notifications may be missed until the next `up`.
   * Resolves (once first listening) with a function that stops.
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  /**
   * How to open connections of its own to the same database — for long work (a research export
   * read slowly by its client, in a worker thread) that must never take the connections of
   * requests: plain settings that can be sent to a worker. Absent: PGlite (an import of old data).
   */
  settings?(): pg.ClientConfig;
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
  private readonly listener: Listener;
  constructor(
    private readonly pool: pg.Pool,
    private readonly onClose: () => Promise<void>,
  ) {
    this.listener = new Listener(pool.options as pg.ClientConfig);
  }
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
    await this.listener.close();
    await this.pool.end();
    await this.onClose();
  }
  settings(): pg.ClientConfig {
    const { host, port, user, password, database, connectionString, options, ssl } = this.pool.options as pg.PoolConfig;
    const all = { host, port, user, password, database, connectionString, options, ssl };
    return Object.fromEntries(
      Object.entries(all).filter(([, value]) => value !== undefined && typeof value !== 'function'),
    ) as pg.ClientConfig;
  }
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    return this.listener.add(channel, handlers);
  }
}

/**
 * The one listening connection of a database, shared by every channel and every listener of the
 * process (the principal cache, the notification hub): more listeners cost no more connections.
 * It reconnects a second after it is lost (`down` to everyone, then `up` once listening again) and
 * ends when the last listener stops.
 */
class Listener {
  private client: pg.Client | null = null;
  private listening = new Set<string>();
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private readonly subscribers = new Map<string, Set<ListenHandlers>>();

  constructor(private readonly settings: pg.ClientConfig) {}

  async add(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
    let set = this.subscribers.get(channel);
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(handlers);
    try {
      const client = this.client;
      if (client) {
        if (!this.listening.has(channel)) {
          this.listening.add(channel);
          await client.query(`LISTEN ${channel}`);
        }
        handlers.up();
      } else {
        // Opening tells every listener, this one included, that it is up.
        await this.ensure();
      }
    } catch (error) {
      await this.remove(channel, handlers);
      throw error;
    }
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      await this.remove(channel, handlers);
    };
  }

  private ensure(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const c = new pg.Client(this.settings);
    c.on('notification', (n) => {
      // A copy: a handler may stop listening while the others are told.
      for (const handlers of Array.from(this.subscribers.get(n.channel) ?? [])) handlers.message(n.payload ?? '');
    });
    c.on('error', () => this.lost(c));
    c.on('end', () => this.lost(c));
    const listening = new Set<string>();
    try {
      await c.connect();
      // Channels added while connecting are listened to as well.
      for (let missing = this.missing(listening); missing.length > 0; missing = this.missing(listening)) {
        for (const channel of missing) {
          await c.query(`LISTEN ${channel}`);
          listening.add(channel);
        }
      }
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
    if (this.subscribers.size === 0) {
      // Everyone stopped while it connected.
      await c.end().catch(() => undefined);
      return;
    }
    this.client = c;
    this.listening = listening;
    for (const handlers of this.everyone()) handlers.up();
  }

  /** Every listener now (a copy, so that one may stop while the others are told). */
  private everyone(): ListenHandlers[] {
    return Array.from(this.subscribers.values(), (set) => Array.from(set)).flat();
  }

  private missing(listening: ReadonlySet<string>): string[] {
    return [...this.subscribers.keys()].filter((channel) => !listening.has(channel));
  }

  private lost(c: pg.Client): void {
    if (this.client !== c) return;
    this.client = null;
    this.listening = new Set();
    for (const handlers of this.everyone()) handlers.down();
    void c.end().catch(() => undefined);
    this.schedule();
  }

  private schedule(): void {
    if (this.retry || this.subscribers.size === 0) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.client || this.subscribers.size === 0) return;
      this.ensure().catch(() => this.schedule());
    }, 1000);
    this.retry.unref();
  }

  private async remove(channel: string, handlers: ListenHandlers): Promise<void> {
    const set = this.subscribers.get(channel);
    if (!set?.delete(handlers) || set.size > 0) return;
    this.subscribers.delete(channel);
    const c = this.client;
    if (this.subscribers.size === 0) {
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
      this.client = null;
      this.listening = new Set();
      await c?.end().catch(() => undefined);
    } else if (c && this.listening.delete(channel)) {
      await c.query(`UNLISTEN ${channel}`).catch(() => undefined);
    }
  }

  /** Ends the connection whoever still listens (the database is closing). */
  async close(): Promise<void> {
    this.subscribers.clear();
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const c = this.client;
    this.client = null;
    this.listening = new Set();
    await c?.end().catch(() => undefined);
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
