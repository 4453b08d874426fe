import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppConfigSchema, HealthResponseSchema, ReadyResponseSchema } from '#schemas/common';
import { publicAppConfig } from '../config.ts';

/** How long a readiness check may take before it counts as failed. */
const READY_CHECK_MS = 2000;

/** Whether `work` succeeds within `ms`. */
async function answersWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Health, readiness and the SPA's run-time configuration. Public. */
export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: { tags: ['system'], summary: 'Ready once migrations are done', response: { 200: HealthResponseSchema } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary:
          'Whether this node should get requests (load balancers): database and media store reachable, not draining',
        response: { 200: ReadyResponseSchema, 503: ReadyResponseSchema },
      },
    },
    async (_request, reply) => {
      const draining = app.lifecycle.draining;
      // Each check is bounded, so a load balancer's probe gets its answer in time.
      const [database, media] = await Promise.all([
        answersWithin(app.db.query('SELECT 1'), READY_CHECK_MS),
        answersWithin(app.mediaStore.objects.check(), READY_CHECK_MS),
      ]);
      const ready = database && media && !draining;
      return reply
        .code(ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ready ? ('ready' as const) : ('unavailable' as const), database, media, draining });
    },
  );

  app.get(
    '/config',
    { schema: { tags: ['system'], summary: 'Links the SPA shows', response: { 200: AppConfigSchema } } },
    async () => publicAppConfig(app.config),
  );
};
