import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** Browser features no page of the portal uses; full screen for its own videos and the embedded players. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=(), ' +
  'display-capture=(), browsing-topics=(), fullscreen=(self "https://www.youtube-nocookie.com" "https://player.vimeo.com")';

/** Helmet's middleware, built once (a per-request build costs a tenth of a small answer's CPU). */
const helmetMiddleware = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameSrc: ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  // `frame-ancestors 'none'` says it for every browser that matters.
  xFrameOptions: false,
  // Sent below, over HTTPS only.
  strictTransportSecurity: false,
});

/**
 * The headers Helmet sets, found once by running its middleware on a response that only records
 * them: with the options above they are the same for every request, and setting them from a list
 * spares each request Helmet's chain of a dozen middlewares.
 */
function helmetHeaders(): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => void headers.set(name, String(value)),
    removeHeader: (name: string) => void headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let done = false;
  helmetMiddleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    done = true;
  });
  // Helmet runs synchronously: headers that depended on the request or came later would be missing.
  if (!done || headers.size === 0) throw new Error('the security headers could not be prepared');
  return [...headers];
}

const SECURITY_HEADERS = helmetHeaders();

/** Helmet's headers, the permissions policy, and HSTS over HTTPS, on every answer. */
export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    // HTTPS as this server sees it: its own TLS, or `X-Forwarded-Proto` from a trusted proxy (TRUST_PROXY).
    if (request.protocol === 'https')
      reply.raw.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
    for (const [name, value] of SECURITY_HEADERS) reply.raw.setHeader(name, value);
    done();
  });
}
