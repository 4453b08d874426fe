import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { insightsRoutes } from '../routes/insightsRoutes.ts';
import { researchRoutes } from '../routes/researchRoutes.ts';
import { createInsightsService } from '../services/insightsService.ts';
import { createResearchExportService } from '../services/researchExportService.ts';

/**
 * The research export package and its log (researchers; its workers end with the server), and the
 * charts' numbers (researchers and PLC leads).
 */
export async function researchFeature(app: FastifyInstance): Promise<void> {
  const research = createResearchExportService(app.serviceContext);
  app.services.research = research;
  app.addHook('onClose', () => research.close());
  app.services.insights = createInsightsService(app.serviceContext);
  await app.register(authenticated(researchRoutes));
  await app.register(authenticated(insightsRoutes));
}
