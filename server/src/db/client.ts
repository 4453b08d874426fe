import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Anything that runs one SQL statement with positional parameters. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
}

/** The database: PGlite (embedded) or a PostgreSQL server, behind one small interface. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Counts the statements one request runs (for the benchmarks' "queries per request"). */
export const queryCounter = new AsyncLocalStorage<{ count: number }>();

function counted(): void {
  const store = queryCounter.getStore();
  if (store) store.count += 1;
}

class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  constructor(private readonly pg: PGlite) {}
  async query<T>(sql: string, params: readonly unknown[] = []) {
    counted();
    const result = await this.pg.query<T>(sql, params as unknown[]);
    return { rows: result.rows };
  }
  async exec(sql: string) {
    await this.pg.exec(sql);
  }
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.pg.transaction(async (tx) =>
      fn({
        async query<R>(sql: string, params: readonly unknown[] = []) {
          counted();
          const result = await tx.query<R>(sql, params as unknown[]);
          return { rows: result.rows };
        },
      }),
    );
  }
  async close() {
    if (!this.pg.closed) await this.pg.close();
  }
}

class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  constructor(private readonly pool: pg.Pool) {}
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
  }
}

// int8 (counts, sums) as JavaScript numbers rather than strings; values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/** Opens PostgreSQL at `url`; `schema` (tests) sets the search path of every connection. */
export function openPostgres(url: string, options: { schema?: string; max?: number } = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  pool.on('error', () => undefined); // idle-client errors surface on the next query instead
  return new PostgresDb(pool);
}

/** Opens the embedded database in `dataDir` (created when missing), or in memory without one. */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Db> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  const instance = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers: { 20: (v: string) => Number(v) },
  });
  return new PgliteDb(instance);
}

/** Wraps an open PGlite instance (tests share one per worker). */
export function wrapPglite(instance: PGlite): Db {
  return new PgliteDb(instance);
}
