import { Readable } from 'node:stream';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type pg from 'pg';
import type { ResearchExportFilters } from '#schemas/researchExport';
import { startWorker } from '../workerThread.ts';

/** What a research export's worker thread is given. */
export interface ResearchWorkerData {
  connection: pg.ClientConfig;
  filters: ResearchExportFilters;
  secret: Uint8Array;
  record: { id: number; startedAt: Date };
}

export type ToResearchWorker = { type: 'more' } | { type: 'stop' };
type FromResearchWorker =
  | { type: 'chunk'; bytes: ArrayBuffer }
  | { type: 'rows'; rowCounts: Record<string, number> }
  | { type: 'end' }
  | { type: 'failed'; message: string }
  | { type: 'closed' };

/**
 * The worker's heap: the export holds two pages of rows, the pseudonyms, a memo of 5,000 short
 * texts and the de-identifier's maps of the accounts (a few MiB at 1,000 teachers); the young
 * generation is kept small, as V8 would otherwise grow it to its full size under the export's
 * steady allocation.
 */
export const RESEARCH_WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 6 };

/** How long a stopped worker may take to roll back and close its connection before it is ended. */
const STOP_GRACE_MS = 5000;

/** The thread's code: `research-worker.js` beside the compiled server, or its TypeScript source (tests, `npm run dev`). */
function workerOf(data: ResearchWorkerData): Worker {
  return startWorker(
    { from: import.meta.url, compiled: 'research-worker.js', source: new URL('./researchWorker.ts', import.meta.url) },
    { workerData: data, resourceLimits: RESEARCH_WORKER_LIMITS },
  );
}

/** A research export running in a worker thread: its ZIP as a stream, and how to stop it. */
export interface ResearchRun {
  /** The ZIP, read from the worker as fast as its reader reads it. */
  zip: Readable;
  /** Ends the work (the worker's transaction rolls back); the worker is ended if it lingers. */
  stop(): void;
  /** Resolves once the worker has ended. */
  exited: Promise<void>;
}

/**
 * Starts a research export in a worker thread of its own. `onRows` hears the row counts before
 * the ZIP's last byte; `onFailed` hears a failure of the worker (an error, or its heap limit).
 */
export function runResearchExport(
  data: ResearchWorkerData,
  onRows: (rowCounts: Record<string, number>) => void,
  onFailed: (error: Error) => void,
): ResearchRun {
  const worker = workerOf(data);
  let finished = false;
  const fail = (error: Error) => {
    if (finished) return;
    finished = true;
    onFailed(error);
  };
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker thread, not a window
  const tell = (message: ToResearchWorker) => worker.postMessage(message);
  const zip = new Readable({
    read() {
      tell({ type: 'more' });
    },
  });
  worker.on('message', (message: FromResearchWorker) => {
    if (message.type === 'chunk') zip.push(Buffer.from(message.bytes));
    else if (message.type === 'rows') onRows(message.rowCounts);
    else if (message.type === 'end') {
      finished = true;
      zip.push(null);
    } else if (message.type === 'failed') fail(new Error(message.message));
    else void worker.terminate();
  });
  worker.on('error', (error) => fail(error));
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', (code) => {
      if (code !== 0) fail(new Error(`the research export's worker ended with code ${code}`));
      resolve();
    });
  });
  return {
    zip,
    exited,
    stop() {
      finished = true;
      tell({ type: 'stop' });
      setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
    },
  };
}
