import type { Readable } from 'node:stream';
import { MessageChannel, type ResourceLimits, type Worker } from 'node:worker_threads';
import { ERRORS } from '@tus/server';
import type { FromWriter, TusWriterData, WriteJob } from './tusWriterProtocol.ts';
import { startWorker } from '../../workerThread.ts';

/**
 * The writer's heap: a few chunks in flight and the tus store's code (the S3 client's is the
 * largest); the young generation is kept small and collected every few MiB (`tusWriterWorker.ts`).
 */
export const TUS_WRITER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 4 };

/** Bytes of one request sent to the writer and not yet taken by its store: beyond them the request is paused. */
const WINDOW_BYTES = 512 * 1024;

/** The answer to a request whose write ended because the writer thread stopped (it is started again for the next one). */
export const WRITER_STOPPED = { status_code: 503, body: 'The upload could not be written. Send the rest again.\n' };

/** The thread's code: `tus-writer.js` beside the compiled server, or its TypeScript source (tests, `npm run dev`). */
function spawn(data: TusWriterData): Worker {
  return startWorker(
    { from: import.meta.url, compiled: 'tus-writer.js', source: new URL('./tusWriterWorker.ts', import.meta.url) },
    { workerData: data, resourceLimits: TUS_WRITER_LIMITS },
  );
}

/** The bytes of a chunk as an `ArrayBuffer` of their own, to be transferred (the chunk's own when it has one). */
function ownBuffer(chunk: Buffer): ArrayBuffer {
  const buffer = chunk.buffer as ArrayBuffer;
  if (chunk.byteOffset === 0 && chunk.byteLength === buffer.byteLength) return buffer;
  return Uint8Array.prototype.slice.call(chunk).buffer as ArrayBuffer;
}

/** A running thread and the writes it has not answered yet (failed together if it stops). */
interface Thread {
  worker: Worker;
  ready: Promise<void>;
  failures: Set<(error: unknown) => void>;
}

/**
 * Writes the bytes of resumable uploads in a worker thread of its own (decision 063): the
 * request's chunks are handed over as they arrive (transferred, not copied) with a small window,
 * and the thread writes them through the tus store. A thread that stops fails the writes it had
 * (what they wrote stays: the offset is read again from the store) and is started again for the
 * next write; `close` ends it.
 */
export class TusWriter {
  private thread: Thread | null = null;
  private closed = false;

  constructor(private readonly data: TusWriterData) {}

  /** Starts the thread ahead of the first write (a write starts it otherwise). */
  async start(): Promise<void> {
    await this.running().ready;
  }

  private running(): Thread {
    if (this.closed) throw new Error('the upload writer is closed');
    if (this.thread) return this.thread;
    const worker = spawn(this.data);
    const failures = new Set<(error: unknown) => void>();
    const thread: Thread = {
      worker,
      failures,
      ready: new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => reject(new Error('the upload writer did not start')));
      }),
    };
    thread.ready.catch(() => undefined);
    const stopped = () => {
      if (this.thread === thread) this.thread = null;
      for (const fail of failures) fail(WRITER_STOPPED);
      failures.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', stopped);
    // The server may stop while the thread is idle.
    worker.unref();
    this.thread = thread;
    return thread;
  }

  /**
   * Writes `source` (a request's body) to the upload `key` from `offset`, at most `limit` bytes;
   * `stop` ends it early (what arrived is written). Resolves with the new offset.
   * @throws `ERRORS.ABORTED` when the source broke off (what arrived is written first); the store's
   * errors; `WRITER_STOPPED` when the thread stopped.
   */
  async write(source: Readable, key: string, offset: number, limit: number, stop?: AbortSignal): Promise<number> {
    const thread = this.running();
    await thread.ready;
    const { port1, port2 } = new MessageChannel();
    return new Promise<number>((resolve, reject) => {
      let inFlight = 0;
      let ended = false;
      let brokeOff = false;
      const detach = () => {
        source.off('data', onData);
        source.off('end', onEnd);
        source.off('close', onClose);
        source.off('error', onClose);
        stop?.removeEventListener('abort', onStop);
      };
      const end = (broke: boolean) => {
        if (ended) return;
        ended = true;
        brokeOff = broke;
        detach();
        port1.postMessage('end');
      };
      const onData = (chunk: Buffer) => {
        const bytes = ownBuffer(chunk);
        inFlight += bytes.byteLength;
        port1.postMessage(bytes, [bytes]);
        if (inFlight >= WINDOW_BYTES) source.pause();
      };
      const onEnd = () => end(false);
      const onClose = () => end(!source.readableEnded);
      const onStop = () => end(false);
      const settle = (outcome: () => void) => {
        thread.failures.delete(fail);
        port1.close();
        if (!ended) {
          // Refused before the end: the rest of the body is read and dropped, as an unread body is.
          ended = true;
          detach();
          source.resume();
        }
        outcome();
      };
      const fail = (error: unknown) => settle(() => reject(error));
      thread.failures.add(fail);
      port1.on('message', (message: FromWriter) => {
        if (message.type === 'ack') {
          inFlight -= message.bytes;
          if (!ended && inFlight < WINDOW_BYTES / 2 && source.isPaused()) source.resume();
        } else if (message.type === 'done') {
          settle(() => (brokeOff ? reject(ERRORS.ABORTED) : resolve(message.offset)));
        } else {
          settle(() => reject({ status_code: message.status ?? 500, body: `${message.message.trimEnd()}\n` }));
        }
      });
      source.on('data', onData);
      source.once('end', onEnd);
      source.once('close', onClose);
      source.once('error', onClose);
      stop?.addEventListener('abort', onStop, { once: true });
      const job: WriteJob = { key, offset, limit, port: port2 };
      // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker thread, not a window
      thread.worker.postMessage(job, [port2]);
    });
  }

  /** The running thread, if any (to watch or end it: the server's tests). */
  get worker(): Worker | null {
    return this.thread?.worker ?? null;
  }

  /** How many writes the thread is doing now. */
  get writing(): number {
    return this.thread?.failures.size ?? 0;
  }

  /** Ends the thread (writes still running fail; the server is stopping). */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.worker.terminate();
  }
}
