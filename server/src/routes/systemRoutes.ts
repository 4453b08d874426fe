import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppConfigSchema, HealthResponseSchema } from '#schemas/common';
import { publicAppConfig } from '../config.ts';

/** Health and the SPA's run-time configuration. Public. */
export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['system'], summary: 'Ready once migrations are done', response: { 200: HealthResponseSchema } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/config',
    { schema: { tags: ['system'], summary: 'Links the SPA shows', response: { 200: AppConfigSchema } } },
    async () => publicAppConfig(app.config),
  );
};
