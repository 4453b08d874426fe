import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import type { S3Settings } from '../src/media/objectStore.ts';

/** A bucket of its own on the run's S3 server, and how to reach it. */
export interface TestBucket {
  /** A new S3Client takes this as is: radosgw's endpoint, the tests' keys, path-style buckets. */
  config: S3ClientConfig;
  bucket: string;
}

/** The client settings for the run's S3 server (see `globalSetup.ts`). */
function s3Config(): S3ClientConfig {
  const s3 = inject('s3');
  return {
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    // Buckets in the path (`/bucket/key`): the server has no DNS name for bucket subdomains.
    forcePathStyle: true,
    // By default the SDK sends a streamed body `aws-chunked` with a trailing CRC32, which radosgw 16
    // refuses (411 MissingContentLength); checksums only where the S3 API requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/**
 * Creates a bucket with a new name, so test files running side by side never share one. Buckets
 * are not removed: the server keeps its objects in memory and is thrown away after the run.
 */
export async function testBucket(): Promise<TestBucket> {
  const config = s3Config();
  const bucket = `pf-test-${randomBytes(8).toString('hex')}`;
  const client = new S3Client(config);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return { config, bucket };
}

/** The media store's settings (`S3_*`) for a new bucket of its own on the run's S3 server. */
export async function testS3Settings(): Promise<S3Settings> {
  const s3 = inject('s3');
  const { bucket } = await testBucket();
  return {
    bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  };
}
