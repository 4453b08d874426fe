import type { FastifyInstance } from 'fastify';
import { systemRoutes } from '../routes/systemRoutes.ts';

/** Health, readiness and the SPA's run-time configuration. Public. */
export async function systemFeature(app: FastifyInstance): Promise<void> {
  await app.register(systemRoutes);
}
