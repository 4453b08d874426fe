import type { z } from 'zod';
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
