import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { ResumableCreateHeadersSchema, ResumableUploadParamsSchema } from '#schemas/resumableUpload';
import { SharedArtifactMediaResponseSchema } from '#schemas/sharedArtifact';
import { HttpError } from '../errors.ts';
import { USER_LIMITS } from '../http/userLimits.ts';
import { CHECKSUM_ALGORITHMS, type TusBridge } from '../media/resumable/tusBridge.ts';
import { RESUMABLE_MESSAGES } from '../services/resumableUploadService.ts';
import { errorResponses } from './errorResponses.ts';

/** The content type of tus PATCH bodies (and of a creation that carries the first bytes). */
const TUS_BODY = 'application/offset+octet-stream';

/** A finished upload's answer: the file record, as the multipart route of its target answers. */
const FinishedSchema = z.union([ArtifactMediaResponseSchema, SharedArtifactMediaResponseSchema]);

const tusErrors = {
  ...errorResponses,
  409: errorResponses[400],
  410: errorResponses[400],
  413: errorResponses[400],
  423: errorResponses[400],
  460: errorResponses[400],
} as const;

/**
 * Resumable uploads (tus 1.0: core, creation, creation-with-upload, expiration, termination,
 * checksum) for the web app. Protected: the session cookie with the web app's header (writes), or
 * a bearer token. Each upload answers only its creator (404 to anyone else).
 */
export function resumableUploadRoutes(tus: TusBridge): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['media'];
    // The body stays a stream, read by the tus server as it arrives.
    app.addContentTypeParser(TUS_BODY, (_request, _payload, done) => done(null));
    const s = app.services.resumableUploads;
    /**
     * HEAD, PATCH and DELETE of an upload: only its creator's reach the tus server (others: 404).
     * A finished upload is answered here until its expiry (the answer to its last PATCH may have
     * been lost): complete, and its record again for the last PATCH repeated; 423 while it is being
     * finished, which the client asks again.
     */
    const forOwner = async (
      request: FastifyRequest<{ Params: z.infer<typeof ResumableUploadParamsSchema> }>,
      reply: FastifyReply,
    ) => {
      const row = await s.owned(request.user, request.params.uploadId);
      if (!row.finished) {
        if (row.finishing && request.method === 'HEAD')
          throw new HttpError(423, 'upload_locked', RESUMABLE_MESSAGES.finishing);
        return tus.handle(request, reply, request.user, { length: row.length });
      }
      reply.header('tus-resumable', '1.0.0').header('cache-control', 'no-store');
      if (request.method === 'DELETE') {
        // Forgotten; the file it became stays.
        await s.forget(row.id);
        return reply.code(204).send();
      }
      reply.header('upload-offset', String(row.length));
      if (request.method === 'HEAD') return reply.header('upload-length', String(row.length)).code(200).send();
      if (request.headers['upload-offset'] !== String(row.length))
        throw new HttpError(409, 'upload_offset_mismatch', RESUMABLE_MESSAGES.complete);
      return reply.code(200).send(await s.finishedRecord(request.user, row));
    };

    app.post(
      '/uploads/tus',
      {
        config: USER_LIMITS.resumableUploads,
        schema: {
          tags,
          summary:
            'Create a resumable upload (tus): Upload-Length, and Upload-Metadata naming target, portfolioId, artifactId, kind, filename (filetype, alt, description)',
          headers: ResumableCreateHeadersSchema,
          response: { 200: FinishedSchema, ...tusErrors },
        },
      },
      async (request, reply) => {
        // Checked and recorded before the tus server reads a byte.
        const id = await s.create(request.user, request.headers);
        let created = false;
        try {
          const answer = await tus.handle(request, reply, request.user, {
            length: request.headers['upload-length'],
            newId: id,
          });
          created = reply.statusCode < 300;
          return answer;
        } finally {
          if (!created) await s.forget(id);
        }
      },
    );

    app.head(
      '/uploads/tus/:uploadId',
      { schema: { tags, summary: 'The offset of a resumable upload (tus)', params: ResumableUploadParamsSchema } },
      forOwner,
    );

    app.patch(
      '/uploads/tus/:uploadId',
      {
        schema: {
          tags,
          summary: 'Send the next bytes of a resumable upload (tus); the last ones answer 200 with the file record',
          consumes: [TUS_BODY],
          params: ResumableUploadParamsSchema,
          response: { 200: FinishedSchema, ...tusErrors },
        },
      },
      forOwner,
    );

    app.delete(
      '/uploads/tus/:uploadId',
      {
        schema: {
          tags,
          summary: 'Cancel a resumable upload (tus termination): its bytes are deleted and its quota given back',
          params: ResumableUploadParamsSchema,
          response: { ...tusErrors },
        },
      },
      forOwner,
    );
  };
}

/** `OPTIONS /uploads/tus`: what the tus server offers (no session needed; it tells nothing about anyone). */
export function resumableUploadOptions(maxSize: number): FastifyPluginAsyncZod {
  return async (app) => {
    app.options(
      '/uploads/tus',
      { schema: { tags: ['media'], summary: 'The tus version, extensions and size limit' } },
      async (_request, reply) =>
        reply
          .code(204)
          .header('tus-resumable', '1.0.0')
          .header('tus-version', '1.0.0')
          .header('tus-extension', 'creation,creation-with-upload,expiration,termination,checksum')
          .header('tus-checksum-algorithm', CHECKSUM_ALGORITHMS.join(','))
          .header('tus-max-size', String(maxSize))
          .send(),
    );
  };
}
