import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { discussionRoutes } from '../routes/discussionRoutes.ts';
import { invitationRoutes } from '../routes/invitationRoutes.ts';
import { sharedArtifactRoutes } from '../routes/sharedArtifactRoutes.ts';
import { sharedPortfolioRoutes } from '../routes/sharedPortfolioRoutes.ts';
import { versionRoutes } from '../routes/versionRoutes.ts';
import { createDiscussionService } from '../services/discussionService.ts';
import { createInvitationService } from '../services/invitationService.ts';
import { createMomentChecker } from '../services/momentService.ts';
import { createSharedArtifactService } from '../services/sharedArtifactService.ts';
import { createSharedPortfolioService } from '../services/sharedPortfolioService.ts';
import { createVersionService } from '../services/versionService.ts';
import { rubricRoutes } from '../routes/rubricRoutes.ts';
import { createRubricService } from '../services/rubricService.ts';
import { createScoreService } from '../services/scoreService.ts';

/**
 * Shared portfolios, their artifacts, the discussion on them, rubrics and scores, and invitations, and the history of
 * every artifact (personal ones too: both restores are saves of their artifact's service). Needs
 * the portfolios and media features.
 */
export async function sharedFeature(app: FastifyInstance): Promise<void> {
  const ctx = app.serviceContext;
  const shared = createSharedPortfolioService(ctx);
  app.services.shared = shared;
  app.services.sharedArtifacts = createSharedArtifactService(ctx, app.mediaStore, app.services.media);
  const moments = createMomentChecker(ctx.db, app.mediaStore);
  app.services.discussion = createDiscussionService(ctx, moments);
  app.services.rubrics = createRubricService(ctx);
  app.services.scores = createScoreService(ctx, moments);
  app.services.invitations = createInvitationService(ctx, shared);
  app.services.versions = createVersionService(ctx);
  await app.register(authenticated(sharedPortfolioRoutes));
  await app.register(authenticated(sharedArtifactRoutes));
  await app.register(authenticated(discussionRoutes));
  await app.register(authenticated(invitationRoutes));
  await app.register(authenticated(versionRoutes));
  await app.register(authenticated(rubricRoutes));
}
