import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { FileStore } from '@tus/file-store';
import { ERRORS, Upload } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TusWriter, WRITER_STOPPED } from './tusWriter.ts';

const KiB = 1024;

describe('the writer thread of resumable uploads', () => {
  let dataDir: string;
  let store: FileStore;
  let writer: TusWriter;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tus-writer-'));
    store = new FileStore({ directory: path.join(dataDir, 'resumable') });
    writer = new TusWriter({ dataDir, s3: null });
    await writer.start();
  });
  afterAll(async () => {
    await writer.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A new upload of `size` bytes in the file store. */
  async function upload(size: number): Promise<string> {
    const id = randomBytes(9).toString('hex');
    await store.create(new Upload({ id, size, offset: 0 }));
    return id;
  }

  /** The thread the writer runs now (to end it as a crash would). */
  const threadOf = (w: TusWriter): Worker => w.worker!;

  it('writes a body in chunks from an offset and answers the new offset, byte for byte', async () => {
    const bytes = randomBytes(3 * 1024 * KiB + 5);
    const id = await upload(bytes.length);
    const chunks = Array.from({ length: Math.ceil(bytes.length / (64 * KiB)) }, (_, i) =>
      bytes.subarray(i * 64 * KiB, (i + 1) * 64 * KiB),
    );
    const first = await writer.write(Readable.from(chunks.slice(0, 10)), id, 0, bytes.length);
    expect(first).toBe(640 * KiB);
    const offset = await writer.write(Readable.from(chunks.slice(10)), id, first, bytes.length - first);
    expect(offset).toBe(bytes.length);
    expect((await store.getUpload(id)).offset).toBe(bytes.length);
    expect(readFileSync(path.join(dataDir, 'resumable', id)).equals(bytes)).toBe(true);
  });

  it('refuses more bytes than the upload misses (413), as the library would', async () => {
    const id = await upload(100 * KiB);
    const refusal = writer.write(Readable.from([randomBytes(64 * KiB), randomBytes(64 * KiB)]), id, 0, 100 * KiB);
    await expect(refusal).rejects.toMatchObject({ status_code: 413 });
  });

  it('keeps what arrived of a body that broke off, and tells it was aborted', async () => {
    const id = await upload(1024 * KiB);
    const body = new PassThrough();
    const written = writer.write(body, id, 0, 1024 * KiB);
    body.write(randomBytes(200 * KiB));
    await new Promise((resolve) => setTimeout(resolve, 100));
    body.destroy(new Error('the connection was cut'));
    await expect(written).rejects.toBe(ERRORS.ABORTED);
    expect((await store.getUpload(id)).offset).toBe(200 * KiB);
  });

  it('ends a write early on `stop`: what arrived is written and its offset answered', async () => {
    const id = await upload(1024 * KiB);
    const body = new PassThrough();
    const stop = new AbortController();
    const written = writer.write(body, id, 0, 1024 * KiB, stop.signal);
    body.write(randomBytes(128 * KiB));
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop.abort();
    await expect(written).resolves.toBe(128 * KiB);
  });

  it('fails the writes of a thread that stops, and starts another for the next write', async () => {
    const id = await upload(1024 * KiB);
    const body = new PassThrough();
    const written = writer.write(body, id, 0, 1024 * KiB);
    body.write(randomBytes(256 * KiB));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const crashed = threadOf(writer);
    await crashed.terminate();
    await expect(written).rejects.toBe(WRITER_STOPPED);
    // What the thread wrote stays: the upload resumes from the store's offset.
    const { offset } = await store.getUpload(id);
    expect(offset).toBeLessThanOrEqual(256 * KiB);
    const rest = randomBytes(1024 * KiB - offset);
    await expect(writer.write(Readable.from([rest]), id, offset, rest.length)).resolves.toBe(1024 * KiB);
    expect(threadOf(writer)).not.toBe(crashed);
  });

  it('fails a write once it is closed (the server stops)', async () => {
    const closing = new TusWriter({ dataDir, s3: null });
    await closing.start();
    await closing.close();
    const id = await upload(10);
    await expect(closing.write(Readable.from([Buffer.alloc(10)]), id, 0, 10)).rejects.toThrow('closed');
  });
});
