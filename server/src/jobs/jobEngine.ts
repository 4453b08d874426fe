import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { PgBoss, type Job } from 'pg-boss';
import type { z } from 'zod';
import type { Queryable } from '../db/client.ts';
import { HttpError } from '../errors.ts';
import type { WorkerGroup } from './workerGroups.ts';

/** What a running job's handler is told besides its data. */
export interface RunningJob {
  id: string;
  /** Aborted when the node stops (the job is handed back) or the job was taken away. */
  signal: AbortSignal;
  /** 1 on the first run, 2 on the first retry … */
  attempt: number;
}

/** One kind of background work: its queue, its handler and how it is retried and bounded. */
export interface JobKind<T> {
  /** The queue's name, `<group>.<what>` (e.g. `media.image`). */
  name: string;
  group: WorkerGroup;
  /** The job's data, checked again when it runs (jobs outlive the version that sent them). */
  data: z.ZodType<T>;
  /** Does the work; what it resolves with is kept as the job's output. */
  run(data: T, job: RunningJob): Promise<Record<string, unknown> | void>;
  /** Runs after the first that fail before the job is marked failed. */
  retryLimit: number;
  /** Seconds before the first retry; doubled on each further one when `retryBackoff`. */
  retryDelaySeconds: number;
  retryBackoff?: boolean;
  /** A run longer than this is failed (and retried). */
  expireInSeconds?: number;
  /**
   * A running job proves it is alive this often (seconds, ≥ 10); one whose node died is handed to
   * another node after this long instead of waiting for `expireInSeconds`.
   */
  heartbeatSeconds?: number;
  /** Jobs that may wait at once; `send` beyond that answers 503 with `busyMessage`. */
  maxQueued: number;
  busyMessage: string;
  /** Jobs of this kind one node runs at once. */
  concurrency: number;
  /**
   * `stately`: at most one waiting and one running (a job sent while one waits is the same job:
   * "run soon" signals). Default: `standard`.
   */
  policy?: 'standard' | 'stately';
  /** Sent once per installation at these times (cron, UTC), whatever the number of nodes. */
  cron?: string;
  /**
   * When the node stops while a job runs: `finish` (short work: wait for it, up to the stop's
   * bound) or `handBack` (long work: abort it at once and queue it again for another node; a
   * hand-back is not a failed attempt). Default `finish`.
   */
  onStop?: 'finish' | 'handBack';
  /** Where a copy of a job that failed for good goes (a kind defined before this one). */
  deadLetter?: JobKind<T>;
}

/** A job that failed for good, for the administrator. */
export interface FailedJob {
  id: string;
  kind: string;
  attempts: number;
  error: string;
  failedAt: string;
  data: unknown;
}

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

const DELETE_COMPLETED_AFTER_SECONDS = 24 * 3600;
const KEEP_FAILED_SECONDS = 30 * 24 * 3600;

/** Whether a stored queue has the settings this code gives it. */
function sameSettings(stored: Record<string, unknown>, settings: Record<string, unknown>): boolean {
  const expected = { heartbeatSeconds: null, deadLetter: null, ...settings };
  return Object.entries(expected).every(([key, value]) => (stored[key] ?? null) === value);
}

/** The engine's own schema: `pgboss`, or next to a schema of the search path (tests' own schemas). */
async function schemaOf(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ schema: string }>('SELECT current_schema() AS schema');
  const current = rows[0]?.schema ?? 'public';
  return current === 'public' ? 'pgboss' : `${current}_jobs`;
}

function errorText(output: unknown): string {
  if (output && typeof output === 'object' && 'message' in output && typeof output.message === 'string')
    return output.message;
  return output === null || output === undefined ? 'unknown error' : JSON.stringify(output);
}

/** pg-boss's connection settings for the server's database. */
function connectionOf(settings: pg.ClientConfig) {
  return {
    ...(settings.host ? { host: settings.host } : {}),
    ...(settings.port ? { port: settings.port } : {}),
    ...(settings.user ? { user: settings.user } : {}),
    ...(settings.database ? { database: settings.database } : {}),
    ...(settings.options ? { options: settings.options } : {}),
    ...(typeof settings.password === 'string' ? { password: settings.password } : {}),
    ...(settings.connectionString ? { connectionString: settings.connectionString } : {}),
    ...(settings.ssl ? { ssl: settings.ssl } : {}),
    application_name: `${settings.application_name ?? 'practicefolio'}-jobs`,
  };
}

/** Whether the engine's schema is there (a server has started on this database). */
async function installed(db: Queryable, schema: string): Promise<boolean> {
  const { rows } = await db.query<{ here: boolean }>('SELECT to_regclass($1) IS NOT NULL AS here', [`${schema}.job`]);
  return rows[0]?.here ?? false;
}

/** How many jobs of each kind wait, run and failed for good. */
export async function jobCounts(
  db: Queryable,
): Promise<{ kind: string; waiting: number; active: number; failed: number }[]> {
  const schema = await schemaOf(db);
  if (!(await installed(db, schema))) return [];
  const { rows } = await db.query<{ name: string; waiting: number; active: number; failed: number }>(
    `SELECT q.name,
       count(*) FILTER (WHERE j.state IN ('created', 'retry'))::int AS waiting,
       count(*) FILTER (WHERE j.state = 'active')::int AS active,
       count(*) FILTER (WHERE j.state = 'failed')::int AS failed
     FROM ${schema}.queue q LEFT JOIN ${schema}.job j ON j.name = q.name
     GROUP BY q.name ORDER BY q.name`,
  );
  return rows.map((r) => ({ kind: r.name, waiting: r.waiting, active: r.active, failed: r.failed }));
}

/** Jobs that failed for good (after their retries), newest first. */
export async function failedJobs(db: Queryable, limit = 50): Promise<FailedJob[]> {
  const schema = await schemaOf(db);
  if (!(await installed(db, schema))) return [];
  const { rows } = await db.query<{
    id: string;
    name: string;
    retry_count: number;
    output: unknown;
    completed_on: Date | null;
    data: unknown;
  }>(
    `SELECT id, name, retry_count, output, completed_on, data FROM ${schema}.job
     WHERE state = 'failed' ORDER BY completed_on DESC NULLS LAST LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.name,
    attempts: r.retry_count + 1,
    error: errorText(r.output),
    failedAt: (r.completed_on ?? new Date(0)).toISOString(),
    data: r.data,
  }));
}

/**
 * Queues the failed job `id` again (its attempts counted afresh), through `boss` or an engine
 * opened for it; `false` when no job with that id failed for good.
 */
export async function retryFailedJob(
  db: Queryable,
  id: string,
  boss?: PgBoss,
  settings?: pg.ClientConfig,
): Promise<boolean> {
  const schema = await schemaOf(db);
  if (!/^[0-9a-f-]{36}$/i.test(id) || !(await installed(db, schema))) return false;
  const { rows } = await db.query<{ name: string }>(
    `SELECT name FROM ${schema}.job WHERE id = $1::uuid AND state = 'failed'`,
    [id],
  );
  const name = rows[0]?.name;
  if (!name) return false;
  if (boss) {
    await boss.retry(name, id);
    return true;
  }
  if (!settings) throw new Error('no job engine to retry the job with');
  const own = new PgBoss({
    ...connectionOf(settings),
    schema,
    max: 1,
    supervise: false,
    schedule: false,
    migrate: false,
  });
  own.on('error', () => undefined);
  await own.start();
  try {
    await own.retry(name, id);
  } finally {
    await own.stop({ graceful: false });
  }
  return true;
}

/**
 * Installs (or upgrades) the job engine's schema in `db` without running anything: for a
 * database that is copied afterwards (the tests' migrated template).
 */
export async function installJobSchema(db: Queryable, settings: pg.ClientConfig): Promise<void> {
  const boss = new PgBoss({
    ...connectionOf(settings),
    schema: await schemaOf(db),
    max: 1,
    migrate: true,
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false });
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

  async start(): Promise<void> {
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
      // One read of the queues and schedules; only what differs from this code is written (a
      // restart usually writes nothing).
      const queues = new Map((await boss.getQueues([...this.kinds.keys()])).map((q) => [q.name, q]));
      const schedules = new Map((await boss.getSchedules()).map((q) => [q.name, q]));
      // A schedule this code no longer has (a kind gone, `BACKUP_DIR` unset) would queue jobs nobody runs.
      for (const name of schedules.keys()) if (!this.kinds.get(name)?.cron) await boss.unschedule(name);
      for (const kind of this.kinds.values()) {
        const settings = {
          retryLimit: kind.retryLimit,
          retryDelay: kind.retryDelaySeconds,
          retryBackoff: kind.retryBackoff ?? false,
          expireInSeconds: kind.expireInSeconds ?? 900,
          deleteAfterSeconds: DELETE_COMPLETED_AFTER_SECONDS,
          retentionSeconds: KEEP_FAILED_SECONDS,
          ...(kind.heartbeatSeconds ? { heartbeatSeconds: kind.heartbeatSeconds } : {}),
          ...(kind.deadLetter ? { deadLetter: kind.deadLetter.name } : {}),
          notify: true,
        };
        const stored = queues.get(kind.name);
        // A queue's policy is set when it is created; the rest follows the code of the node that starts.
        if (!stored) await boss.createQueue(kind.name, { ...settings, policy: kind.policy ?? 'standard' });
        else if (!sameSettings(stored as unknown as Record<string, unknown>, settings))
          await boss.updateQueue(kind.name, settings);
        const schedule = schedules.get(kind.name);
        if (kind.cron && (schedule?.cron !== kind.cron || schedule.timezone !== 'UTC'))
          await boss.schedule(kind.name, kind.cron, {}, { tz: 'UTC' });
      }
      await this.resume();
      for (const step of this.afterStart) await step();
    } catch (error) {
      await this.stop();
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
    const boss = this.engine;
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
      const [job] = await this.engine.findJobs(kind.name, { id });
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
    return retryFailedJob(this.options.db, id, this.engine);
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
