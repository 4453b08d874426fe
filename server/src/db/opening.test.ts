import { describe, expect, it } from 'vitest';
import type { Db, Queryable } from './client.ts';
import { openingDb } from './opening.ts';

/** A database that records its calls. */
function recordingDb(calls: string[]): Db {
  return {
    async query<T>(sql: string) {
      calls.push(sql);
      return { rows: [{ sql }] as T[] };
    },
    async exec(sql: string) {
      calls.push(`exec ${sql}`);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      calls.push('transaction');
      return fn(this);
    },
    async close() {
      calls.push('close');
    },
    settings: () => ({ host: '/run/db', database: 'portal' }),
  };
}

describe('a database handed out while it opens', () => {
  it('holds every call until the database is open, then runs them in order', async () => {
    const calls: string[] = [];
    let open = (_db: Db) => undefined as void;
    const db = openingDb(new Promise<Db>((resolve) => (open = resolve)));
    const first = db.query('SELECT 1');
    const second = db.transaction((tx) => tx.query('SELECT 2'));
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toEqual([]);
    expect(() => db.settings!()).toThrow('not open yet');
    open(recordingDb(calls));
    await expect(first).resolves.toEqual({ rows: [{ sql: 'SELECT 1' }] });
    await expect(second).resolves.toEqual({ rows: [{ sql: 'SELECT 2' }] });
    expect(calls).toEqual(['SELECT 1', 'transaction', 'SELECT 2']);
    expect(db.settings!()).toEqual({ host: '/run/db', database: 'portal' });
  });

  it('fails the calls with the opening’s error when the database cannot open', async () => {
    const db = openingDb(Promise.reject(new Error('The embedded database could not start')));
    await expect(db.query('SELECT 1')).rejects.toThrow('could not start');
    await expect(db.exec('SELECT 1')).rejects.toThrow('could not start');
  });

  it('cannot listen through a database that has no notifications', async () => {
    const db = openingDb(Promise.resolve(recordingDb([])));
    await expect(db.listen!('notifications', { message() {}, up() {}, down() {} })).rejects.toThrow('cannot listen');
  });
});
