import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createResearcher, createTeacher } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

/** Portfolios in the test, and how many statements reading all of them would take (100 a page). */
const PORTFOLIOS = 1500;
const ALL_PAGES = PORTFOLIOS / 100 + 1;

describe('a client that goes away from teacher portfolios.csv', async () => {
  const t = await buildTestApp();

  it('stops the reading: the rows are no longer asked for, and no statement is sent or running', async () => {
    const researcher = await createResearcher(t);
    const owner = await createTeacher(t);
    // About 7 MB of topics that compress poorly: far more than the sockets buffer.
    await t.db.query(
      `INSERT INTO portfolios (owner_id, name, topic, structure)
       SELECT $1, 'Bulk ' || g, (SELECT string_agg(md5(g::text || '-' || k::text), ' ') FROM generate_series(1, 150) k), '[]'::jsonb
       FROM generate_series(1, $2) g`,
      [owner.user.id, PORTFOLIOS],
    );
    const pageStatements: string[] = [];
    const query = t.db.query.bind(t.db);
    vi.spyOn(t.db, 'query').mockImplementation((sql, params) => {
      if (sql.includes('FROM portfolios p JOIN users u')) pageStatements.push(sql);
      return query(sql, params);
    });
    const exports = t.app.services.exports;
    const read = exports.teacherPortfolios.bind(exports);
    let closed = false;
    vi.spyOn(exports, 'teacherPortfolios').mockImplementation((actor, signal) => {
      const rows = read(actor, signal);
      return (async function* () {
        try {
          yield* rows;
        } finally {
          closed = true;
        }
      })();
    });

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port,
          path: '/api/v1/portfolios/export',
          headers: { authorization: `Bearer ${researcher.token}` },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    });

    // The rows' generator was closed before the end: nothing reads the database for this download any more.
    await expect.poll(() => closed, { timeout: 15_000 }).toBe(true);
    expect(pageStatements.length).toBeGreaterThan(0);
    expect(pageStatements.length).toBeLessThan(ALL_PAGES);
    await expect
      .poll(
        async () =>
          (
            await query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%FROM portfolios p JOIN users u%' AND state = 'active' AND pid <> pg_backend_pid()`,
            )
          ).rows[0]!.n,
      )
      .toBe(0);
  });
});
