import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { discussionRoutes } from '../routes/discussionRoutes.ts';
import { invitationRoutes } from '../routes/invitationRoutes.ts';
import { sharedArtifactRoutes } from '../routes/sharedArtifactRoutes.ts';
import { sharedPortfolioRoutes } from '../routes/sharedPortfolioRoutes.ts';
import { createDiscussionService } from '../services/discussionService.ts';
import { createInvitationService } from '../services/invitationService.ts';
import { createMomentChecker } from '../services/momentService.ts';
import { createSharedArtifactService } from '../services/sharedArtifactService.ts';
import { createSharedPortfolioService } from '../services/sharedPortfolioService.ts';

/** Shared portfolios, their artifacts, the discussion on them and invitations. Needs the media feature. */
export async function sharedFeature(app: FastifyInstance): Promise<void> {
  const ctx = app.serviceContext;
  const shared = createSharedPortfolioService(ctx);
  app.services.shared = shared;
  app.services.sharedArtifacts = createSharedArtifactService(ctx, app.mediaStore, app.services.media);
  app.services.discussion = createDiscussionService(ctx, createMomentChecker(ctx.db, app.mediaStore));
  app.services.invitations = createInvitationService(ctx, shared);
  await app.register(authenticated(sharedPortfolioRoutes));
  await app.register(authenticated(sharedArtifactRoutes));
  await app.register(authenticated(discussionRoutes));
  await app.register(authenticated(invitationRoutes));
}
