/**
 * The worker thread that writes the bytes of resumable uploads (decision 063): the request's
 * chunks arrive as transferred `ArrayBuffer`s, go through the same limit and the same tus store
 * (`@tus/file-store` or `@tus/s3-store`) as before, and are collected in this thread's small heap,
 * so that a long upload neither grows the server's young generation nor keeps its chunks waiting
 * there for a collection.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { StreamLimiter } from '@tus/server';
import { tusStoreOf } from './resumableStore.ts';
import {
  type FromWriter,
  type TusWriterData,
  type ToWriter,
  WRITER_ACK_BYTES,
  WRITER_COLLECT_BYTES,
  type WriteJob,
} from './tusWriterProtocol.ts';

const data = workerData as TusWriterData;
const place = await tusStoreOf(data);

/**
 * A young-generation collection, asked for every `WRITER_COLLECT_BYTES`: the chunks' memory is
 * outside V8's heap, and a scavenge frees every chunk already written, where V8 alone would wait
 * for tens of MiB of them (it starts one for external memory only at 32 MiB of young buffers). V8
 * options cannot be given to a worker: `gc` is taken from a context made after the flag is set
 * (the flag is the process's; contexts made later elsewhere see a `gc` too).
 */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as ((options: { type: 'minor' | 'major' }) => void) | undefined;

/** Writes one request's bytes; answers on the job's port with the new offset or the failure. */
async function write(job: WriteJob): Promise<void> {
  const port = job.port;
  const tell = (message: FromWriter) => port.postMessage(message);
  let unacked = 0;
  let uncollected = 0;
  const source = new Readable({
    highWaterMark: WRITER_ACK_BYTES,
    read() {
      if (unacked === 0) return;
      tell({ type: 'ack', bytes: unacked });
      unacked = 0;
    },
  });
  port.on('message', (message: ToWriter) => {
    if (message === 'end') {
      source.push(null);
      return;
    }
    const chunk = Buffer.from(message);
    unacked += chunk.length;
    uncollected += chunk.length;
    if (source.push(chunk) && unacked >= WRITER_ACK_BYTES) {
      tell({ type: 'ack', bytes: unacked });
      unacked = 0;
    }
    if (uncollected >= WRITER_COLLECT_BYTES) {
      uncollected = 0;
      collect?.({ type: 'minor' });
    }
  });
  try {
    // As the library would: the bytes over what the upload misses fail the write (413).
    const limited = new StreamLimiter(job.limit);
    const [offset] = await Promise.all([place.store.write(limited, job.key, job.offset), pipeline(source, limited)]);
    tell({ type: 'done', offset });
  } catch (error) {
    const known = error as { status_code?: unknown; body?: unknown; message?: unknown };
    tell({
      type: 'failed',
      ...(typeof known.status_code === 'number' ? { status: known.status_code } : {}),
      message: String(known.body ?? known.message ?? error),
    });
  } finally {
    port.close();
    // What a request left (a few chunks survive a scavenge and are promoted) goes before the next.
    collect?.({ type: 'major' });
  }
}

parentPort!.on('message', (job: WriteJob & { port: MessagePort }) => {
  void write(job);
});
// oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker thread, not a window
parentPort!.postMessage('ready');
