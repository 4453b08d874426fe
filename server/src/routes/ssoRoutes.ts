import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ProviderParamsSchema,
  SignInMethodsSchema,
  SsoCallbackQuerySchema,
  SsoStartQuerySchema,
  type SsoErrorCode,
} from '#schemas/sso';
import { notFound } from '../errors.ts';
import { setSessionCookies } from '../http/webSession.ts';
import { SSO_LOGIN_TTL_SECONDS, SsoRefusal } from '../services/ssoService.ts';
import { errorResponses } from './errorResponses.ts';

/** The cookie that binds a sign-in under way at a provider to the browser that started it. */
export const SSO_STATE_COOKIE = 'pf_sso_state';
const COOKIE_PATH = '/api/v1/auth/';

/** Per-address limit of starting and completing sign-ins (a whole school may share one address). */
const perAddress = { rateLimit: { max: 120, timeWindow: '1 minute' } };

/** Where the browser lands after a refused sign-in: the login page, which says what to do. */
const loginPage = (code: SsoErrorCode) => `/login?sso=${code}`;

const secure = (request: FastifyRequest, publicUrl: string) =>
  request.protocol === 'https' || publicUrl.startsWith('https:');

/**
 * `/auth/oidc/:provider/*`: single sign-on through an OpenID Connect provider, answered with
 * redirects (the browser navigates), and `/auth/methods`, what the login page offers. Public.
 */
export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  const clearState = (request: FastifyRequest, reply: FastifyReply) =>
    reply.clearCookie(SSO_STATE_COOKIE, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: secure(request, app.config.publicUrl),
    });

  /** Ends a refused sign-in on the login page (the reason goes to the log, never to the page). */
  const refused = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (!(error instanceof SsoRefusal)) throw error;
    request.log.warn({ code: error.code, reason: error.reason }, 'single sign-on refused');
    clearState(request, reply);
    return reply.redirect(loginPage(error.code), 303);
  };

  const knownProvider = (id: string) => {
    if (!app.services.sso.has(id)) throw notFound('No sign-in provider has this id.');
  };

  app.get(
    '/auth/methods',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'The ways to sign in that the login page offers',
        response: { 200: SignInMethodsSchema, ...errorResponses },
      },
    },
    async () => app.services.sso.methods(),
  );

  app.get(
    '/auth/oidc/:provider/start',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'Starts a sign-in at the provider (redirects there)',
        params: ProviderParamsSchema,
        querystring: SsoStartQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      knownProvider(request.params.provider);
      try {
        const { url, state } = await app.services.sso.start(request.params.provider);
        reply.setCookie(SSO_STATE_COOKIE, state, {
          path: COOKIE_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure: secure(request, app.config.publicUrl),
          maxAge: SSO_LOGIN_TTL_SECONDS,
        });
        return reply.redirect(url, 303);
      } catch (error) {
        return refused(request, reply, error);
      }
    },
  );

  app.get(
    '/auth/oidc/:provider/callback',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'Where the provider returns (register PUBLIC_URL + this path); signs in and redirects',
        params: ProviderParamsSchema,
        querystring: SsoCallbackQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      knownProvider(request.params.provider);
      try {
        const signIn = await app.services.sso.callback(
          request.params.provider,
          request.query as Record<string, string>,
          request.cookies[SSO_STATE_COOKIE],
        );
        clearState(request, reply);
        setSessionCookies(request, reply, signIn.jwt, app.config.publicUrl, signIn.persistent);
        return reply.redirect('/dashboard', 303);
      } catch (error) {
        return refused(request, reply, error);
      }
    },
  );
};
