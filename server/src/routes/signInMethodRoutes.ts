import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import {
  AppPasswordBodySchema,
  AppPasswordResponseSchema,
  IdentityParamsSchema,
  SignInMethodListSchema,
} from '#schemas/sso';
import { USER_LIMITS } from '../http/userLimits.ts';
import { deliverToken } from './authRoutes.ts';
import { errorResponses } from './errorResponses.ts';

/** An account's ways to sign in: researchers list and unlink them; a person sets a password for the apps. Protected. */
export const signInMethodRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/:id/sign-in-methods',
    {
      schema: {
        tags: ['users'],
        summary: 'How an account signs in: a password, and the linked single sign-on identities (researchers)',
        params: IdParamsSchema,
        response: { 200: SignInMethodListSchema, ...errorResponses },
      },
    },
    async (request) => app.services.signInMethods.list(request.user, request.params.id),
  );

  app.delete(
    '/users/:id/identities/:identityId',
    {
      config: USER_LIMITS.accountChanges,
      schema: {
        tags: ['users'],
        summary: 'Unlinks a single sign-on identity from an account (researchers)',
        params: IdentityParamsSchema,
        response: { 200: SignInMethodListSchema, ...errorResponses },
      },
    },
    async (request) => app.services.signInMethods.unlink(request.user, request.params.id, request.params.identityId),
  );

  app.put(
    '/users/me/password',
    {
      config: USER_LIMITS.passwordChanges,
      schema: {
        tags: ['users'],
        summary: 'Sets the caller’s password (the mobile apps sign in with it); other sessions end',
        body: AppPasswordBodySchema,
        response: { 200: AppPasswordResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const origin = await app.services.auth.sessionOrigin(request.sessionId);
      const signIn = await app.services.signInMethods.setAppPassword(request.user, request.body, origin);
      return { jwt: deliverToken(request, reply, signIn, app.config.publicUrl) };
    },
  );
};
