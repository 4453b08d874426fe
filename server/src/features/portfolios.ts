import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { portfolioRoutes } from '../routes/portfolioRoutes.ts';
import { createArtifactService } from '../services/artifactService.ts';
import { discardAbandonedArtifacts } from '../services/housekeeping.ts';
import { createPortfolioService } from '../services/portfolioService.ts';

/** A teacher's own portfolios and their artifacts; new artifacts never saved are discarded by the housekeeping. */
export async function portfoliosFeature(app: FastifyInstance): Promise<void> {
  const ctx = app.serviceContext;
  app.services.portfolios = createPortfolioService(ctx, app.mediaStore);
  app.services.artifacts = createArtifactService(ctx, app.mediaStore);
  app.housekeeping.add(() => discardAbandonedArtifacts(app.db, app.mediaStore));
  await app.register(authenticated(portfolioRoutes));
}
