import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema } from '#schemas/common';
import {
  ArtifactSharesResponseSchema,
  NotificationListQuerySchema,
  NotificationListResponseSchema,
  NotificationPreferencesBodySchema,
  NotificationPreferencesSchema,
  NotificationReadBodySchema,
  UnreadCountSchema,
  UnsubscribeBodySchema,
  UnsubscribeResponseSchema,
} from '#schemas/notifications';
import { z } from 'zod';
import { isNotModified } from '../http/conditionalRequest.ts';
import type { FeedStream } from '../services/notificationHub.ts';
import { errorResponses } from './errorResponses.ts';

/** The caller's notification feed, its live count, e-mail settings, and where an artifact was shared. Protected. */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const s = app.services;
  const tags = ['notifications'];

  app.get(
    '/notifications',
    { schema: { tags, summary: 'My notifications, newest first, and the unread count', querystring: NotificationListQuerySchema, response: { 200: NotificationListResponseSchema, ...errorResponses } } },
    async (request) => s.notifications.list(request.user, request.query),
  );
  app.get(
    '/notifications/unread',
    {
      schema: {
        tags,
        summary: 'My unread count, with a weak ETag (If-None-Match → 304): the polling fallback of the stream',
        response: { 200: UnreadCountSchema, 304: z.null().describe('Not modified'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const unread = await s.notifications.unread(request.user);
      void reply.header('cache-control', 'private, no-cache');
      if (isNotModified(request, reply, { etag: `W/"unread-${unread}"` })) return reply.code(304).send(null);
      return { unread };
    },
  );
  app.get(
    '/notifications/stream',
    { schema: { tags, summary: 'Server-sent events: `unread` with my count at once and on every change; a comment line every 25 s', response: errorResponses } },
    async (request, reply) => {
      const epoch = await s.notifications.epochOf(request.user.id);
      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      raw.write('retry: 5000\n\n');
      const stream: FeedStream = {
        userId: request.user.id,
        sessionId: request.sessionId,
        epoch,
        write: (text) => {
          if (!raw.writableEnded && !raw.destroyed) raw.write(text);
        },
        close: () => {
          if (!raw.writableEnded) raw.end();
        },
      };
      raw.on('close', () => app.services.notificationHub.remove(stream));
      await app.services.notificationHub.open(stream);
    },
  );
  app.post(
    '/notifications/read',
    { schema: { tags, summary: 'Mark some notifications read ({ids}) or all of them ({all: true})', body: NotificationReadBodySchema, response: { 200: UnreadCountSchema, ...errorResponses } } },
    async (request) => s.notifications.markRead(request.user, request.body),
  );
  app.get(
    '/notification-preferences',
    { schema: { tags, summary: 'My e-mail settings per kind of notification', response: { 200: NotificationPreferencesSchema, ...errorResponses } } },
    async (request) => s.notifications.preferences(request.user),
  );
  app.put(
    '/notification-preferences',
    { schema: { tags, summary: 'Change some e-mail settings; answers with all of them', body: NotificationPreferencesBodySchema, response: { 200: NotificationPreferencesSchema, ...errorResponses } } },
    async (request) => s.notifications.setPreferences(request.user, request.body),
  );
  app.get(
    '/artifacts/:id/shares',
    {
      schema: {
        tags,
        summary: 'Where my artifact was shared, with the comment count and latest comments of each copy (owner; researchers read)',
        params: IdParamsSchema,
        response: { 200: ArtifactSharesResponseSchema, ...errorResponses },
      },
    },
    async (request) => s.notifications.shares(request.user, request.params.id),
  );
};

/** The unsubscribe link of every notification e-mail: works without a session, on the signed token alone. */
export const unsubscribeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/unsubscribe',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['notifications'],
        summary: 'Turn off the e-mails of an unsubscribe link (no session; 400 for a tampered or expired link)',
        security: [],
        body: UnsubscribeBodySchema,
        response: { 200: UnsubscribeResponseSchema, ...errorResponses },
      },
    },
    async (request) => app.services.notifications.unsubscribe(request.body.token),
  );
};
