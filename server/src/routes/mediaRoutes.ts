import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { FileDeleteParamsSchema, UploadParamsSchema } from '#schemas/media';
import { readOneFile } from '../http/multipart.ts';
import { errorResponses } from './errorResponses.ts';

/** Uploads to and deletes from personal artifacts. Protected. */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['media'];
  app.post(
    '/portfolios/:id/artifacts/:artifactId/:kind',
    {
      schema: {
        tags,
        summary: 'Upload a file (multipart, field "file") to an artifact',
        consumes: ['multipart/form-data'],
        params: UploadParamsSchema,
        response: { 200: ArtifactMediaResponseSchema, ...errorResponses, 413: errorResponses[400] },
      },
    },
    async (request) =>
      app.services.media.uploadToArtifact(request.user, request.params, () => readOneFile(request, app.uploadLimitBytes)),
  );

  app.delete(
    '/portfolios/:id/artifacts/:artifactId/:kind/:fileId',
    {
      schema: { tags, summary: 'Remove a file from an artifact', params: FileDeleteParamsSchema, response: { 200: ArtifactMediaResponseSchema, ...errorResponses } },
    },
    async (request) => app.services.media.removeFromArtifact(request.user, request.params),
  );
};

/** `GET /uploads/{name}` path: a stored file name. */
export const UploadNameParamsSchema = z.strictObject({ name: z.string().max(100) });

/** `GET /uploads/{name}`: files, only for users who may read an artifact holding them (cookie or bearer). */
export const uploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/uploads/:name',
    { schema: { tags: ['media'], summary: 'A stored file', params: UploadNameParamsSchema } },
    async (request, reply) => {
      const file = await app.services.media.servable(request.user, request.params.name);
      const inline = file.isFormat || file.kind !== 'document' || file.mime === 'application/pdf';
      reply
        .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox")
        .header('cache-control', 'private, max-age=3600')
        .header('cross-origin-resource-policy', 'same-origin')
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        );
      reply.type(file.mime);
      return reply.sendFile(request.params.name, app.mediaStore.dir, { contentType: false, cacheControl: false });
    },
  );
};
