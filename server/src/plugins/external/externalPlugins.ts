import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { HttpError } from '../../errors.ts';
import { API_PREFIX } from '../../http/apiPrefix.ts';
import { registerCompression } from '../../http/compression.ts';
import { counterRateLimitStore } from '../../http/rateLimitStore.ts';
import { addSecurityHeaders } from './securityHeaders.ts';

/** The OpenAPI document (`/api/v1/openapi.json`) and its browsable page (`/api/v1/docs`), built from the routes' schemas. */
async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'PracticeFolio API',
        description: 'The API of the PracticeFolio portal and its mobile apps.',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${API_PREFIX}/docs`, staticCSP: false });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}

/**
 * Every plugin from outside the project, in one place and in this order: cookies, multipart
 * uploads, compression (decision 018), security headers, rate limits and the API's documentation.
 * Registered before the features: several attach to each route as it is declared.
 */
async function externalPlugins(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: app.config.uploadLimitBytes, files: 1 } });
  // Before every route: API answers over 1 KiB are compressed (decision 018).
  await registerCompression(app, API_PREFIX);
  // The multipart parser accepts a form on every route; only the upload routes read one, so
  // elsewhere a form would be taken for "no body" and its content silently ignored.
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart() && !request.routeOptions.schema?.consumes?.includes('multipart/form-data')) {
      throw new HttpError(415, 'unsupported_media_type', 'This content type is not accepted here.');
    }
  });
  addSecurityHeaders(app);
  await app.register(fastifyRateLimit, {
    global: false,
    // Counted in PostgreSQL, or in Redis with REDIS_URL: the limits hold across every node of the installation.
    store: counterRateLimitStore(app.counters),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'too_many_requests', `Too many attempts, please try again in ${context.after}.`),
  });
  await registerApiDocs(app);
}

export default fastifyPlugin(externalPlugins, { name: 'external-plugins' });
