import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { IdParamSchema } from './common.ts';
import type { MediaKind } from './media.ts';
import { MediaUploadFieldsSchema } from './moments.ts';

/** The longest file name an upload may carry (the stored name is cut to fewer characters). */
const FILE_NAME_MAX = 255;

/** What a resumable upload becomes: a file of a personal artifact or of a shared artifact. */
export const RESUMABLE_TARGETS = ['artifact', 'sharedArtifact'] as const;

/** The kind of file, as the creating request names it (the multipart routes name it in the plural). */
export const RESUMABLE_KINDS = ['image', 'video', 'document'] as const;

/** The multipart routes' kind segment of a resumable upload's kind. */
export const mediaKindOf = (kind: (typeof RESUMABLE_KINDS)[number]): MediaKind => `${kind}s`;

/**
 * The decoded `Upload-Metadata` of the request that creates a resumable upload (tus): which
 * artifact it goes to, the kind of file, its name and type, and the alt text and description a
 * multipart upload may send. Every value is text (tus metadata); ids are digits.
 */
export const ResumableUploadMetadataSchema = lazySchema(() =>
  z.strictObject({
    target: z.enum(RESUMABLE_TARGETS, { error: 'target must be "artifact" or "sharedArtifact"' }),
    /** The portfolio (personal) or shared portfolio that holds the artifact. */
    portfolioId: IdParamSchema,
    artifactId: IdParamSchema,
    kind: z.enum(RESUMABLE_KINDS, { error: 'kind must be "image", "video" or "document"' }),
    filename: z
      .string({ error: 'filename is required' })
      .min(1, 'filename is required')
      .max(FILE_NAME_MAX, `filename can be at most ${FILE_NAME_MAX} characters`),
    /** The type the browser gave the file; only informative (the server reads the type from the bytes). */
    filetype: z
      .string()
      .max(255, 'filetype can be at most 255 characters')
      .regex(/^$|^[\w.+-]+\/[\w.+-]+$/, 'filetype must be a media type such as video/mp4')
      .optional(),
    alt: MediaUploadFieldsSchema.shape.alt,
    description: MediaUploadFieldsSchema.shape.description,
  }),
);
export type ResumableUploadMetadata = z.infer<typeof ResumableUploadMetadataSchema>;

/** The creating request's headers the server reads itself (the tus library checks the rest). */
export const ResumableCreateHeadersSchema = lazySchema(() =>
  z.object({
    'upload-length': z
      .string({ error: 'Send the file size in Upload-Length (a later length, Upload-Defer-Length, is not accepted).' })
      .regex(/^[0-9]{1,15}$/, 'Upload-Length must be a whole number of bytes')
      .transform(Number),
    'upload-metadata': z
      .string({ error: 'Send Upload-Metadata naming the artifact, the kind and the file.' })
      .max(8192),
  }),
);

export type ResumableCreateHeaders = z.output<typeof ResumableCreateHeadersSchema>;

/** `/uploads/tus/{uploadId}`: the id the server gave the upload (24 characters of base64url). */
export const ResumableUploadParamsSchema = lazySchema(() =>
  z.strictObject({
    uploadId: z.string().regex(/^[A-Za-z0-9_-]{24}$/, 'is not an upload id'),
  }),
);
