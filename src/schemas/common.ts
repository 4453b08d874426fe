import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { MAX_ID } from './rules.ts';

export { EMAIL_MAX, EMAIL_PATTERN, isEmail, MAX_ID } from './rules.ts';

/** A database id as it crosses the wire: a positive integer. */
export const IdSchema = lazySchema(() => z.number().int().positive().max(MAX_ID));
export type Id = z.infer<typeof IdSchema>;

/** An id taken from a path segment or a query string: digits only, then a positive integer. */
export const IdParamSchema = lazySchema(() =>
  z
    .string()
    .regex(/^[0-9]{1,10}$/, 'must be a positive whole number')
    .transform(Number)
    .pipe(z.number().int().positive('must be a positive whole number').max(MAX_ID, 'is out of range')),
);

/** `{ id }` path parameters. */
export const IdParamsSchema = lazySchema(() => z.strictObject({ id: IdParamSchema }));

/** A timestamp as it crosses the wire: an ISO-8601 string. */
export const TimestampSchema = lazySchema(() => z.string());
export type Timestamp = z.infer<typeof TimestampSchema>;

/** The message part of the nested error shape the `/auth/*` routes use (`message[0].messages[0].message`). */
export const NestedMessageSchema = lazySchema(() =>
  z.array(z.object({ messages: z.array(z.object({ id: z.string(), message: z.string() })) })),
);

/** Every error body the API sends. */
export const ApiErrorSchema = lazySchema(() =>
  z
    .object({
      statusCode: z.number().int(),
      error: z.string(),
      message: z.union([z.string(), NestedMessageSchema]),
      code: z.string().optional(),
    })
    .meta({ id: 'ApiError' }),
);
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

/** `{ ok: true }`, for calls whose answer carries no data. */
export const OkResponseSchema = lazySchema(() => z.object({ ok: z.literal(true) }));

/** `GET /health`. */
export const HealthResponseSchema = lazySchema(() => z.object({ status: z.literal('ok') }));

/**
 * `GET /ready` (load balancers): whether this node should get requests — its database and media
 * store answer and it is not draining (stopping after SIGTERM). 200 when ready, else 503.
 */
export const ReadyResponseSchema = lazySchema(() =>
  z.object({
    status: z.enum(['ready', 'unavailable']),
    database: z.boolean(),
    media: z.boolean(),
    draining: z.boolean(),
  }),
);

/** A string that must hold something other than white space once trimmed. */
export const requiredText = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

/** The configuration the SPA needs at run time (links an operator sets). */
export const AppConfigSchema = lazySchema(() =>
  z.object({
    showcaseUrl: z.string().nullable(),
    /** `null`: the portal's own Help page. */
    helpUrl: z.string().nullable(),
    feedbackUrl: z.string().nullable(),
    /** What the public pages link to; each `null` when not configured (then it is not shown). */
    contactEmail: z.string().nullable(),
    researchEmail: z.string().nullable(),
    aboutVideoId: z.string().nullable(),
    learnMoreUrl: z.string().nullable(),
    iosAppUrl: z.string().nullable(),
    androidAppUrl: z.string().nullable(),
  }),
);
export type AppConfig = z.infer<typeof AppConfigSchema>;
