import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL_SECONDS } from '../security/tokens.ts';

/**
 * The web app's session: the token lives in an `HttpOnly` cookie that the server sets at login,
 * password reset and refresh, and clears at logout, so scripts in the page can never read it.
 * The web app says who it is with `X-PracticeFolio-Client: web` on every call; the mobile apps
 * do not, and keep receiving the token in the body (their contract).
 *
 * A cookie is sent by the browser whoever asks, so a write authenticated by it must prove that
 * it comes from the portal's own pages: the custom header (which another site cannot add without
 * a CORS permission this server never gives) and, when the browser names them, an `Origin` of
 * this server and a `Sec-Fetch-Site` of `same-origin`.
 */

export const WEB_CLIENT_HEADER = 'x-practicefolio-client';
export const SESSION_COOKIE = 'jwt';
/** Not secret: tells the web app that a session cookie exists, so it knows whether to check it. */
export const SESSION_MARKER_COOKIE = 'pf_session';
export const CROSS_SITE_MESSAGE = 'This request must come from the portal’s own pages.';

export function isWebClient(request: FastifyRequest): boolean {
  return request.headers[WEB_CLIENT_HEADER] === 'web';
}

function secure(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === 'https' || publicUrl.startsWith('https:');
}

/**
 * Sets the session cookie (and its readable marker) for a web client; the body then carries no
 * token. A persistent session ("keep me signed in") gets cookies that live as long as a token
 * (30 days, renewed by a refresh); any other gets browser-session cookies (no `Max-Age` or
 * `Expires`), which the browser forgets when it closes.
 */
export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, token: string, publicUrl: string, persistent: boolean): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: secure(request, publicUrl), ...(persistent ? { maxAge: SESSION_TTL_SECONDS } : {}) };
  reply.setCookie(SESSION_COOKIE, token, { ...common, httpOnly: true });
  reply.setCookie(SESSION_MARKER_COOKIE, '1', { ...common, httpOnly: false });
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply, publicUrl: string): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: secure(request, publicUrl) };
  reply.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
  reply.clearCookie(SESSION_MARKER_COOKIE, common);
}
