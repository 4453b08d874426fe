import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createArtifact, createPortfolio, createResearcher, createTeacher } from '../test/factories.ts';
import { buildTestApp } from '../test/helper.ts';
import { EXPORTS_BUSY, OWN_EXPORT_RUNNING } from './services/researchExportService.ts';

/**
 * Limits that hold under abuse (decision 017, "Storage, exports, uploads and mail"): the load
 * shapes of an attack run — slow readers, parallel uploads, floods of small writes — as tests.
 */

describe('research exports never take the request pool', async () => {
  const t = await buildTestApp();

  it('ten slow export readers: two run, the others get 409 at once, and GET /portfolios stays under a second', async () => {
    // A package far larger than the buffers between the server and a client that does not read.
    const owner = await createTeacher(t);
    const portfolio = await createPortfolio(t, owner);
    await createArtifact(t, portfolio);
    await t.db.query(
      `INSERT INTO artifacts (portfolio_id, structure, responses, parking_lot)
       SELECT $1, structure, jsonb_build_object('artifactName', md5(random()::text) || md5(random()::text), 'learningGoal', md5(random()::text) || md5(random()::text) || md5(random()::text)), false
       FROM artifacts, generate_series(1, 4000) WHERE portfolio_id = $1`,
      [portfolio.id],
    );
    const researchers = await Promise.all(Array.from({ length: 10 }, () => createResearcher(t)));
    // Each client reads nothing until the end of the test.
    const answers = await Promise.all(
      researchers.map((r) => t.app.inject({ method: 'GET', url: '/api/v1/research/export', headers: { authorization: `Bearer ${r.token}` }, payloadAsStream: true })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(8);
    // Give the running exports time to fill every buffer and wait for their readers.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const list = await t.api({ method: 'GET', url: '/portfolios', token: owner.token });
    expect(list).toHaveStatus(200);
    expect(performance.now() - started).toBeLessThan(1000);

    // The same researcher cannot start a second one beside their running export.
    const runner = researchers[statuses.indexOf(200)]!;
    const again = await t.api({ method: 'GET', url: '/research/export', token: runner.token });
    expect(again).toBeApiError(409, OWN_EXPORT_RUNNING);
    const busy = researchers[statuses.indexOf(409)]!;
    expect(await t.api({ method: 'GET', url: '/research/export', token: busy.token })).toBeApiError(409, EXPORTS_BUSY);

    // Once the readers have read, the slots are free again.
    await Promise.all(
      answers.map(async (a) => {
        const stream = a.stream() as Readable;
        for await (const _chunk of stream) void _chunk;
      }),
    );
    await expect.poll(async () => (await t.api({ method: 'GET', url: '/research/export', token: busy.token })).statusCode, { timeout: 10_000 }).toBe(200);
  });
});
