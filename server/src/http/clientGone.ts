import type { FastifyReply } from 'fastify';

/**
 * A signal that fires when the client goes away before the response's end: a download that
 * nobody reads any more stops its work (its reading of the database) at once.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}
