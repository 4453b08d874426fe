import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GRADE_CODES, SUBJECTS } from '#schemas/catalog';
import {
  ContactSchema,
  MarkAsReadBodySchema,
  MessageSchema,
  NamedListSchema,
  RegisterTokenBodySchema,
  UnregisterTokenBodySchema,
} from '#schemas/mobile';
import { USER_LIMITS } from '../http/userLimits.ts';
import { errorResponses } from './errorResponses.ts';

/**
 * Routes only the mobile apps call (reference §2.9). Push tokens are kept per user and device;
 * the messages are the notification feed in the apps' shape; the lists are the fixed catalogues.
 */
export const mobileRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mobile apps'];
  app.get(
    '/messages/list',
    { schema: { tags, summary: 'My notifications about shared artifacts, newest first', response: { 200: z.array(MessageSchema), ...errorResponses } } },
    async (request) => app.services.notifications.mobileList(request.user),
  );
  app.post(
    '/messages/register-token',
    { config: USER_LIMITS.pushTokens, schema: { tags, summary: "Keeps the device's push token for the caller", body: RegisterTokenBodySchema, response: { 200: z.object({}), ...errorResponses } } },
    async (request) => {
      await app.services.devices.register(request.user, request.body);
      return {};
    },
  );
  app.post(
    '/messages/unregister-token',
    { schema: { tags, summary: "Forgets the caller's push token (at sign-out)", body: UnregisterTokenBodySchema, response: { 200: z.object({}), ...errorResponses } } },
    async (request) => {
      await app.services.devices.unregister(request.user, request.body.fcmToken);
      return {};
    },
  );
  app.post(
    '/messages/mark-as-read',
    { schema: { tags, summary: 'Marks one of my notifications read', body: MarkAsReadBodySchema, response: { 200: z.object({}), ...errorResponses } } },
    async (request) => {
      await app.services.notifications.mobileMarkRead(request.user, request.body.messageId);
      return {};
    },
  );
  app.get('/contact', { schema: { tags, summary: 'Where to get help', response: { 200: ContactSchema, ...errorResponses } } }, async () => ({
    id: 1,
    email: app.config.contactEmail,
    phone: null,
  }));
  app.get('/grades', { schema: { tags, summary: 'Grade codes', response: { 200: NamedListSchema, ...errorResponses } } }, async () =>
    GRADE_CODES.map((name, i) => ({ id: i + 1, name })),
  );
  app.get('/subjects', { schema: { tags, summary: 'Subjects', response: { 200: NamedListSchema, ...errorResponses } } }, async () =>
    SUBJECTS.map((name, i) => ({ id: i + 1, name })),
  );
};
