import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { putPartStream } from './s3PartStream.ts';
import { type ByteRange, type ObjectStore, type S3Settings } from './objectStore.ts';

/** Parts of a multipart upload of a local file: 8 MiB each, two at a time. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/**
 * Parts of an upload streamed as it arrives: S3's smallest (5 MiB), two sent at a time while a
 * third fills (`putPartStream`): one upload holds 15 MiB of part buffers, made once.
 */
const STREAM_PART_SIZE = 5 * 1024 * 1024;

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The SDK's client for these settings. */
export function s3Client(settings: S3Settings): S3Client {
  const config: S3ClientConfig = {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible stores (Ceph RGW among them)
    // refuse the SDK's newer default trailing checksums on multipart parts.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (settings.endpoint) config.endpoint = settings.endpoint;
  if (settings.accessKeyId && settings.secretAccessKey)
    config.credentials = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey };
  return new S3Client(config);
}

/**
 * Uploaded files in an S3-compatible bucket (AWS S3, Ceph RGW, MinIO, R2, B2…): written with
 * streamed multipart uploads, read whole or by byte range, never held in memory.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  /** Where the files are in the bucket (`S3_PREFIX`, e.g. `media/`; empty: at its top). */
  private readonly prefix: string;

  constructor(private readonly settings: S3Settings) {
    this.client = s3Client(settings);
    this.prefix = settings.prefix ?? '';
  }

  private key(name: string): string {
    return this.prefix + name;
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
    } catch (error) {
      const where = this.settings.endpoint ? ` at ${this.settings.endpoint} (S3_ENDPOINT)` : '';
      const reason = isMissing(error)
        ? 'does not exist'
        : `cannot be reached: ${(error as Error).message || (error as Error).name}`;
      throw new Error(`The media bucket "${this.settings.bucket}" (S3_BUCKET)${where} ${reason}.`, { cause: error });
    }
  }

  async putFile(name: string, file: string, contentType: string): Promise<void> {
    await this.upload(name, file, contentType);
    await rm(file, { force: true });
  }

  async putStream(name: string, body: Readable, contentType: string): Promise<number> {
    // The body's own error (an upload over the limit, a client gone) is the one to report.
    let bodyError: unknown = null;
    body.once('error', (error) => (bodyError ??= error));
    try {
      return await putPartStream(
        this.client,
        { bucket: this.settings.bucket, key: this.key(name), contentType },
        body,
        { partSize: STREAM_PART_SIZE, queueSize: QUEUE_SIZE },
      );
    } catch (error) {
      body.destroy();
      await this.remove([name]).catch(() => undefined);
      throw bodyError ?? error;
    }
  }

  /** Writes a local file as `name` (a streamed multipart upload), with metadata of ours; keeps the file. */
  async upload(name: string, file: string, contentType: string, metadata?: Record<string, string>): Promise<void> {
    const { size } = await stat(file);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.settings.bucket,
        Key: this.key(name),
        Body: createReadStream(file),
        ContentType: contentType,
        ContentLength: size,
        ...(metadata ? { Metadata: metadata } : {}),
      },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  /** The size and our SHA-256 metadata (written by `upload`) of a stored object, or `null`. */
  async describe(name: string): Promise<{ size: number; sha256: string | null } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(name) }));
      return { size: head.ContentLength ?? 0, sha256: head.Metadata?.['sha256'] ?? null };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async size(name: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(name) }));
      return head.ContentLength ?? null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(name: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(name),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return answer.Body as Readable;
  }

  async list(prefix: string): Promise<string[]> {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.key(prefix),
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) if (object.Key) names.push(object.Key.slice(this.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return names;
  }

  async remove(names: readonly string[]): Promise<void> {
    // At most 1,000 keys per request (S3's limit).
    for (let i = 0; i < names.length; i += 1000) {
      const batch = names.slice(i, i + 1000);
      const answer = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.settings.bucket,
          Delete: { Objects: batch.map((name) => ({ Key: this.key(name) })), Quiet: true },
        }),
      );
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) throw new Error(`could not delete ${failed.length} stored files: ${failed[0]!.Message}`);
    }
  }

  async dropUnfinished(prefix: string): Promise<void> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.settings.bucket,
          Prefix: this.key(prefix),
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId) continue;
        await this.client
          .send(
            new AbortMultipartUploadCommand({
              Bucket: this.settings.bucket,
              Key: upload.Key,
              UploadId: upload.UploadId,
            }),
          )
          .catch((error: unknown) => {
            if (!isMissing(error) && (error as { name?: string }).name !== 'NoSuchUpload') throw error;
          });
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
  }

  /** A signed address valid for ten minutes (ffmpeg reads what it needs within that). */
  async toolInput(name: string): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(name) }), {
      expiresIn: 600,
    });
  }
}
