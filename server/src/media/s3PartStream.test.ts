import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { testS3Settings } from '../../test/s3.ts';
import { s3Client } from './s3ObjectStore.ts';
import { putPartStream } from './s3PartStream.ts';

const MiB = 1024 * 1024;
const settings = await testS3Settings();
const client: S3Client = s3Client(settings);
afterAll(() => client.destroy());

/** `bytes` of changing content in chunks of `chunk` bytes (each byte depends on its offset). */
function body(bytes: number, chunk: number, failAt?: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes; at += chunk) {
        if (failAt !== undefined && at >= failAt) throw new Error('the client went away');
        const n = Math.min(chunk, bytes - at);
        const part = Buffer.allocUnsafe(n);
        for (let i = 0; i < n; i += 1) part[i] = ((at + i) * 31 + ((at + i) >> 13)) & 0xff;
        yield part;
      }
    })(),
    { objectMode: false },
  );
}

const sha256 = async (stream: AsyncIterable<Buffer>) => {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest('hex');
};

const stored = async (key: string) =>
  sha256((await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key }))).Body as Readable);

const keys = async () =>
  ((await client.send(new ListObjectsV2Command({ Bucket: settings.bucket }))).Contents ?? []).map((o) => o.Key);
const unfinished = async () =>
  (await client.send(new ListMultipartUploadsCommand({ Bucket: settings.bucket }))).Uploads ?? [];

const options = { partSize: 5 * MiB, queueSize: 2 };

describe('putPartStream', () => {
  it('stores a stream of many parts byte for byte, whatever its chunks, and tells its size', async () => {
    // 4 whole parts and a last one of 3 bytes, in chunks that do not divide a part.
    const bytes = 20 * MiB + 3;
    const size = await putPartStream(
      client,
      { bucket: settings.bucket, key: 'many.bin', contentType: 'application/octet-stream' },
      body(bytes, 65_521),
      options,
    );
    expect(size).toBe(bytes);
    expect(await stored('many.bin')).toBe(await sha256(body(bytes, 65_521)));
    expect(await unfinished()).toEqual([]);
  });

  it('stores a stream of exactly one part, and one shorter than a part with one request', async () => {
    for (const [key, bytes] of [
      ['one-part.bin', 5 * MiB],
      ['small.txt', 1000],
    ] as const) {
      expect(
        await putPartStream(
          client,
          { bucket: settings.bucket, key, contentType: 'text/plain' },
          body(bytes, 4096),
          options,
        ),
      ).toBe(bytes);
      expect(await stored(key)).toBe(await sha256(body(bytes, 4096)));
    }
    expect(await unfinished()).toEqual([]);
  });

  it("fails with the body's error and leaves no object and no unfinished upload in the bucket", async () => {
    const before = await keys();
    const failed = putPartStream(
      client,
      { bucket: settings.bucket, key: 'broken.bin', contentType: 'application/octet-stream' },
      body(40 * MiB, 65_536, 17 * MiB),
      options,
    );
    await expect(failed).rejects.toThrow('the client went away');
    expect(await keys()).toEqual(before);
    expect(await unfinished()).toEqual([]);
  });

  it('refuses parts smaller than S3 allows', async () => {
    await expect(
      putPartStream(client, { bucket: settings.bucket, key: 'x', contentType: 'text/plain' }, body(10, 10), {
        partSize: MiB,
        queueSize: 2,
      }),
    ).rejects.toThrow('at least');
  });
});
