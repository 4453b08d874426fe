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
import { errorResponses } from './errorResponses.ts';

/**
 * Routes only the mobile apps call (reference §2.9). The portal sends no push notifications, so
 * the message routes accept the apps' calls and keep nothing; the lists are the fixed catalogues.
 */
export const mobileRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mobile apps'];
  app.get('/messages/list', { schema: { tags, summary: 'Notifications (none are produced)', response: { 200: z.array(MessageSchema), ...errorResponses } } }, async () => []);
  app.post('/messages/register-token', { schema: { tags, summary: 'Accepts a push token (not kept)', body: RegisterTokenBodySchema, response: { 200: z.object({}), ...errorResponses } } }, async () => ({}));
  app.post('/messages/unregister-token', { schema: { tags, summary: 'Forgets a push token', body: UnregisterTokenBodySchema, response: { 200: z.object({}), ...errorResponses } } }, async () => ({}));
  app.post('/messages/mark-as-read', { schema: { tags, summary: 'Marks a notification read', body: MarkAsReadBodySchema, response: { 200: z.object({}), ...errorResponses } } }, async () => ({}));
  app.get('/contact', { schema: { tags, summary: 'Where to get help', response: { 200: ContactSchema, ...errorResponses } } }, async () => ({
    id: 1,
    email: app.contactEmail,
    phone: null,
  }));
  app.get('/grades', { schema: { tags, summary: 'Grade codes', response: { 200: NamedListSchema, ...errorResponses } } }, async () =>
    GRADE_CODES.map((name, i) => ({ id: i + 1, name })),
  );
  app.get('/subjects', { schema: { tags, summary: 'Subjects', response: { 200: NamedListSchema, ...errorResponses } } }, async () =>
    SUBJECTS.map((name, i) => ({ id: i + 1, name })),
  );
};
