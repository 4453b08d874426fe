import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import { MediaSchema } from '#schemas/media';
import {
  ArtifactMediaParamsSchema,
  CaptionFileQuerySchema,
  CaptionTrackListSchema,
  CaptionTrackSchema,
  CaptionUpdateBodySchema,
  CaptionUploadBodySchema,
  CaptionUploadResponseSchema,
  MediaTextBodySchema,
  NoteBodySchema,
  NoteListSchema,
  NoteSchema,
  NoteUpdateBodySchema,
} from '#schemas/moments';
import { sendCsv } from '../export/csv.ts';
import { contentDisposition } from '../http/contentDisposition.ts';
import { USER_LIMITS } from '../http/userLimits.ts';
import { MOMENTS_CSV_HEADER, momentCsvRows, momentsVtt } from '../services/momentService.ts';
import { errorResponses } from './errorResponses.ts';

const errors = { ...errorResponses, 409: errorResponses[400], 413: errorResponses[400], 423: errorResponses[400] };

/** A file name for a download: the video's name without its extension, and what the file holds. */
const downloadName = (mediaName: string, what: string) => `${mediaName.replace(/\.[^.]*$/, '') || 'video'} ${what}`;

/** Private notes, caption tracks, alt text and the exports of moment comments. Protected. */
export const momentRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;

  const noteTags = ['private notes'];
  app.get(
    '/artifacts/:id/notes',
    { schema: { tags: noteTags, summary: 'My private notes on the videos of my artifact', params: IdParamsSchema, response: { 200: NoteListSchema, ...errors } } },
    async (request) => s.moments.notes(request.user, request.params.id),
  );
  app.post(
    '/artifacts/:id/notes',
    { config: USER_LIMITS.notes, schema: { tags: noteTags, summary: 'Add a private note at a moment of a video', params: IdParamsSchema, body: NoteBodySchema, response: { 200: NoteSchema, ...errors } } },
    async (request) => s.moments.addNote(request.user, request.params.id, request.body),
  );
  app.patch(
    '/artifact-notes/:id',
    { config: USER_LIMITS.notes, schema: { tags: noteTags, summary: 'Change my note (text or times)', params: IdParamsSchema, body: NoteUpdateBodySchema, response: { 200: NoteSchema, ...errors } } },
    async (request) => s.moments.updateNote(request.user, request.params.id, request.body),
  );
  app.delete(
    '/artifact-notes/:id',
    { schema: { tags: noteTags, summary: 'Delete my note', params: IdParamsSchema, response: { 200: NoteSchema, ...errors } } },
    async (request) => s.moments.deleteNote(request.user, request.params.id),
  );

  const captionTags = ['captions'];
  for (const [prefix, holder] of [
    ['/artifacts', 'artifact'],
    ['/shared-artifacts', 'sharedArtifact'],
  ] as const) {
    const whose = holder === 'artifact' ? 'my artifact' : 'a shared artifact';
    app.get(
      `${prefix}/:id/media/:mediaId/captions`,
      { schema: { tags: captionTags, summary: `Caption tracks of a video of ${whose} (without their cues: GET /captions/{id})`, params: ArtifactMediaParamsSchema, response: { 200: CaptionTrackListSchema, ...errors } } },
      async (request) => s.moments.captions(request.user, { holder, holderId: request.params.id }, request.params.mediaId),
    );
    app.post(
      `${prefix}/:id/media/:mediaId/captions`,
      {
        config: USER_LIMITS.captions,
        schema: {
          tags: captionTags,
          summary: `Add a caption track to a video of ${whose} from a WebVTT or SRT file (≤ 512 KiB, ≤ 5000 captions; a track in the same language is replaced; captions past the video's end are cut to it)`,
          params: ArtifactMediaParamsSchema,
          body: CaptionUploadBodySchema,
          response: { 200: CaptionUploadResponseSchema, ...errors },
        },
      },
      async (request) => s.moments.addCaptions(request.user, { holder, holderId: request.params.id }, request.params.mediaId, request.body),
    );
  }
  app.get(
    '/captions/:id',
    { schema: { tags: captionTags, summary: 'A caption track with its cues', params: IdParamsSchema, response: { 200: CaptionTrackSchema, ...errors } } },
    async (request) => s.moments.caption(request.user, request.params.id),
  );
  app.put(
    '/captions/:id',
    { config: USER_LIMITS.captions, schema: { tags: captionTags, summary: 'Replace a caption track', params: IdParamsSchema, body: CaptionUpdateBodySchema, response: { 200: CaptionTrackSchema, ...errors } } },
    async (request) => s.moments.updateCaptions(request.user, request.params.id, request.body),
  );
  app.delete(
    '/captions/:id',
    { config: USER_LIMITS.captions, schema: { tags: captionTags, summary: 'Delete a caption track', params: IdParamsSchema, response: { 200: CaptionTrackSchema, ...errors } } },
    async (request) => s.moments.deleteCaptions(request.user, request.params.id),
  );
  app.get(
    '/captions/:id/track.vtt',
    {
      schema: { tags: captionTags, summary: 'A caption track as a WebVTT file (?download=1: as an attachment)', params: IdParamsSchema, querystring: CaptionFileQuerySchema, produces: ['text/vtt'] },
    },
    async (request, reply) => {
      const file = await s.moments.captionFile(request.user, request.params.id);
      reply.type('text/vtt; charset=utf-8').header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff');
      if (request.query.download === '1') reply.header('content-disposition', contentDisposition('attachment', file.fileName));
      return file.text;
    },
  );

  const mediaTags = ['media'];
  app.patch(
    '/artifacts/:id/media/:mediaId',
    {
      schema: { tags: mediaTags, summary: 'Set the alt text or description of a file of my artifact', params: ArtifactMediaParamsSchema, body: MediaTextBodySchema, response: { 200: MediaSchema, ...errors } },
    },
    async (request) => s.moments.setArtifactMediaText(request.user, request.params.id, request.params.mediaId, request.body),
  );
  app.patch(
    '/shared-artifacts/:id/media/:mediaId',
    {
      schema: { tags: mediaTags, summary: 'Set the alt text or description of a file of a shared artifact', params: ArtifactMediaParamsSchema, body: MediaTextBodySchema, response: { 200: MediaSchema, ...errors } },
    },
    async (request) => s.moments.setSharedMediaText(request.user, request.params.id, request.params.mediaId, request.body),
  );

  const exportTags = ['exports'];
  app.get(
    '/shared-artifacts/:id/media/:mediaId/moments.csv',
    { schema: { tags: exportTags, summary: 'The comments at moments of a video, as CSV', params: ArtifactMediaParamsSchema, produces: ['text/csv'] } },
    async (request, reply) => {
      const { media, comments } = await s.moments.momentComments(request.user, request.params.id, request.params.mediaId);
      return sendCsv(reply, `${downloadName(media.name, 'moments')}.csv`, MOMENTS_CSV_HEADER, momentCsvRows(comments));
    },
  );
  app.get(
    '/shared-artifacts/:id/media/:mediaId/moments.vtt',
    { schema: { tags: exportTags, summary: 'The comments at moments of a video, as WebVTT cues', params: ArtifactMediaParamsSchema, produces: ['text/vtt'] } },
    async (request, reply) => {
      const { media, comments } = await s.moments.momentComments(request.user, request.params.id, request.params.mediaId);
      return reply
        .type('text/vtt; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', contentDisposition('attachment', `${downloadName(media.name, 'moments')}.vtt`))
        .send(momentsVtt(`Comments on ${media.name}`, comments));
    },
  );
};
