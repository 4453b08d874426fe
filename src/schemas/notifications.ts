import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';

/**
 * Notifications: the in-app feed, the unread count, e-mail preferences and unsubscribe links.
 * Shared by the server (validation and response checks) and the SPA (parsing every answer).
 */

/** Every kind of event a person can be notified of. */
export const NOTIFICATION_KINDS = [
  'invitation_received',
  'invitation_accepted',
  'comment',
  'reply',
  'mention',
  'reaction',
  'snapshot_edited',
  'removed',
  'score',
] as const;
export const NotificationKindSchema = lazySchema(() => z.enum(NOTIFICATION_KINDS));
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

/** How often e-mail is sent for one kind. */
export const EMAIL_FREQUENCIES = ['immediately', 'daily', 'off'] as const;
export const EmailFrequencySchema = lazySchema(() => z.enum(EMAIL_FREQUENCIES));
export type EmailFrequency = z.infer<typeof EmailFrequencySchema>;

/** The e-mail setting of a kind nobody has changed. */
export const DEFAULT_EMAIL_PREFERENCES: Readonly<Record<NotificationKind, EmailFrequency>> = {
  invitation_received: 'immediately',
  invitation_accepted: 'daily',
  comment: 'immediately',
  reply: 'immediately',
  mention: 'immediately',
  reaction: 'daily',
  snapshot_edited: 'daily',
  removed: 'immediately',
  score: 'immediately',
};

/** Default and largest page size of the feed. */
export const NOTIFICATIONS_PAGE_DEFAULT = 30;
export const NOTIFICATIONS_PAGE_MAX = 100;
/** Most ids one `POST /notifications/read` may name. */
export const NOTIFICATIONS_READ_MAX = 100;

/** One item of the feed. */
export const NotificationSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      kind: NotificationKindSchema,
      read: z.boolean(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
      /** Who did it; `null` when that account no longer exists. */
      actor: z.object({ id: IdSchema, username: z.string() }).nullable(),
      /** At least 1; reactions are batched: one unread item per artifact counts them. */
      count: z.number().int().min(1),
      sharedPortfolio: z.object({ id: IdSchema, name: z.string() }).nullable(),
      sharedArtifact: z.object({ id: IdSchema, title: z.string() }).nullable(),
      /** The comment the item is about, if any. */
      comment: IdSchema.nullable(),
      /** The video moment the comment or score is about, if any (seconds). */
      moment: z.object({ media: IdSchema, start: z.number(), end: z.number().nullable() }).nullable(),
      /** One plain sentence, e.g. "Ana commented on “Group work” in Grade 5 PLC". */
      summary: z.string(),
      /** An SPA path to the exact place the item is about. */
      link: z.string(),
    })
    .meta({ id: 'Notification' }),
);
export type Notification = z.infer<typeof NotificationSchema>;

/** `GET /notifications` query: a page older than `before`, newest first. */
export const NotificationListQuerySchema = lazySchema(() =>
  z.strictObject({
    before: IdParamSchema.optional(),
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/, 'limit must be a whole number from 1 to 100.')
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(1, 'limit must be a whole number from 1 to 100.')
          .max(NOTIFICATIONS_PAGE_MAX, 'limit must be a whole number from 1 to 100.'),
      )
      .optional(),
  }),
);
export type NotificationListQuery = z.input<typeof NotificationListQuerySchema>;

/** `GET /notifications`. */
export const NotificationListResponseSchema = lazySchema(() =>
  z.object({
    items: z.array(NotificationSchema),
    unread: z.number().int().min(0),
  }),
);
export type NotificationListResponse = z.infer<typeof NotificationListResponseSchema>;

/** `GET /notifications/unread`, `POST /notifications/read` and every `unread` stream event. */
export const UnreadCountSchema = lazySchema(() => z.object({ unread: z.number().int().min(0) }));
export type UnreadCount = z.infer<typeof UnreadCountSchema>;

/** `POST /notifications/read`: some items by id, or all of them. */
export const NotificationReadBodySchema = lazySchema(() =>
  z.union(
    [
      z.strictObject({
        ids: z
          .array(IdSchema, { error: 'ids must be a list of notification ids.' })
          .min(1, 'Name at least one notification.')
          .max(NOTIFICATIONS_READ_MAX, `Name at most ${NOTIFICATIONS_READ_MAX} notifications at a time.`),
      }),
      z.strictObject({ all: z.literal(true, { error: 'all must be true.' }) }),
    ],
    { error: 'Send either { "ids": [...] } or { "all": true }.' },
  ),
);
export type NotificationReadBody = z.infer<typeof NotificationReadBodySchema>;

/** `GET /notification-preferences` and the answer to `PUT`. */
export const NotificationPreferencesSchema = lazySchema(() =>
  z.object({
    email: z.object({
      invitation_received: EmailFrequencySchema,
      invitation_accepted: EmailFrequencySchema,
      comment: EmailFrequencySchema,
      reply: EmailFrequencySchema,
      mention: EmailFrequencySchema,
      reaction: EmailFrequencySchema,
      snapshot_edited: EmailFrequencySchema,
      removed: EmailFrequencySchema,
      score: EmailFrequencySchema,
    }),
  }),
);
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

/** `PUT /notification-preferences`: any of the kinds; the rest keep their setting. */
export const NotificationPreferencesBodySchema = lazySchema(() =>
  z.strictObject({
    email: z.strictObject({
      invitation_received: EmailFrequencySchema.optional(),
      invitation_accepted: EmailFrequencySchema.optional(),
      comment: EmailFrequencySchema.optional(),
      reply: EmailFrequencySchema.optional(),
      mention: EmailFrequencySchema.optional(),
      reaction: EmailFrequencySchema.optional(),
      snapshot_edited: EmailFrequencySchema.optional(),
      removed: EmailFrequencySchema.optional(),
      score: EmailFrequencySchema.optional(),
    }),
  }),
);
export type NotificationPreferencesBody = z.infer<typeof NotificationPreferencesBodySchema>;

/** Longest unsubscribe token accepted. */
export const UNSUBSCRIBE_TOKEN_MAX = 512;

/** `POST /unsubscribe` (no session): the signed token of the mail's link. */
export const UnsubscribeBodySchema = lazySchema(() =>
  z.strictObject({
    token: z
      .string({ error: 'token is required.' })
      .trim()
      .min(1, 'token is required.')
      .max(UNSUBSCRIBE_TOKEN_MAX, 'This unsubscribe link is not valid.'),
  }),
);
export type UnsubscribeBody = z.infer<typeof UnsubscribeBodySchema>;

/** The answer to `POST /unsubscribe`: what was turned off, for which (masked) address. */
export const UnsubscribeResponseSchema = lazySchema(() =>
  z.object({
    kind: z.union([NotificationKindSchema, z.literal('all')]),
    email: z.string(),
  }),
);
export type UnsubscribeResponse = z.infer<typeof UnsubscribeResponseSchema>;

/** `GET /artifacts/{id}/shares`: where a personal artifact was shared and how its copies are discussed. */
export const ArtifactShareSchema = lazySchema(() =>
  z
    .object({
      sharedPortfolio: z.object({ id: IdSchema, name: z.string() }),
      sharedArtifact: z.object({ id: IdSchema, title: z.string() }),
      shared_at: TimestampSchema,
      commentCount: z.number().int().min(0),
      /** At most 3, newest first. */
      latestComments: z.array(
        z.object({
          id: IdSchema,
          text: z.string(),
          owner: z.object({ id: IdSchema, username: z.string() }),
          created_at: TimestampSchema,
        }),
      ),
    })
    .meta({ id: 'ArtifactShare' }),
);
export type ArtifactShare = z.infer<typeof ArtifactShareSchema>;
export const ArtifactSharesResponseSchema = lazySchema(() => z.array(ArtifactShareSchema));
