import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RefreshResponseSchema } from '#schemas/auth';
import { IdParamsSchema } from '#schemas/common';
import { LogoutResponseSchema } from '#schemas/sso';
import {
  CreateUserBodySchema,
  MeSchema,
  UserListQuerySchema,
  UserListResponseSchema,
  UserSchema,
  UserUpdateBodySchema,
} from '#schemas/user';
import { USER_LIMITS } from '../http/userLimits.ts';
import { clearSessionCookies } from '../http/webSession.ts';
import { deliverToken } from './authRoutes.ts';
import { errorResponses } from './errorResponses.ts';

/** Accounts: the caller, and researchers' account management. Protected. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/me',
    { schema: { tags: ['users'], summary: 'The signed-in user', response: { 200: MeSchema, ...errorResponses } } },
    async (request) => app.services.users.me(request.user),
  );

  app.post(
    '/token/refresh',
    {
      schema: {
        tags: ['users'],
        summary: 'A fresh session token',
        response: { 200: RefreshResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const refreshed = await app.services.auth.refresh({
        user: request.user,
        sessionId: request.sessionId,
        generation: request.sessionGeneration,
      });
      return { jwt: deliverToken(request, reply, refreshed, app.config.publicUrl) };
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Signs out: the session ends on every device its token is used (and the provider’s own sign-out is offered for a single sign-on session)',
        response: { 200: LogoutResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      // The browser forgets what it kept of this session (private images in its cache).
      reply.header('clear-site-data', '"cache"');
      clearSessionCookies(request, reply, app.config.publicUrl);
      const origin = await app.services.auth.sessionOrigin(request.sessionId);
      await app.services.auth.logout(request.user, request.sessionId);
      const providerLogout = await app.services.sso.providerLogout(origin);
      return providerLogout ? { providerLogout } : {};
    },
  );

  app.get(
    '/users',
    {
      schema: {
        tags: ['users'],
        summary: 'Every account (researchers)',
        querystring: UserListQuerySchema,
        response: { 200: UserListResponseSchema, ...errorResponses },
      },
    },
    async (request) =>
      app.services.users.list(request.user, {
        ...(request.query.role !== undefined ? { role: request.query.role } : {}),
        ...(request.query.role_ne !== undefined ? { roleNot: request.query.role_ne } : {}),
      }),
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Block or unblock an account (researchers, not their own)',
        params: IdParamsSchema,
        body: UserUpdateBodySchema,
        response: { 200: UserSchema, ...errorResponses },
      },
    },
    async (request) => app.services.users.setBlocked(request.user, request.params.id, request.body.blocked),
  );

  app.post(
    '/invitations/outside',
    {
      config: USER_LIMITS.invitations,
      schema: {
        tags: ['users'],
        summary: 'Create an account and e-mail its set-password link (researchers)',
        body: CreateUserBodySchema,
        response: { 200: UserSchema, ...errorResponses },
      },
    },
    async (request) => app.services.users.create(request.user, request.body),
  );
};
