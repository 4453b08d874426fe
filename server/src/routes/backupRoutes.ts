import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BackupStatusQuerySchema, BackupStatusSchema } from '#schemas/backup';
import { errorResponses } from './errorResponses.ts';

/** The scheduled backups as researchers see them on Manage Users. Protected. */
export const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/backups/status',
    {
      schema: {
        tags: ['backups'],
        summary: 'Whether scheduled backups are on, the last one that ended and the one under way (researchers)',
        querystring: BackupStatusQuerySchema,
        response: { 200: BackupStatusSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return app.services.backupStatus.status(request.user);
    },
  );
};
