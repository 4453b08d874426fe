import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDb } from '../../test/helper.ts';
import { until } from '../../test/until.ts';
import { HttpError } from '../errors.ts';
import { JobEngine, JobFailed } from './jobEngine.ts';
import type { JobKind } from './jobKind.ts';
import { WORKER_GROUPS, type WorkerGroup } from './workerGroups.ts';

const db = await createTestDb();
const silent = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return silent;
  },
} as unknown as FastifyBaseLogger;

const engines: JobEngine[] = [];
afterAll(async () => {
  for (const engine of engines) await engine.stop();
});

/** An engine on the test database with `kinds`, running the jobs of `workers`. */
async function engineWith(workers: readonly WorkerGroup[], kinds: (engine: JobEngine) => void): Promise<JobEngine> {
  const engine = new JobEngine({
    db,
    connection: () => db.settings!(),
    workers,
    log: silent,
    pollSeconds: 0.5,
    superviseSeconds: 1,
    stopTimeoutMs: 2000,
  });
  kinds(engine);
  await engine.start();
  engines.push(engine);
  return engine;
}

const Data = z.object({ n: z.number().int() }).strict();
const kind = (name: string, run: JobKind<{ n: number }>['run'], extra: Partial<JobKind<{ n: number }>> = {}) =>
  ({
    name,
    group: 'media',
    data: Data,
    run,
    retryLimit: 0,
    retryDelaySeconds: 0,
    maxQueued: 100,
    busyMessage: 'Busy, try again in a minute.',
    concurrency: 1,
    ...extra,
  }) satisfies JobKind<{ n: number }>;

describe('the job engine', () => {
  it('bounds each kind’s queue: past `maxQueued` waiting jobs, sending answers 503 with the kind’s message', async () => {
    let bounded!: JobKind<{ n: number }>;
    // No node runs media here: the jobs wait.
    const engine = await engineWith([], (e) => {
      bounded = e.define(kind('test.bounded', async () => undefined, { maxQueued: 2 }));
    });
    expect(await engine.send(bounded, { n: 1 })).toBeTruthy();
    expect(await engine.send(bounded, { n: 2 })).toBeTruthy();
    const refused = await engine.send(bounded, { n: 3 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 503, message: 'Busy, try again in a minute.' });
    // Data is checked before anything is queued.
    await expect(engine.send(bounded, { n: 1.5 })).rejects.toThrow(/expected int/i);
  });

  it('runs a job on whichever engine runs its kind (`WORKERS`), and answers the sender with its output', async () => {
    const ran: string[] = [];
    let doubled!: JobKind<{ n: number }>;
    const sender = await engineWith([], (e) => {
      doubled = e.define(kind('test.doubled', async ({ n }) => ({ twice: n * 2 })));
    });
    await engineWith(['media'], (e) => {
      e.define(
        kind('test.doubled', async ({ n }) => {
          ran.push('worker');
          return { twice: n * 2 };
        }),
      );
    });
    const id = (await sender.send(doubled, { n: 21 }))!;
    expect(await sender.result(doubled, id, 10_000)).toEqual({ twice: 42 });
    expect(ran).toEqual(['worker']);
    expect(sender.runs('media')).toBe(false);
  });

  it('retries a failing job, then marks it failed with its error; a failed job can be queued again', async () => {
    let attempts = 0;
    let healthy = false;
    let flaky!: JobKind<{ n: number }>;
    const engine = await engineWith([...WORKER_GROUPS], (e) => {
      flaky = e.define(
        kind(
          'test.flaky',
          async () => {
            attempts += 1;
            if (!healthy) throw new Error('the printer is on fire');
          },
          { retryLimit: 2 },
        ),
      );
    });
    const id = (await engine.send(flaky, { n: 7 }))!;
    await expect(engine.result(flaky, id, 20_000)).rejects.toBeInstanceOf(JobFailed);
    expect(attempts).toBe(3);
    const failed = (await engine.failed()).find((j) => j.id === id);
    expect(failed).toMatchObject({ kind: 'test.flaky', attempts: 3, error: 'the printer is on fire', data: { n: 7 } });
    healthy = true;
    expect(await engine.retry(id)).toBe(true);
    await until(async () => !(await engine.failed()).some((j) => j.id === id), { timeout: 10_000, what: 'the retry' });
    await engine.idle();
    expect(attempts).toBe(4);
    expect(await engine.retry(id)).toBe(false);
  });

  it('keeps at most one waiting job of a `stately` kind: signals sent while one waits are the same job', async () => {
    let signal!: JobKind<{ n: number }>;
    const engine = await engineWith([], (e) => {
      signal = e.define(kind('test.signal', async () => undefined, { policy: 'stately', maxQueued: 5 }));
    });
    const first = await engine.send(signal, { n: 1 });
    const second = await engine.send(signal, { n: 2 });
    expect(first).toBeTruthy();
    expect(second).toBeNull();
  });
});
