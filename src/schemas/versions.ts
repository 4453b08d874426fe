import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';
import { MediaSchema } from './media.ts';
import { ResponsesSchema } from './structure.ts';

/**
 * Through which client a version was saved: the web portal (a session cookie), a mobile app (a
 * bearer token), a copy into a shared portfolio, a restore of an earlier version, or the system
 * (the history's start for artifacts saved before versions were kept, and demo data).
 */
export const VERSION_CLIENTS = ['web', 'mobile', 'copy', 'restore', 'system'] as const;
export const VersionClientSchema = lazySchema(() => z.enum(VERSION_CLIENTS));
export type VersionClient = z.infer<typeof VersionClientSchema>;

/** Default and largest page of a history. */
export const VERSIONS_PAGE_DEFAULT = 20;
export const VERSIONS_PAGE_MAX = 100;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${VERSIONS_PAGE_MAX}.`;

/** `…/versions/:n` path parameters: the artifact's id and a version number. */
export const VersionParamsSchema = lazySchema(() => z.strictObject({ id: IdParamSchema, n: IdParamSchema }));

/** `GET …/versions` query: a page of versions older than `before` (a version number), newest first. */
export const VersionListQuerySchema = lazySchema(() =>
  z.strictObject({
    before: IdParamSchema.optional(),
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/, LIMIT_MESSAGE)
      .transform(Number)
      .pipe(z.number().int().min(1, LIMIT_MESSAGE).max(VERSIONS_PAGE_MAX, LIMIT_MESSAGE))
      .optional(),
  }),
);
export type VersionListQuery = z.input<typeof VersionListQuerySchema>;

/** Who saved a version; `null` once that account no longer exists. */
export const VersionAuthorSchema = lazySchema(() => z.object({ id: IdSchema, name: z.string() }).nullable());

/** One version in a history list. */
export const VersionSummarySchema = lazySchema(() =>
  z
    .object({
      /** 1, 2, … per artifact. */
      number: z.number().int().min(1),
      author: VersionAuthorSchema,
      created_at: TimestampSchema,
      client: VersionClientSchema,
      /** The version a restore brought back (`null`: not a restore). */
      restoredFrom: z.number().int().min(1).nullable(),
      /** One line on what changed from the version before, e.g. "Student thinking, 2 images added". */
      summary: z.string(),
    })
    .meta({ id: 'VersionSummary' }),
);
export type VersionSummary = z.infer<typeof VersionSummarySchema>;

/** `GET …/versions`: a page, newest first; `nextBefore` asks for the next (older) page, `null` at the first version. */
export const VersionListResponseSchema = lazySchema(() =>
  z.object({
    items: z.array(VersionSummarySchema),
    /** How many versions the artifact has (the newest one's number). */
    total: z.number().int().min(0),
    nextBefore: z.number().int().min(1).nullable(),
  }),
);
export type VersionListResponse = z.infer<typeof VersionListResponseSchema>;

/** `GET …/versions/:n`: one version whole: its answers and its files as the artifact held them. */
export const VersionDetailSchema = lazySchema(() =>
  VersionSummarySchema.extend({
    responses: ResponsesSchema,
    images: z.array(MediaSchema),
    videos: z.array(MediaSchema),
    documents: z.array(MediaSchema),
  }).meta({ id: 'VersionDetail' }),
);
export type VersionDetail = z.infer<typeof VersionDetailSchema>;

/**
 * `POST …/versions/:n/restore`: `updated_at` is the artifact's version the person saw, guarded as a
 * save is (a shared artifact without it: the version its user last read or acknowledged).
 */
export const VersionRestoreBodySchema = lazySchema(() =>
  z
    .strictObject({
      updated_at: z.string().max(64).optional(),
    })
    .optional(),
);
export type VersionRestoreBody = z.infer<typeof VersionRestoreBodySchema>;
