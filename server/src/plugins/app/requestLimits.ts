import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { capConnectionsPerAddress } from '../../http/connectionCap.ts';
import { rejectNulInUrl } from '../../http/requestGuards.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The timer that cuts a body which does not arrive in time (see `cutSlowBodies`). */
    bodyDeadline?: NodeJS.Timeout;
  }
}

/**
 * A request body other than an upload must arrive whole within `ms`: a client that trickles its
 * body (a slow-body attack) gets 408 and its connection is closed. Uploads stream to disk for as
 * long as they keep moving (the idle timeout cuts a stalled one).
 */
function cutSlowBodies(app: FastifyInstance, ms: number): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const length = request.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
    if (hasBody && !request.isMultipart()) {
      request.bodyDeadline = setTimeout(() => {
        const socket = request.raw.socket;
        if (!socket || socket.destroyed) return;
        request.log.warn('request body too slow: connection closed');
        socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        socket.destroySoon();
      }, ms);
      request.bodyDeadline.unref();
    }
    done();
  });
  const clear = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    clearTimeout(request.bodyDeadline);
    done();
  };
  app.addHook('preValidation', clear);
  app.addHook('onResponse', clear);
  app.addHook('onRequestAbort', (request, done) => {
    clearTimeout(request.bodyDeadline);
    done();
  });
}

/**
 * Limits that hold before any route runs: no NUL in a URL, a time for headers and for bodies,
 * and a cap on the connections one address may hold.
 */
async function requestLimits(app: FastifyInstance): Promise<void> {
  const { timeouts, maxConnectionsPerAddress } = app.config;
  app.addHook('onRequest', rejectNulInUrl);
  app.server.headersTimeout = timeouts.headersMs;
  capConnectionsPerAddress(app.server, maxConnectionsPerAddress);
  cutSlowBodies(app, timeouts.bodyMs);
}

export default fastifyPlugin(requestLimits, { name: 'request-limits' });
