import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { PgBoss, type Job } from 'pg-boss';
import type { Queryable } from '../db/client.ts';
import { HttpError } from '../errors.ts';
import { type FailedJob, failedJobs, retryFailedJob } from './jobAdmin.ts';
import { connectionOf, errorText, schemaOf } from './jobDatabase.ts';
import type { JobKind } from './jobKind.ts';
import { syncQueues } from './jobQueues.ts';
import type { WorkerGroup } from './workerGroups.ts';

export interface JobEngineOptions {
  db: Queryable;
  /** How the engine opens its own connections (a few: its pool and its LISTEN connection). */
  connection: () => pg.ClientConfig;
  /** The kinds this node runs. */
  workers: readonly WorkerGroup[];
  log: FastifyBaseLogger;
  /**
   * How often an idle worker looks for jobs that no notification announced (retries that came
   * due), in seconds (≥ 0.5): every 2 s without LISTEN, every 10 s with it, unless given.
   */
  pollSeconds?: number;
  /** How often the engine checks heartbeats and expiries, in seconds. */
  superviseSeconds?: number;
  /** On stop, how long running jobs may take to finish before they are handed back. */
  stopTimeoutMs?: number;
}

/**
 * Background jobs on the server's own PostgreSQL, through pg-boss (decision 037): kinds are
 * defined while the app is built, the engine starts when the server is ready (installing or
 * upgrading its schema, creating the queues, starting the workers of this node's `WORKERS` and
 * the schedules), and stops when the server closes (running jobs finish, or are handed back after
 * `stopTimeoutMs`).
 */
export class JobEngine {
  private readonly kinds = new Map<string, JobKind<never>>();
  private boss: PgBoss | null = null;
  private schema = 'pgboss';
  private readonly pollSeconds: number;
  private readonly notifiedPollSeconds: number;
  /** Running jobs that are handed back when the node stops, by job id. */
  private readonly handBacks = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  private stopping = false;
  /** While the engine starts: what is sent meanwhile waits for it. */
  private starting: Promise<void> | null = null;
  private readonly afterStart: (() => Promise<void>)[] = [];

  constructor(private readonly options: JobEngineOptions) {
    this.pollSeconds = Math.max(0.5, options.pollSeconds ?? 2);
    // While notifications arrive, polling is only the backstop of retries that come due.
    this.notifiedPollSeconds = Math.max(this.pollSeconds, options.pollSeconds ?? 10);
  }

  /** Adds a kind (before `start`); returns it, for `send`. */
  define<T>(kind: JobKind<T>): JobKind<T> {
    if (this.boss) throw new Error(`job kind ${kind.name} defined after the engine started`);
    if (this.kinds.has(kind.name)) throw new Error(`job kind ${kind.name} defined twice`);
    this.kinds.set(kind.name, kind as unknown as JobKind<never>);
    return kind;
  }

  /** Whether this node runs the jobs of `group`. */
  runs(group: WorkerGroup): boolean {
    return this.options.workers.includes(group);
  }

  private get engine(): PgBoss {
    if (!this.boss) throw new HttpError(503, 'busy', 'The server is starting or stopping. Please try again.');
    return this.boss;
  }

  /** The engine once it has started (a call made while it starts waits for it: its queues exist then). */
  private async started(): Promise<PgBoss> {
    if (this.starting) await this.starting.catch(() => undefined);
    return this.engine;
  }

  async start(): Promise<void> {
    const starting = this.startNow();
    this.starting = starting;
    try {
      await starting;
    } finally {
      this.starting = null;
    }
  }

  private async startNow(): Promise<void> {
    const { log } = this.options;
    this.schema = await schemaOf(this.options.db);
    const supervise = this.options.superviseSeconds ?? 10;
    const boss = new PgBoss({
      ...connectionOf(this.options.connection()),
      schema: this.schema,
      max: 3,
      useListenNotify: true,
      migrate: true,
      supervise: true,
      schedule: true,
      superviseIntervalSeconds: supervise,
      monitorIntervalSeconds: supervise,
      queueCacheIntervalSeconds: supervise,
      cronMonitorIntervalSeconds: Math.min(60, Math.max(1, supervise)),
      cronWorkerIntervalSeconds: Math.min(60, Math.max(1, supervise)),
      registerInstance: false,
    });
    boss.on('error', (error: unknown) => log.warn({ err: error }, 'job engine error'));
    boss.on('warning', (warning: unknown) => log.warn({ warning }, 'job engine warning'));
    await boss.start();
    this.boss = boss;
    try {
      await syncQueues(boss, this.kinds);
      await this.resume();
      for (const step of this.afterStart) await step();
    } catch (error) {
      await this.stopNow();
      throw error;
    }
  }

  /** Runs `step` each time the engine has started (a kind's recovery of its node's earlier life). */
  onStarted(step: () => Promise<void>): void {
    this.afterStart.push(step);
  }

  /**
   * Queues the job `id` of `kind` again at once as a new job, cancelling it: its node is known to
   * be dead (a killed process of this machine), so there is no need to wait for its heartbeat to
   * be missed. `false` when the job is no longer running.
   */
  async handBack<T>(kind: JobKind<T>, id: string): Promise<boolean> {
    const boss = this.engine;
    const [job] = await boss.findJobs<T>(kind.name, { id });
    if (!job || job.state !== 'active') return false;
    await boss.cancel(kind.name, id);
    await boss.send(kind.name, job.data as object);
    return true;
  }

  /** Starts the workers of this node's kinds (after `start`, or again after `pause`). */
  async resume(): Promise<void> {
    const boss = this.engine;
    for (const kind of this.kinds.values()) {
      if (!this.runs(kind.group)) continue;
      await boss.work(
        kind.name,
        {
          localConcurrency: kind.concurrency,
          pollingIntervalSeconds: this.pollSeconds,
          notifyPollingIntervalSeconds: this.notifiedPollSeconds,
        },
        async ([job]) => (job ? this.run(kind, job) : undefined),
      );
    }
  }

  /** Stops this node's workers taking jobs (those running finish); `resume` starts them again. */
  async pause(): Promise<void> {
    const boss = this.engine;
    for (const kind of this.kinds.values()) if (this.runs(kind.group)) await boss.offWork(kind.name, { wait: true });
  }

  /** The engine's schema in the database. */
  get schemaName(): string {
    return this.schema;
  }

  /** Runs one job of `kind` on this node. */
  private async run<T>(kind: JobKind<T>, job: Job<unknown>): Promise<Record<string, unknown> | undefined> {
    const { log } = this.options;
    const started = performance.now();
    const handBack = kind.onStop === 'handBack' ? new AbortController() : null;
    const running = kind.run(kind.data.parse(job.data), {
      id: job.id,
      signal: handBack ? AbortSignal.any([job.signal, handBack.signal]) : job.signal,
      attempt: job.retryCount + 1,
    });
    let finished = () => undefined as void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    if (handBack) this.handBacks.set(job.id, { controller: handBack, done });
    try {
      const output = await running;
      log.debug({ job: job.id, kind: kind.name, ms: Math.round(performance.now() - started) }, 'job done');
      return output ?? undefined;
    } catch (error) {
      if (handBack?.signal.aborted && this.boss) {
        // The node is stopping: the same work waits for another node, as a new job.
        await this.boss.send(kind.name, job.data as object);
        log.info({ job: job.id, kind: kind.name }, 'job handed back');
        return { handedBack: true };
      }
      log.warn({ err: error, job: job.id, kind: kind.name, attempt: job.retryCount + 1 }, 'job failed');
      throw error;
    } finally {
      this.handBacks.delete(job.id);
      finished();
    }
  }

  /**
   * Stops taking jobs; long jobs are handed back at once, the others may finish within
   * `stopTimeoutMs` (then they are failed, and retried on another node).
   */
  async stop(): Promise<void> {
    // An engine still starting (the server stopped right after it began listening) stops once started.
    if (this.starting) await this.starting.catch(() => undefined);
    await this.stopNow();
  }

  private async stopNow(): Promise<void> {
    const boss = this.boss;
    if (!boss || this.stopping) return;
    this.stopping = true;
    try {
      for (const kind of this.kinds.values())
        if (this.runs(kind.group)) await boss.offWork(kind.name, { wait: false }).catch(() => undefined);
      const handingBack = [...this.handBacks.values()];
      for (const running of handingBack) running.controller.abort(new Error('the server is stopping'));
      await Promise.all(handingBack.map((running) => running.done));
      await boss.stop({ graceful: true, timeout: this.options.stopTimeoutMs ?? 10_000 });
    } finally {
      this.boss = null;
      this.stopping = false;
    }
  }

  /**
   * Queues a job of `kind`; `null` when a `stately` kind already has one waiting (it will do).
   * @throws 503 when the kind already has `maxQueued` jobs waiting, or the engine is not running.
   */
  async send<T>(
    kind: JobKind<T>,
    data: T,
    options: { singletonKey?: string; startAfterSeconds?: number } = {},
  ): Promise<string | null> {
    const boss = await this.started();
    const checked = kind.data.parse(data) as object;
    const waiting = await boss.findJobs(kind.name, { queued: true, limit: kind.maxQueued });
    if (waiting.length >= kind.maxQueued) throw new HttpError(503, 'busy', kind.busyMessage);
    return boss.send(kind.name, checked, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    });
  }

  /**
   * What the job `id` of `kind` resolved with, once it has run (on whichever node): for work a
   * request waits for.
   * @throws the job's error when it failed for good; 503 when it has not finished within `timeoutMs`.
   */
  async result<T>(kind: JobKind<T>, id: string, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    let wait = 10;
    for (;;) {
      signal?.throwIfAborted();
      const [job] = await (await this.started()).findJobs(kind.name, { id });
      if (!job) throw new Error(`job ${id} of ${kind.name} is gone`);
      if (job.state === 'completed') return job.output;
      if (job.state === 'failed' || job.state === 'cancelled') throw new JobFailed(kind.name, errorText(job.output));
      if (Date.now() >= deadline) throw new HttpError(503, 'busy', kind.busyMessage);
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(250, wait * 2);
    }
  }

  /** Jobs that failed for good, newest first. */
  async failed(limit = 50): Promise<FailedJob[]> {
    return failedJobs(this.options.db, limit);
  }

  /** Queues a failed job again (with its attempts counted afresh); `false` when no failed job has that id. */
  async retry(id: string): Promise<boolean> {
    return retryFailedJob(this.options.db, id, await this.started());
  }

  /**
   * Resolves once no job of a defined kind waits (due now) or runs: tests wait for the background
   * work their requests started.
   */
  async idle(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const names = [...this.kinds.keys()];
    for (;;) {
      const { rows } = await this.options.db.query<{ busy: number }>(
        `SELECT count(*)::int AS busy FROM ${this.schema}.job
         WHERE name = ANY($1::text[]) AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))`,
        [names],
      );
      if ((rows[0]?.busy ?? 0) === 0) return;
      if (Date.now() >= deadline) throw new Error(`background jobs still busy after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** A job that failed for good; its message is the job's last error. */
export class JobFailed extends Error {
  override name = 'JobFailed';
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}
