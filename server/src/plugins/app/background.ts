import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { z } from 'zod';
import { JobEngine } from '../../jobs/jobEngine.ts';
import type { JobKind } from '../../jobs/jobKind.ts';
import { pruneExpired } from '../../services/housekeeping.ts';

/** Something that runs in the background of a node: listeners, event streams, the job engine. */
export interface BackgroundTask {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Stopped before the server waits for the requests under way, not after: what holds requests
   * open (event streams) would otherwise keep it from closing.
   */
  holdsRequests?: boolean;
}

/** One piece of housekeeping: deletes what can no longer be used. */
type HousekeepingStep = () => Promise<unknown>;

/** How the job engine runs (tests poll faster). */
export interface JobOptions {
  pollSeconds?: number;
  superviseSeconds?: number;
  /**
   * The job engine starts once the server listens (`background.startJobs()`, which `main` calls),
   * not before: no request needs it to answer, and one that sends a job waits until it has started.
   */
  afterListening?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What runs in the background of this node, started and stopped in one order. */
    background: {
      add(task: BackgroundTask): void;
      /** Starts the job engine and the start-up housekeeping, when `afterListening` was chosen. */
      startJobs(): Promise<void>;
    };
    /** Background jobs on the database (decision 037): features define their kinds and send jobs. */
    jobs: JobEngine;
    /** The housekeeping job, run every hour on one node: features add their steps. */
    housekeeping: { add(step: HousekeepingStep): void };
  }
}

/** Every hour, at minute 7 (away from the full hour that other schedules favour). */
const HOUSEKEEPING_CRON = '7 * * * *';

/**
 * One lifecycle for the background of a node. Tasks start in the order they were added when the
 * server is ready, and the job engine last (its jobs use what the tasks started; with
 * `afterListening`, once the server listens, so that a restart answers sooner). On close, the
 * tasks that hold requests open (event streams) stop first, then the server waits for the
 * requests under way (an upload still waits for its image formats: the jobs still run), then the
 * job engine stops (running jobs finish, or are handed back to another node) and the other tasks
 * stop in reverse order.
 *
 * The housekeeping (rate-limit events, used or expired codes, and whatever the features add:
 * abandoned new artifacts, old archives) is a job: once when a node starts, then every hour, on
 * one node of the installation at a time.
 */
async function background(app: FastifyInstance, options: { jobs?: JobOptions | undefined }): Promise<void> {
  const tasks: BackgroundTask[] = [];
  const started: BackgroundTask[] = [];
  const jobs = new JobEngine({
    db: app.db,
    connection: () => {
      if (!app.db.settings) throw new Error('background jobs need PostgreSQL');
      return app.db.settings();
    },
    workers: app.config.workers,
    log: app.log,
    stopTimeoutMs: Math.max(1000, app.config.drainMs + 5000),
    ...options.jobs,
  });
  const steps: HousekeepingStep[] = [() => pruneExpired(app.db)];
  const housekeeping: JobKind<Record<string, never>> = jobs.define({
    name: 'housekeeping.prune',
    group: 'housekeeping',
    data: z.object({}).strict(),
    async run() {
      for (const step of steps) await step();
    },
    retryLimit: 2,
    retryDelaySeconds: 60,
    maxQueued: 1,
    busyMessage: 'Housekeeping is already waiting to run.',
    concurrency: 1,
    policy: 'stately',
    cron: HOUSEKEEPING_CRON,
  });

  app.decorate('jobs', jobs);
  const startJobs = async () => {
    await jobs.start();
    // A node that starts runs the housekeeping soon (it may have been down for long); nodes that
    // start together share one run.
    await jobs.send(housekeeping, {}).catch((error: unknown) => {
      if (!(error instanceof Error && 'statusCode' in error)) throw error;
    });
  };
  const afterListening = options.jobs?.afterListening === true;
  app.decorate('background', {
    add: (task: BackgroundTask) => void tasks.push(task),
    startJobs: () => (afterListening ? startJobs() : Promise.resolve()),
  });
  app.decorate('housekeeping', { add: (step: HousekeepingStep) => void steps.push(step) });

  app.addHook('onReady', async () => {
    for (const task of tasks) {
      await task.start();
      started.push(task);
    }
    if (!afterListening) await startJobs();
  });
  const stopAll = async (which: (task: BackgroundTask) => boolean) => {
    for (const task of [...started].reverse().filter(which)) {
      started.splice(started.indexOf(task), 1);
      await task.stop().catch((error: unknown) => app.log.warn({ err: error, task: task.name }, 'could not stop'));
    }
  };
  app.addHook('preClose', () => stopAll((task) => task.holdsRequests === true));
  app.addHook('onClose', async () => {
    await jobs.stop();
    await stopAll(() => true);
  });
}

export default fastifyPlugin(background, { name: 'background', dependencies: ['database'] });
