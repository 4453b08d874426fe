import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { momentRoutes } from '../routes/momentRoutes.ts';
import { createMomentChecker, createMomentService } from '../services/momentService.ts';

/** Private notes, caption tracks, alt text and the exports of moment comments. */
export async function momentsFeature(app: FastifyInstance): Promise<void> {
  const ctx = app.serviceContext;
  app.services.moments = createMomentService(ctx, createMomentChecker(ctx.db, app.mediaStore));
  await app.register(authenticated(momentRoutes));
}
