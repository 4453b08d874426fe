import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { objectStoreOf } from '../media/objectStore.ts';
import { archiveRoutes } from '../routes/archiveRoutes.ts';
import { createArchiveService, type ArchiveWorkerOptions } from '../services/archiveService.ts';

/**
 * A teacher's archive of her own work. Built in the background once the server is ready; a build
 * under way when it stops goes back to the queue. Old archives go with the housekeeping.
 */
export async function archivesFeature(
  app: FastifyInstance,
  options: { worker?: ArchiveWorkerOptions | undefined },
): Promise<void> {
  const folders = {
    archives: path.join(app.config.dataDir, 'archives'),
    uploads: app.mediaStore.objects,
    built: await objectStoreOf(app.config, 'archives'),
  };
  const archives = createArchiveService(app.serviceContext, folders, options.worker);
  app.services.archives = archives;
  app.housekeeping.add(() => archives.prune());
  app.addHook('onReady', async () => archives.worker.start());
  app.addHook('preClose', async () => archives.worker.stop());
  await app.register(authenticated(archiveRoutes));
}
