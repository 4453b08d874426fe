import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { exportRoutes } from '../routes/exportRoutes.ts';
import { createExportService } from '../services/exportService.ts';

/**
 * The summary CSVs (researchers). Downloads opened by links, which cannot send a header: the
 * session cookie counts here (read-only routes).
 */
export async function exportsFeature(app: FastifyInstance): Promise<void> {
  app.services.exports = createExportService(app.serviceContext);
  await app.register(authenticated(exportRoutes));
}
