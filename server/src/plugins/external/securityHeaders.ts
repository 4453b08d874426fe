import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** Browser features no page of the portal uses; full screen for its own videos and the embedded players. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=(), ' +
  'display-capture=(), browsing-topics=(), fullscreen=(self "https://www.youtube-nocookie.com" "https://player.vimeo.com")';

/** Helmet's middleware, built once (a per-request build costs a tenth of a small answer's CPU). */
const securityHeaders = helmet({
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

/** Helmet's headers, the permissions policy, and HSTS over HTTPS, on every answer. */
export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    // HTTPS as this server sees it: its own TLS, or `X-Forwarded-Proto` from a trusted proxy (TRUST_PROXY).
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}
