import type pg from 'pg';
import type { Db, ListenHandlers, Queryable } from './client.ts';

/**
 * A database handed out while it is still being opened, so that the HTTP application can be built
 * while PostgreSQL starts (on a restart, building it takes about as long as the start). Every call
 * waits until the database is open and migrated, then goes straight to it.
 */
class OpeningDb implements Db {
  private open: Db | undefined;
  private readonly opened: Promise<Db>;

  constructor(opening: Promise<Db>) {
    this.opened = opening.then((db) => (this.open = db));
    // A failed opening is the caller's to report; calls made meanwhile fail with it.
    this.opened.catch(() => undefined);
  }

  private db(): Db | Promise<Db> {
    return this.open ?? this.opened;
  }

  async query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }> {
    return (await this.db()).query<T>(sql, params);
  }
  async exec(sql: string): Promise<void> {
    return (await this.db()).exec(sql);
  }
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return (await this.db()).transaction(fn);
  }
  async close(): Promise<void> {
    return (await this.db()).close();
  }
  async listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
    const db = await this.db();
    if (!db.listen) throw new Error('this database cannot listen to notifications');
    return db.listen(channel, handlers);
  }
  settings(): pg.ClientConfig {
    if (!this.open?.settings) throw new Error('the database is not open yet');
    return this.open.settings();
  }
}

/** The database `opening` will resolve to, usable at once: its calls wait for the opening. */
export function openingDb(opening: Promise<Db>): Db {
  return new OpeningDb(opening);
}
