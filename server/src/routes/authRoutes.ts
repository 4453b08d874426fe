import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuthResponseSchema, ForgotPasswordBodySchema, LoginBodySchema, ResetPasswordBodySchema } from '#schemas/auth';
import { LoginResponseSchema } from '#schemas/loginBundle';
import { OkResponseSchema } from '#schemas/common';
import { isWebClient, setSessionCookies } from '../http/webSession.ts';
import { authError } from '../errors.ts';
import { errorResponses } from './errorResponses.ts';

/** The refusal of a password sign-in on the portal's pages when PASSWORD_LOGIN=false. */
export const PASSWORD_LOGIN_OFF = 'Sign in with your school account on this portal.';

/**
 * The token of a new session or refresh, as the client keeps it: the mobile apps read it from
 * the body; the web app gets it in its `HttpOnly` cookie (kept across browser restarts only for
 * a `persistent` session) and an empty `jwt` in the body.
 */
export function deliverToken(
  request: FastifyRequest,
  reply: FastifyReply,
  signIn: { jwt: string; persistent: boolean },
  publicUrl: string,
): string {
  if (!isWebClient(request)) return signIn.jwt;
  setSessionCookies(request, reply, signIn.jwt, publicUrl, signIn.persistent);
  return '';
}

/** Which client signs in (see `SignInClient`). */
const clientOf = (request: FastifyRequest) => (isWebClient(request) ? 'web' : 'app');

/** Per-address limit of the public auth routes: generous, because a whole school may share one address. */
const perAddress = { rateLimit: { max: 300, timeWindow: '1 minute' } };

/** `/auth/*`: public routes; their errors use the nested message shape. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/local',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'Log in; the user comes with the portfolios, artifacts and discussions the mobile apps cache',
        body: LoginBodySchema,
        response: { 200: LoginResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      // PASSWORD_LOGIN=false: the portal's pages sign in through the providers only; the mobile
      // apps, which know no other way, keep signing in with a password (their contract).
      if (!app.config.sso.passwordLogin && isWebClient(request))
        throw authError(PASSWORD_LOGIN_OFF, 'password_login_off');
      const signIn = await app.services.auth.login(request.body, request.ip, clientOf(request));
      return {
        jwt: deliverToken(request, reply, signIn, app.config.publicUrl),
        user: await app.services.bundle.forUser(signIn.user),
      };
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'E-mail a reset link (answers the same whether or not the address has an account)',
        body: ForgotPasswordBodySchema,
        response: { 200: OkResponseSchema, ...errorResponses },
      },
    },
    async (request) => app.services.auth.forgotPassword(request.body.email, request.ip),
  );

  app.post(
    '/auth/reset-password',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a one-time code and log in',
        body: ResetPasswordBodySchema,
        response: { 200: AuthResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const signIn = await app.services.auth.resetPassword(request.body, request.ip, clientOf(request));
      return {
        jwt: deliverToken(request, reply, signIn, app.config.publicUrl),
        user: app.services.users.me(signIn.user),
      };
    },
  );
};
