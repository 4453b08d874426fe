import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testBucket } from './s3.ts';

/**
 * The run's S3 server (radosgw, started by the global setup) does what the media store needs from
 * S3, through the same SDK the store uses: objects, multipart uploads that can be listed before
 * they are finished, ranges, and presigned URLs whose signature and expiry are checked.
 */

const MiB = 1024 * 1024;

/** `size` bytes that differ from part to part (a multipart upload that mixed parts up would show). */
function bytes(size: number, seed = 0): Buffer {
  const out = Buffer.alloc(Math.ceil(size / 4) * 4);
  for (let i = 0; i < out.length; i += 4) out.writeUInt32LE((Math.imul(i, 0x9e3779b1) + seed) >>> 0, i);
  return out.subarray(0, size);
}

/** `data` as a stream of 1 MiB chunks, so `Upload` cannot know the length up front. */
function stream(data: Buffer): Readable {
  return Readable.from(
    (function* chunks() {
      for (let i = 0; i < data.length; i += MiB) yield data.subarray(i, i + MiB);
    })(),
  );
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

let client: S3Client;
let bucket: string;

beforeAll(async () => {
  const target = await testBucket();
  client = new S3Client(target.config);
  bucket = target.bucket;
});

afterAll(() => client.destroy());

async function read(key: string, range?: string) {
  const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: range }));
  return { answer, body: Buffer.from(await answer.Body!.transformToByteArray()) };
}

describe('the S3 test server', () => {
  it('stores an object and gives it back', async () => {
    const data = bytes(3000, 1);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'small.bin', Body: data }));

    const { answer, body } = await read('small.bin');
    expect(answer.ContentLength).toBe(3000);
    expect(body.equals(data)).toBe(true);
  });

  it('takes a stream of known length in one PutObject', async () => {
    const data = bytes(2 * MiB + 7, 5);
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'streamed.bin', Body: stream(data), ContentLength: data.length }),
    );

    const { body } = await read('streamed.bin');
    expect(sha256(body)).toBe(sha256(data));
  });

  it('takes a ~12 MiB stream as a multipart upload of 5 MiB parts', async () => {
    const data = bytes(12 * MiB + 12345, 2);
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: 'large.bin', Body: stream(data), ContentType: 'application/octet-stream' },
      partSize: 5 * MiB,
      queueSize: 2,
    });
    const parts: number[] = [];
    upload.on('httpUploadProgress', (progress) => {
      if (progress.part !== undefined) parts.push(progress.part);
    });
    await upload.done();

    expect(new Set(parts)).toEqual(new Set([1, 2, 3]));
    const { answer, body } = await read('large.bin');
    // A multipart object's ETag is the MD5 of its parts' MD5s followed by the number of parts. (radosgw 16
    // leaves the ETag of CompleteMultipartUpload's answer empty, so the object's own is the one to read.)
    expect(answer.ETag).toMatch(/^"[0-9a-f]{32}-3"$/);
    expect(answer.ContentLength).toBe(data.length);
    expect(sha256(body)).toBe(sha256(data));
  });

  it('lists the parts of an unfinished multipart upload, and forgets them once it is aborted', async () => {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'unfinished.bin' }));
    for (const PartNumber of [1, 2]) {
      await client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: 'unfinished.bin',
          UploadId,
          PartNumber,
          Body: bytes(1000 * PartNumber),
        }),
      );
    }

    const listed = await client.send(new ListPartsCommand({ Bucket: bucket, Key: 'unfinished.bin', UploadId }));
    expect(listed.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
      [1, 1000],
      [2, 2000],
    ]);

    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: 'unfinished.bin', UploadId }));
    await expect(
      client.send(new ListPartsCommand({ Bucket: bucket, Key: 'unfinished.bin', UploadId })),
    ).rejects.toMatchObject({
      // AWS names it NoSuchUpload; radosgw 16 answers NoSuchKey. Both are a 404.
      name: expect.stringMatching(/^NoSuch(Upload|Key)$/),
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('answers a byte range with 206 and exactly those bytes', async () => {
    const data = bytes(100_000, 3);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'ranged.bin', Body: data }));

    const { answer, body } = await read('ranged.bin', 'bytes=1000-1999');
    expect(answer.$metadata.httpStatusCode).toBe(206);
    expect(answer.ContentRange).toBe('bytes 1000-1999/100000');
    expect(body.equals(data.subarray(1000, 2000))).toBe(true);
  });

  describe('signatures', () => {
    const data = bytes(5000, 4);
    const url = (expiresIn: number) =>
      getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: 'private.bin' }), { expiresIn });

    beforeAll(async () => {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'private.bin', Body: data }));
    });

    it('serves a presigned GET URL to a plain fetch', async () => {
      const answer = await fetch(await url(60));
      expect(answer.status).toBe(200);
      expect(Buffer.from(await answer.arrayBuffer()).equals(data)).toBe(true);
    });

    it('refuses a presigned URL whose signature was changed', async () => {
      const signed = new URL(await url(60));
      const signature = signed.searchParams.get('X-Amz-Signature')!;
      const flipped = signature.at(-1) === '0' ? '1' : '0';
      signed.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${flipped}`);

      const answer = await fetch(signed);
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    });

    it('refuses a presigned URL once it has expired', async () => {
      const signed = await url(1);
      // The point is the clock passing the expiry: nothing to wait on but time.
      await sleep(2000);

      const answer = await fetch(signed);
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain('<Code>AccessDenied</Code>');
    });

    it('refuses an unsigned request for a private object', async () => {
      const answer = await fetch(`${inject('s3').endpoint}/${bucket}/private.bin`);
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain('<Code>AccessDenied</Code>');
    });
  });
});
