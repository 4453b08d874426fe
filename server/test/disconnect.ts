import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestApp } from './helper.ts';

/**
 * A client that goes away: serves the app on a free port, asks for `path` as the holder of `token`
 * and closes the connection at the first bytes of the answer (which must be a 200).
 */
export async function abandonDownload(t: TestApp, path: string, token: string): Promise<void> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      expect(res.statusCode).toBe(200);
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
  });
}

/**
 * How many statements containing `fragment` the database is running (this one aside), asked
 * through `query` (the database's own, where a test watches `t.db.query`).
 */
export async function runningStatements(query: TestApp['db']['query'], fragment: string): Promise<number> {
  const { rows } = await query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE $1 AND state = 'active' AND pid <> pg_backend_pid()`,
    [`%${fragment}%`],
  );
  return rows[0]!.n;
}
