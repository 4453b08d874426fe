import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { coverageRoutes } from '../routes/coverageRoutes.ts';
import { createCoverageService } from '../services/coverageService.ts';

/** The coverage map (decision 056): read-only, from the artifacts' tags and the rubric scores. */
export async function coverageFeature(app: FastifyInstance): Promise<void> {
  app.services.coverage = createCoverageService(app.serviceContext);
  await app.register(authenticated(coverageRoutes));
}
