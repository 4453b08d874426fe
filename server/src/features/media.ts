import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { mediaRoutes, uploadsRoutes } from '../routes/mediaRoutes.ts';
import { createMediaService } from '../services/mediaService.ts';

/**
 * Uploads to artifacts (signed in), and the stored files and their viewer pages by capability
 * address (no session: `<img>`, `<video>` and the mobile apps send none).
 */
export async function mediaFeature(app: FastifyInstance): Promise<void> {
  app.services.media = createMediaService(app.serviceContext, app.mediaStore);
  await app.register(authenticated(mediaRoutes));
  await app.register(uploadsRoutes);
}
