import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '#schemas/user';
import { unauthorized } from '../errors.ts';

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

/**
 * `onRequest` hook of protected routes: resolves the caller from `Authorization: Bearer`,
 * or from the `jwt` cookie when `allowCookie` (media files), and refuses everyone else with 401.
 */
export function authenticateHook(options: { allowCookie?: boolean } = {}) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request) ?? (options.allowCookie ? (request.cookies['jwt'] ?? null) : null);
    if (!token) throw unauthorized('You need to log in.');
    const { user, sessionId, generation } = await request.server.services.auth.authenticate(token);
    request.user = user;
    request.sessionId = sessionId;
    request.sessionGeneration = generation;
  };
}
