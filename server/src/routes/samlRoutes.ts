import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ProviderParamsSchema,
  SAML_RESPONSE_MAX,
  SamlAcsBodySchema,
  SamlLogoutQuerySchema,
  SsoStartQuerySchema,
} from '#schemas/sso';
import { badRequest, notFound } from '../errors.ts';
import { setSessionCookies } from '../http/webSession.ts';
import { SsoRefusal } from '../services/ssoRefusal.ts';
import { errorResponses } from './errorResponses.ts';

const FORM = 'application/x-www-form-urlencoded';
/** Per-address limit, as for OpenID Connect (a whole school may share one address). */
const perAddress = { rateLimit: { max: 120, timeWindow: '1 minute' } };

/**
 * `/auth/saml/:provider/*`: single sign-on through a SAML 2.0 identity provider. Public; answered
 * with redirects (the browser navigates) except the portal's own metadata.
 */
export const samlRoutes: FastifyPluginAsyncZod = async (app) => {
  const saml = app.services.sso.saml;
  // The identity provider's page posts the response as a form (HTTP-POST binding); only here.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: SAML_RESPONSE_MAX + 4096 }, (_request, body, done) => {
    const fields: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(body as string)) {
      const before = fields[key];
      // A field given twice is refused by the body's schema (a text, not a list).
      fields[key] = before === undefined ? value : ([] as string[]).concat(before, value);
    }
    done(null, fields);
  });

  const knownProvider = (id: string) => {
    if (!saml.has(id)) throw notFound('No sign-in provider has this id.');
  };

  /** Ends a refused sign-in on the login page (the reason goes to the log, never to the page). */
  const refused = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (!(error instanceof SsoRefusal)) throw error;
    request.log.warn({ code: error.code, reason: error.reason }, 'single sign-on refused');
    return reply.redirect(`/login?sso=${error.code}`, 303);
  };

  app.get(
    '/auth/saml/:provider/start',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'Starts a sign-in at the SAML identity provider (redirects there with an AuthnRequest)',
        params: ProviderParamsSchema,
        querystring: SsoStartQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      knownProvider(request.params.provider);
      try {
        return reply.redirect(await saml.start(request.params.provider), 303);
      } catch (error) {
        return refused(request, reply, error);
      }
    },
  );

  app.post(
    '/auth/saml/:provider/acs',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'The assertion consumer (HTTP-POST): checks the signed assertion, signs in and redirects',
        consumes: [FORM],
        params: ProviderParamsSchema,
        body: SamlAcsBodySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      knownProvider(request.params.provider);
      if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== FORM)
        throw badRequest('The assertion consumer takes the form of the HTTP-POST binding.');
      try {
        const signIn = await saml.acs(request.params.provider, request.body.SAMLResponse);
        setSessionCookies(request, reply, signIn.jwt, app.config.publicUrl, signIn.persistent);
        return reply.redirect('/dashboard', 303);
      } catch (error) {
        return refused(request, reply, error);
      }
    },
  );

  app.get(
    '/auth/saml/:provider/metadata',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'The portal’s SAML metadata for this provider (its entity id, assertion consumer and logout)',
        params: ProviderParamsSchema,
        querystring: SsoStartQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      knownProvider(request.params.provider);
      const xml = saml.spMetadata(request.params.provider);
      // XML, not JSON: the declared answers are the errors only.
      return reply.type('application/samlmetadata+xml').send(xml as never);
    },
  );

  app.get(
    '/auth/saml/:provider/logout',
    {
      config: perAddress,
      schema: {
        tags: ['auth'],
        summary: 'Where the identity provider returns after its single logout; back to the login page',
        params: ProviderParamsSchema,
        querystring: SamlLogoutQuerySchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      knownProvider(request.params.provider);
      // The portal's session ended before the provider was visited; nothing here signs anyone in or out.
      return reply.redirect('/login', 303);
    },
  );
};
