import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Timer } from '../../clock.ts';
import { pruneExpired, PRUNE_INTERVAL_MS } from '../../services/housekeeping.ts';

/** One piece of housekeeping: deletes what can no longer be used. */
type HousekeepingJob = () => Promise<unknown>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The housekeeping run when the server is ready and every hour: features add their jobs. */
    housekeeping: { add(job: HousekeepingJob): void };
  }
}

/**
 * The server's own background task: rate-limit events, used or expired codes (and whatever the
 * features add: abandoned new artifacts, old archives) would otherwise pile up for ever. The jobs
 * run one after the other, first when the server is ready (before the features' own background
 * tasks start, so that a starting process runs one statement at a time, decision 020), then every
 * hour; a run under way when the server closes is waited for.
 */
async function backgroundTasks(app: FastifyInstance): Promise<void> {
  const jobs: HousekeepingJob[] = [() => pruneExpired(app.db)];
  const runAll = async () => {
    for (const job of jobs) await job();
  };
  let running: Promise<void> | null = null;
  let timer: Timer | undefined;
  app.decorate('housekeeping', { add: (job: HousekeepingJob) => void jobs.push(job) });
  app.addHook('onReady', async () => {
    await runAll();
    timer = app.serviceContext.clock.setInterval(() => {
      running ??= runAll()
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not prune expired rows'))
        .finally(() => (running = null));
    }, PRUNE_INTERVAL_MS);
  });
  app.addHook('onClose', async () => {
    timer?.cancel();
    await running;
  });
}

export default fastifyPlugin(backgroundTasks, { name: 'background-tasks', dependencies: ['services'] });
