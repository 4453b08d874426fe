import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ArchiveCreateBodySchema,
  ArchiveJobSchema,
  ArchiveListResponseSchema,
  ArchiveParamsSchema,
} from '#schemas/archive';
import { ApiErrorSchema } from '#schemas/common';
import { contentDisposition } from '../http/contentDisposition.ts';
import { sendStored } from '../http/sendStored.ts';
import { USER_LIMITS } from '../http/userLimits.ts';
import { ARCHIVE_MESSAGES } from '../policies/archivePolicy.ts';
import { errorResponses } from './errorResponses.ts';

/** A teacher's archive of her own work: ask for it, follow its build, download it. Protected. */
export const archiveRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['archives'];

  app.get(
    '/archives',
    {
      schema: {
        tags,
        summary: 'My archives, newest first (teachers)',
        response: { 200: ArchiveListResponseSchema, ...errorResponses },
      },
    },
    async (request) => app.services.archives.list(request.user),
  );

  app.post(
    '/archives',
    {
      config: USER_LIMITS.archives,
      schema: {
        tags,
        summary: 'Ask for an archive of my work, built in the background (teachers; one at a time)',
        body: ArchiveCreateBodySchema,
        response: { 200: ArchiveJobSchema, 409: ApiErrorSchema, ...errorResponses },
      },
    },
    async (request) => app.services.archives.request(request.user),
  );

  app.get(
    '/archives/:id/download',
    {
      // Sent as stored: the ZIP is already compressed, and ranges let a broken download resume.
      compress: false,
      schema: {
        tags,
        summary: 'The ZIP of a ready archive (its owner only)',
        params: ArchiveParamsSchema,
        produces: ['application/zip'],
        response: { 409: ApiErrorSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const file = await app.services.archives.download(request.user, request.params.id);
      reply
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', contentDisposition('attachment', file.downloadName))
        .type('application/zip');
      return sendStored(request, reply, file.store, file.fileName, ARCHIVE_MESSAGES.expired);
    },
  );
};
