/**
 * The worker thread of one research export (decision 021): its own heap (the limits its parent
 * gave it) and its own database connection, so that building a package never grows the server's
 * heap. It writes the package from one snapshot and sends the ZIP to its parent chunk by chunk,
 * one chunk per `more` the parent sends (the parent asks as its client reads); `stop` ends the
 * work (the transaction rolls back).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';
import { openPostgres } from '../db/client.ts';
import { writePackage } from './researchPackage.ts';
import type { ResearchWorkerData, ToResearchWorker } from './researchRunner.ts';

const port = parentPort!;
const data = workerData as ResearchWorkerData;
const stopped = new AbortController();
let credits = 0;
let waiting: (() => void) | null = null;

port.on('message', (message: ToResearchWorker) => {
  if (message.type === 'stop') {
    stopped.abort();
    return;
  }
  credits += 1;
  const send = waiting;
  waiting = null;
  send?.();
});

const rowCounts: Record<string, number> = {};
const sink = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    const send = () => {
      credits -= 1;
      const bytes = chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength) as ArrayBuffer;
      port.postMessage({ type: 'chunk', bytes }, [bytes]);
      callback();
    };
    if (credits > 0) send();
    else waiting = send;
  },
  final(callback) {
    // Every file was written before the ZIP's end (`writePackage` ends it last); the row counts go
    // first, as the parent records them when the last byte has gone out.
    port.postMessage({ type: 'rows', rowCounts });
    port.postMessage({ type: 'end' });
    callback();
  },
});

const db = openPostgres(data.connection, { max: 1 });
const zip = new yazl.ZipFile();
zip.outputStream.on('error', (error: Error) => sink.destroy(error));
zip.outputStream.pipe(sink);
try {
  await db.transaction(async (tx) => {
    // Every file from one snapshot, so that they join whatever changes meanwhile.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await writePackage(tx, zip, data.filters, Buffer.from(data.secret), data.record, rowCounts, stopped.signal);
  });
} catch (error) {
  if (!stopped.signal.aborted)
    port.postMessage({
      type: 'failed',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  sink.destroy();
} finally {
  await db.close().catch(() => undefined);
  // The ZIP's end may still be on its way to the parent (it asks as its client reads).
  await finished(sink).catch(() => undefined);
  port.postMessage({ type: 'closed' });
}
