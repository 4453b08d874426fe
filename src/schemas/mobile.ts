import { z } from 'zod';

/** `POST /messages/register-token`: the mobile apps' push-notification token. */
export const RegisterTokenBodySchema = z.strictObject({
  platform: z.string().max(40).optional(),
  osVersion: z.string().max(80).optional(),
  fcmToken: z.string().max(4096),
  devMode: z.boolean().optional(),
});

/** `POST /messages/unregister-token`. */
export const UnregisterTokenBodySchema = z.strictObject({ fcmToken: z.string().max(4096) });

/** `POST /messages/mark-as-read`. */
export const MarkAsReadBodySchema = z.strictObject({ messageId: z.union([z.string().max(100), z.number()]) });

/** A notification in the mobile apps' list (none are produced yet). */
export const MessageSchema = z.object({
  messageId: z.string(),
  title: z.string(),
  body: z.string(),
  destination: z.string(),
  viewed: z.boolean(),
  sent: z.number(),
});

/** `GET /contact`: where to get help; `email` is `null` when no support address is configured (the app then shows its own). */
export const ContactSchema = z.object({ id: z.number(), email: z.string().nullable(), phone: z.string().nullable() });

/** `GET /grades`, `GET /subjects`. */
export const NamedListSchema = z.array(z.object({ id: z.number(), name: z.string() }));
