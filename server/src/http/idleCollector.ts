import type { Server } from 'node:http';
import { Session } from 'node:inspector';

export interface IdleCollectorOptions {
  /** How long the server must have been quiet (no request begun or ended) before collecting. */
  quietMs?: number;
  /** How often the server's quiet is checked. */
  checkEveryMs?: number;
  /** The full garbage collection (V8's, unless given). */
  collect?: () => void;
}

/**
 * V8's full collection in its memory-reducing form, as under memory pressure: compacting, and
 * shrinking the heap's reserved pages and the young generation, so that what was freed goes back
 * to the system. Only the inspector protocol's `HeapProfiler.collectGarbage` asks for that form
 * (Node 20's `gc()` leaves the heap its size: measured 169 MB RSS after it, 117 MB after this),
 * so the collector holds an in-process inspector session; no debugging port is opened.
 */
function v8Collect(): () => void {
  const session = new Session();
  session.connect();
  return () => session.post('HeapProfiler.collectGarbage');
}

/**
 * Gives back the memory of a burst of requests once the server has gone quiet: one full garbage
 * collection after `quietMs` without a request beginning or ending, and none again until there
 * has been another request.
 *
 * V8 grows its heap to the working size of a burst (ten large answers at once, say) and Node does
 * not shrink it while idle: measured after a load on the large data set, 205 MB RSS of which a
 * full collection gave back 87 MB (benchmark `memory`, decision 012). A collection costs a few
 * tens of milliseconds once per quiet spell; under steady load it never runs. Open event streams
 * (notifications) do not count as activity, so a server with browsers listening still goes quiet.
 */
export function collectWhenIdle(server: Server, options: IdleCollectorOptions = {}): () => void {
  const quietMs = options.quietMs ?? 2000;
  const collect = options.collect ?? v8Collect();
  let lastActivity = Date.now();
  let pending = false;
  const touch = () => {
    lastActivity = Date.now();
    pending = true;
  };
  const onRequest = (_request: unknown, response: { once: (event: 'close', listener: () => void) => unknown }) => {
    touch();
    response.once('close', touch);
  };
  server.on('request', onRequest);
  const timer = setInterval(() => {
    if (pending && Date.now() - lastActivity >= quietMs) {
      pending = false;
      collect();
    }
  }, options.checkEveryMs ?? 500);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('request', onRequest);
  };
}
