import { z } from 'zod';
import { lazySchema } from './lazy.ts';

/**
 * A descriptive field of a device (platform, OS version): whatever the phone reports is kept,
 * cleaned of control characters and cut to `max` characters, never refused, because the app
 * treats any refusal as a failed login (Android's `osVersion` is its ~100-character kernel string).
 */
const descriptive = (max: number) =>
  z
    .union([z.string(), z.number(), z.boolean(), z.null()])
    .optional()
    .transform((v) =>
      v === null || v === undefined
        ? null
        : String(v)
            .replace(/\p{Cc}+/gu, ' ')
            .trim()
            .slice(0, max) || null,
    );

/** `POST /messages/register-token`: the mobile apps' push-notification token and its device. */
export const RegisterTokenBodySchema = lazySchema(() =>
  z.strictObject({
    platform: descriptive(40),
    osVersion: descriptive(300),
    fcmToken: z.string().trim().min(1, 'fcmToken is required.').max(4096),
    devMode: z
      .union([z.boolean(), z.string(), z.number(), z.null()])
      .optional()
      .transform((v) => v === true || v === 1 || v === 'true'),
  }),
);
export type RegisterTokenBody = z.output<typeof RegisterTokenBodySchema>;

/** `POST /messages/unregister-token`. */
export const UnregisterTokenBodySchema = lazySchema(() => z.strictObject({ fcmToken: z.string().max(4096) }));

/** `POST /messages/mark-as-read`. */
export const MarkAsReadBodySchema = lazySchema(() =>
  z.strictObject({ messageId: z.union([z.string().max(100), z.number()]) }),
);

/** A notification in the mobile apps' list: `destination` is JSON text `{screen, params: {sharedArtifactId, sharedPortfolioId}}`, `sent` milliseconds since 1970. */
export const MessageSchema = lazySchema(() =>
  z.object({
    messageId: z.string(),
    title: z.string(),
    body: z.string(),
    destination: z.string(),
    viewed: z.boolean(),
    sent: z.number(),
  }),
);

/** `GET /contact`: where to get help; `email` is `null` when no support address is configured (the app then shows its own). */
export const ContactSchema = lazySchema(() =>
  z.object({ id: z.number(), email: z.string().nullable(), phone: z.string().nullable() }),
);

/** `GET /grades`, `GET /subjects`. */
export const NamedListSchema = lazySchema(() => z.array(z.object({ id: z.number(), name: z.string() })));
