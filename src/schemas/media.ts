import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema, IdSchema, TimestampSchema } from './common.ts';

/** The three kinds of upload and their endpoint segment. */
export const MEDIA_KINDS = ['images', 'videos', 'documents'] as const;
export const MediaKindSchema = lazySchema(() => z.enum(MEDIA_KINDS));
export type MediaKind = z.infer<typeof MediaKindSchema>;

/** One derived image (thumbnail, medium, large, small). */
export const MediaFormatSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    hash: z.string(),
    ext: z.string(),
    mime: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    /** Size in kilobytes, as the mobile apps read it. */
    size: z.number(),
    path: z.null(),
    url: z.string(),
  }),
);
export type MediaFormat = z.infer<typeof MediaFormatSchema>;

export const MediaFormatsSchema = lazySchema(() =>
  z.object({
    thumbnail: MediaFormatSchema.optional(),
    small: MediaFormatSchema.optional(),
    medium: MediaFormatSchema.optional(),
    large: MediaFormatSchema.optional(),
  }),
);
export type MediaFormats = z.infer<typeof MediaFormatsSchema>;

/** An uploaded file as an artifact shows it. `url` is relative to the API base. */
export const MediaSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      name: z.string(),
      caption: z.string(),
      alternativeText: z.string().nullable(),
      hash: z.string(),
      ext: z.string(),
      mime: z.string(),
      /** Size in kilobytes (decimal). */
      size: z.number(),
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      url: z.string(),
      previewUrl: z.string().nullable(),
      formats: MediaFormatsSchema.nullable(),
      provider: z.literal('local'),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
      /** Alt text as the artifact holds the file ('' when none). */
      alt: z.string(),
      /** A description or transcript as the artifact holds the file ('' when none). */
      description: z.string(),
      /** A video's length in seconds; `null` for other files (and a video not yet probed). */
      duration: z.number().nullable(),
    })
    .meta({ id: 'Media' }),
);
export type Media = z.infer<typeof MediaSchema>;

/** Path parameters of an upload: `/portfolios/{id}/artifacts/{artifactId}/{kind}`. */
export const UploadParamsSchema = lazySchema(() =>
  z.strictObject({
    id: IdParamSchema,
    artifactId: IdParamSchema,
    kind: MediaKindSchema,
  }),
);

/** Turns a caption index into letters: 0 → A, 25 → Z, 26 → AA, 701 → ZZ, 702 → AAA. */
export function captionLetters(index: number): string {
  let n = index;
  let out = '';
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}

/** Path parameters of a file delete: `/portfolios/{id}/artifacts/{artifactId}/{kind}/{fileId}`. */
export const FileDeleteParamsSchema = lazySchema(() =>
  z.strictObject({
    id: IdParamSchema,
    artifactId: IdParamSchema,
    kind: MediaKindSchema,
    fileId: IdParamSchema,
  }),
);

/** Path parameters of a stored file's capability address: `…/{capability}/{name}`. */
export const FileCapabilityParamsSchema = lazySchema(() =>
  z.strictObject({ capability: z.string().max(64), name: z.string().max(100) }),
);

/**
 * `GET /viewer-files/{capability}/{name}`: what a viewer opened from a bare link (as the mobile
 * apps open files) shows of the file: its name as uploaded, its alt text, and the artifact of the
 * capability's holder that holds it (the way back), or `null` when none of theirs does.
 */
export const ViewedFileSchema = lazySchema(() =>
  z
    .object({
      name: z.string(),
      alt: z.string(),
      artifact: z
        .object({
          kind: z.enum(['personal', 'shared']),
          id: IdSchema,
          /** The portfolio, or for a shared artifact the shared portfolio. */
          portfolioId: IdSchema,
          title: z.string(),
        })
        .nullable(),
    })
    .meta({ id: 'ViewedFile' }),
);
export type ViewedFile = z.infer<typeof ViewedFileSchema>;
