import { z } from 'zod';
import type { S3Settings } from '../media/objectStore.ts';
import { absoluteUrl, booleanText } from './envValues.ts';

/** The environment variables of where uploaded files are kept (`MEDIA_STORE`, `S3_*`). */
export const S3EnvSchema = z.object({
  MEDIA_STORE: z.enum(['local', 's3'], { error: 'must be local (DATA_DIR/uploads) or s3' }).default('local'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3–63 lower-case letters, digits, . and -)')
    .optional(),
  S3_ENDPOINT: absoluteUrl.optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanText.default(false),
  S3_PREFIX: z
    .string()
    .regex(
      /^([A-Za-z0-9_.-]+\/)+$/,
      'must be a folder of the bucket, e.g. media/ (letters, digits, _ . -, ending in /)',
    )
    .optional(),
});

type S3Env = z.infer<typeof S3EnvSchema>;

/**
 * What is wrong with the S3 variables taken together (each alone is checked by `S3EnvSchema`), as
 * a line of the configuration error; `null` when nothing is.
 */
export function s3EnvProblem(e: S3Env): string | null {
  const s3Parts = [e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY];
  if (s3Parts.some((v) => v !== undefined) && s3Parts.some((v) => v === undefined))
    return "S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither (the AWS SDK's default credentials)";
  if (e.MEDIA_STORE === 's3' && !e.S3_BUCKET)
    return 'S3_BUCKET: required with MEDIA_STORE=s3 (the bucket of the media)';
  return null;
}

/** The bucket of the media; `null`: the uploads folder (`MEDIA_STORE=local`). */
export function s3Settings(e: S3Env): S3Settings | null {
  if (e.MEDIA_STORE !== 's3' || !e.S3_BUCKET) return null;
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: e.S3_PREFIX,
  };
}
