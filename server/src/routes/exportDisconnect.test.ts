import { describe, expect, it, vi } from 'vitest';
import { abandonDownload, runningStatements } from '../../test/disconnect.ts';
import {
  createLead,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
} from '../../test/factories.ts';
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

    await abandonDownload(t, '/api/v1/portfolios/export', researcher.token);

    // The rows' generator was closed before the end: nothing reads the database for this download any more.
    await expect.poll(() => closed, { timeout: 15_000 }).toBe(true);
    expect(pageStatements.length).toBeGreaterThan(0);
    expect(pageStatements.length).toBeLessThan(ALL_PAGES);
    await expect.poll(() => runningStatements(query, 'FROM portfolios p JOIN users u')).toBe(0);
  });
});

describe('a client that goes away from the research package', async () => {
  const t = await buildTestApp();

  it('stops the export and records it as cancelled', async () => {
    const researcher = await createResearcher(t);
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead);
    const sa = await createSharedArtifact(t, sp, lead);
    // About 25 MB of comment text that compresses poorly: far more than the sockets buffer.
    await t.db.query(
      `INSERT INTO comments (shared_artifact_id, owner_id, text)
       SELECT $1, $2, (SELECT string_agg(md5(g::text || '-' || k::text), ' ') FROM generate_series(1, 12) k) FROM generate_series(1, 60000) g`,
      [sa.id, lead.user.id],
    );
    await abandonDownload(t, '/api/v1/research/export', researcher.token);
    const record = async () =>
      (
        await t.db.query<{ status: string; row_counts: Record<string, number>; bytes: number | null }>(
          'SELECT status, row_counts, bytes FROM research_exports ORDER BY id DESC LIMIT 1',
        )
      ).rows[0]!;
    await expect.poll(async () => (await record()).status, { timeout: 15_000 }).toBe('cancelled');
    const cancelled = await record();
    expect(cancelled.bytes).toBeNull();
    expect(cancelled.row_counts['comments']).toBeUndefined();
    // The work stopped: no statement of the export is still running.
    await expect.poll(() => runningStatements(t.db.query.bind(t.db), 'export_sas')).toBe(0);
  });
});
