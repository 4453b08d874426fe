import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { researchRoutes } from '../routes/researchRoutes.ts';
import { createResearchExportService } from '../services/researchExportService.ts';

/** The research export package and its log (researchers); its workers end with the server. */
export async function researchFeature(app: FastifyInstance): Promise<void> {
  const research = createResearchExportService(app.serviceContext);
  app.services.research = research;
  app.addHook('onClose', () => research.close());
  await app.register(authenticated(researchRoutes));
}
