import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { User } from '#schemas/user';
import type { VersionClient } from '#schemas/versions';
import { unauthorized } from '../errors.ts';
import { requireSameOrigin } from './sameOrigin.ts';
import { SESSION_COOKIE } from './webSession.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by `authenticate` on protected routes. */
    user: User;
    /** The caller's server-side session (absent for tokens issued before sessions were kept). */
    sessionId?: string | undefined;
    /** The generation of the caller's token within its session (raised by every refresh). */
    sessionGeneration: number;
  }
}

/** The bearer token of a request, if it sent one. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The clients a request saves through (the others are what the server itself saves: copies, restores). */
export type SaveClient = Extract<VersionClient, 'web' | 'mobile'>;

/**
 * Through which client a signed-in request saves (the history's `client`): the mobile apps send a
 * bearer token, the web portal its session cookie.
 */
export function saveClientOf(request: FastifyRequest): SaveClient {
  return bearerToken(request) ? 'mobile' : 'web';
}

/**
 * `onRequest` hook of protected routes: resolves the caller from `Authorization: Bearer` (the
 * mobile apps) or from the web app's `HttpOnly` session cookie, and refuses everyone else with
 * 401. A write authenticated by the cookie must come from the portal's own pages (403).
 */
export function authenticateHook() {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const bearer = bearerToken(request);
    const token = bearer ?? request.cookies[SESSION_COOKIE] ?? null;
    if (!token) throw unauthorized('You need to log in.');
    if (!bearer) requireSameOrigin(request, request.server.config.publicUrl);
    const { user, sessionId, generation } = await request.server.services.auth.authenticate(token);
    request.user = user;
    request.sessionId = sessionId;
    request.sessionGeneration = generation;
  };
}

/** `routes` in a scope of their own that answers only a signed-in caller (see `authenticateHook`). */
export function authenticated(routes: FastifyPluginAsyncZod): FastifyPluginAsyncZod {
  return async (scope) => {
    scope.addHook('onRequest', authenticateHook());
    await scope.register(routes);
  };
}
