import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';
import { CROSS_SITE_MESSAGE, isWebClient } from './webSession.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const crossSite = () => new HttpError(403, 'cross_site_request', CROSS_SITE_MESSAGE);

/**
 * Whether a request comes from the portal's own pages, as far as the browser says: a
 * `Sec-Fetch-Site` of `same-origin` (or `none`, an address typed or bookmarked, when `typed`) and
 * an `Origin` of this request's own host or of `PUBLIC_URL` (behind a proxy that rewrites the
 * host), each when the browser sends it.
 */
export function isSameOrigin(request: FastifyRequest, publicUrl: string, { typed = false } = {}): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && !(typed && site === 'none')) return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    // Both normalised by URL (a default port is dropped from either).
    const host = new URL(origin).host;
    return host === new URL(`${request.protocol}://${request.host}`).host || host === new URL(publicUrl).host;
  } catch {
    return false;
  }
}

/**
 * Refuses (403) a write authenticated by the session cookie that does not come from the portal's
 * pages: it must carry the web app's header (which another site cannot add without a CORS
 * permission this server never gives) and be same-origin.
 */
export function requireSameOrigin(request: FastifyRequest, publicUrl: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (!isWebClient(request) || !isSameOrigin(request, publicUrl)) throw crossSite();
}

/**
 * Refuses (403) a download authenticated by the session cookie that a link of another site
 * opened: it must come from the portal's pages or be typed into the address bar.
 */
export function requireSameOriginDownload(request: FastifyRequest, publicUrl: string): void {
  if (!isSameOrigin(request, publicUrl, { typed: true })) throw crossSite();
}
