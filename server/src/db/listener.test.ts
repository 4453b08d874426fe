import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { CapturingMailer, createTestDb, testConfig } from '../../test/helper.ts';
import { until } from '../../test/until.ts';
import type { Db } from './client.ts';

/**
 * The listening connection: one per database object whatever listens (the principal cache and the
 * notification hub, on their channels), reconnected when lost, and gone once the app has closed —
 * the embedded test server allows few connections, and every test app would otherwise keep some.
 */

/**
 * The connections of this test's database object that wait in `LISTEN` (the test files of a run
 * may share one database: each names its connections, `application_name`).
 */
async function listeners(admin: Db, database: string): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = $1 AND application_name = current_setting('application_name')
        AND query ILIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
    [database],
  );
  return rows[0]!.n;
}

describe('the listening connection', async () => {
  const db = await createTestDb();
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  const database = rows[0]!.name;

  it('is one per database for every channel and listener, and closes with the app', async () => {
    const before = await listeners(db, database);
    const app = await buildApp({ config: testConfig(), db, mailer: new CapturingMailer(), logger: false });
    await app.ready();
    // The principal cache and the notification hub listen on two channels over one connection.
    await until(async () => (await listeners(db, database)) === before + 1, { what: 'one listening connection' });
    const second = await buildApp({ config: testConfig(), db, mailer: new CapturingMailer(), logger: false });
    await second.ready();
    expect(await listeners(db, database)).toBe(before + 1);
    await second.close();
    await app.close();
    await until(async () => (await listeners(db, database)) === before, {
      what: 'no listening connection after app.close()',
    });
  });

  it('delivers each channel to its listeners, says down and up when the connection is lost, and listens again', async () => {
    const heard: string[] = [];
    const handlers = (name: string) => ({
      message: (payload: string) => heard.push(`${name}:${payload}`),
      up: () => heard.push(`${name}:up`),
      down: () => heard.push(`${name}:down`),
    });
    const stopA = await db.listen!('channel_a', handlers('a'));
    const stopB = await db.listen!('channel_b', handlers('b'));
    expect(heard).toEqual(['a:up', 'b:up']);
    await db.query(`SELECT pg_notify('channel_a', 'one'), pg_notify('channel_b', 'two')`);
    await until(async () => heard.length === 4, { what: 'both notifications' });
    expect(heard.slice(2)).toEqual(['a:one', 'b:two']);

    heard.length = 0;
    await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = $1 AND application_name = current_setting('application_name') AND query ILIKE 'LISTEN %'`,
      [database],
    );
    await until(async () => heard.filter((h) => h.endsWith(':up')).length === 2, {
      what: 'listening again',
      timeout: 5000,
    });
    expect(heard).toEqual(['a:down', 'b:down', 'a:up', 'b:up']);
    await db.query(`SELECT pg_notify('channel_b', 'three')`);
    await until(async () => heard.includes('b:three'), { what: 'a notification after the reconnect' });

    await stopA();
    await db.query(`SELECT pg_notify('channel_a', 'ignored'), pg_notify('channel_b', 'four')`);
    await until(async () => heard.includes('b:four'), { what: 'b still listens' });
    expect(heard).not.toContain('a:ignored');
    await stopB();
    await until(async () => (await listeners(db, database)) === 0, {
      what: 'the connection ends with its last listener',
    });
  });
});
