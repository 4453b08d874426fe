import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';

/** S3's limits: a part (but the last) of at least 5 MiB, at most 10,000 parts. */
const MIN_PART_SIZE = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;

export interface PartStreamOptions {
  /** The size of every part but the last (≥ 5 MiB). */
  partSize: number;
  /** How many parts are sent at a time. */
  queueSize: number;
}

export interface PartStreamTarget {
  bucket: string;
  key: string;
  contentType: string;
}

/**
 * Writes what `body` yields to the bucket as it arrives, and resolves with its size: one
 * `PutObject` when it fits in a part, else a multipart upload.
 *
 * The bytes are copied once, from the incoming chunks into a part's buffer, and the part is sent
 * from that buffer. There are `queueSize + 1` such buffers, made once and used again for every
 * part: while `queueSize` parts are on their way the next one fills, and the body is read no
 * further while none is free (so it is held back by its own back-pressure). What one upload holds
 * is thus fixed, whatever its length, and no garbage is made per part.
 *
 * On failure (the body's own error, a part refused) the parts on their way are cancelled and the
 * multipart upload is aborted, so the bucket keeps nothing of it; the error is thrown.
 */
export async function putPartStream(
  client: S3Client,
  target: PartStreamTarget,
  body: Readable,
  { partSize, queueSize }: PartStreamOptions,
): Promise<number> {
  if (partSize < MIN_PART_SIZE) throw new Error(`A part must be at least ${MIN_PART_SIZE} bytes.`);
  const abort = new AbortController();
  const free: Buffer[] = [];
  let made = 0;
  const sending = new Set<Promise<void>>();
  const parts: CompletedPart[] = [];
  let uploadId: string | undefined;
  let failure: unknown = null;

  const object = { Bucket: target.bucket, Key: target.key };

  const takeBuffer = async (): Promise<Buffer> => {
    if (free.length > 0) return free.pop()!;
    if (made <= queueSize) {
      made += 1;
      return Buffer.allocUnsafeSlow(partSize);
    }
    // Every buffer is on its way: the first one back takes the next part.
    for (;;) {
      await Promise.race(sending);
      if (failure !== null) throw failure;
      const buffer = free.pop();
      if (buffer) return buffer;
    }
  };

  /** Sends one part; a failure is kept in `failure` (the reader stops at the next chunk). */
  const sendPart = async (buffer: Buffer, length: number, partNumber: number, id: string): Promise<void> => {
    try {
      const answer = await client.send(
        new UploadPartCommand({
          ...object,
          UploadId: id,
          PartNumber: partNumber,
          Body: buffer.subarray(0, length),
          ContentLength: length,
        }),
        { abortSignal: abort.signal },
      );
      if (!answer.ETag) throw new Error(`The bucket gave no ETag for part ${partNumber}.`);
      parts.push({ PartNumber: partNumber, ETag: answer.ETag });
    } catch (error) {
      failure ??= error;
    }
  };

  const send = async (buffer: Buffer, length: number, partNumber: number): Promise<void> => {
    if (partNumber > MAX_PARTS) throw new Error(`An upload to the bucket has at most ${MAX_PARTS} parts.`);
    uploadId ??= (
      await client.send(new CreateMultipartUploadCommand({ ...object, ContentType: target.contentType }), {
        abortSignal: abort.signal,
      })
    ).UploadId;
    if (!uploadId) throw new Error('The bucket gave no id for the multipart upload.');
    const task = sendPart(buffer, length, partNumber, uploadId).finally(() => {
      // Sent (or given up): the buffer takes the next part.
      sending.delete(task);
      free.push(buffer);
    });
    sending.add(task);
  };

  let buffer: Buffer | null = null;
  let filled = 0;
  let partNumber = 0;
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      for (let at = 0; at < chunk.length;) {
        buffer ??= await takeBuffer();
        const copied = chunk.copy(buffer, filled, at);
        filled += copied;
        at += copied;
        if (filled === partSize) {
          partNumber += 1;
          await send(buffer, filled, partNumber);
          buffer = null;
          filled = 0;
        }
      }
      if (failure !== null) throw failure;
    }
    if (partNumber === 0) {
      // It fits in one part: one request.
      await client.send(
        new PutObjectCommand({
          ...object,
          ContentType: target.contentType,
          Body: buffer ? buffer.subarray(0, filled) : Buffer.alloc(0),
          ContentLength: filled,
        }),
      );
      return size;
    }
    if (filled > 0) {
      partNumber += 1;
      await send(buffer!, filled, partNumber);
    }
    await Promise.all(sending);
    if (failure !== null) throw failure;
    parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    await client.send(
      new CompleteMultipartUploadCommand({ ...object, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
    );
    return size;
  } catch (error) {
    abort.abort();
    await Promise.allSettled(sending);
    if (uploadId)
      await client.send(new AbortMultipartUploadCommand({ ...object, UploadId: uploadId })).catch(() => undefined);
    throw error;
  }
}
