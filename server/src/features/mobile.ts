import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { mobileRoutes } from '../routes/mobileRoutes.ts';
import { createDeviceService } from '../services/deviceService.ts';

/** The calls only the mobile apps make (their push tokens, their message list). Needs the notifications feature. */
export async function mobileFeature(app: FastifyInstance): Promise<void> {
  app.services.devices = createDeviceService(app.serviceContext);
  await app.register(authenticated(mobileRoutes));
}
