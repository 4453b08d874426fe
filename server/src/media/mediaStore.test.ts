import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError } from '../errors.ts';
import { createTestDb } from '../../test/helper.ts';
import { pdfDocument, pngImage } from '../../test/files.ts';
import { testS3Settings } from '../../test/s3.ts';
import { until } from '../../test/until.ts';
import { MediaStore } from './mediaStore.ts';
import type { ObjectStore } from './objectStore.ts';
import { s3Client, S3ObjectStore } from './s3ObjectStore.ts';
import { isStoredName, keyOfFile } from './storedNames.ts';

const db = await createTestDb();
const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {} } as unknown as FastifyBaseLogger;

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const newKey = () => randomBytes(18).toString('base64url');
const pendingKeys = async () =>
  (await db.query<{ storage_key: string }>('SELECT storage_key FROM pending_uploads ORDER BY storage_key')).rows.map(
    (r) => r.storage_key,
  );
const listing = (dir: string) => readdirSync(dir).sort();

/** Where committed files go: this machine's uploads folder (the default), and an S3 bucket. */
const drivers: [string, () => Promise<ObjectStore | undefined>][] = [
  ['the uploads folder', async () => undefined],
  ['an S3 bucket', async () => new S3ObjectStore(await testS3Settings())],
];

/** Stores `content` as `name` through the store's own driver. */
async function putObject(store: MediaStore, name: string, content: string): Promise<void> {
  const file = path.join(store.tmpDir, `put-${randomBytes(6).toString('hex')}`);
  writeFileSync(file, content);
  await store.objects.putFile(name, file, 'application/octet-stream');
}
const stored = async (store: MediaStore) => (await store.objects.list('')).sort();

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe.each(drivers)('MediaStore.init (crash safety), files in %s', (_, objects) => {
  it('deletes the files of uploads that never completed and empties the incoming folder, keeping everything else', async () => {
    const dir = dataDir();
    const store = new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent, await objects());
    await store.init();
    // A crash left: a recorded upload with its file and formats, a half-written temporary file,
    // and a committed file next to them.
    const crashed = newKey();
    const kept = newKey();
    await db.query('INSERT INTO pending_uploads (storage_key) VALUES ($1)', [crashed]);
    for (const name of [
      `${crashed}.png`,
      `thumbnail_${crashed}.jpg`,
      `small_${crashed}.jpg`,
      `medium_${crashed}.jpg`,
      `large_${crashed}.jpg`,
      `${kept}.pdf`,
    ]) {
      await putObject(store, name, 'x');
    }
    writeFileSync(path.join(store.tmpDir, crashed), 'half');
    mkdirSync(path.join(store.tmpDir, 'stray-folder'));

    await new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent, store.objects).init();

    expect(await stored(store)).toEqual([`${kept}.pdf`]);
    expect(listing(store.tmpDir)).toEqual([]);
    expect(await pendingKeys()).not.toContain(crashed);
  });

  it("sweeps only its own node's unfinished uploads at start; another node's wait for the housekeeping", async () => {
    const dir = dataDir();
    const objectStore = await objects();
    const nodeA = new MediaStore(
      db,
      dir,
      { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' },
      silent,
      objectStore,
      'node-a',
    );
    await nodeA.init();
    const mine = newKey();
    const theirs = newKey();
    const posterOf = newKey();
    await db.query(
      `INSERT INTO pending_uploads (storage_key, node) VALUES ($1, 'node-a'), ($2, 'node-b'), ($3, 'node-a')`,
      [mine, theirs, `formats:${posterOf}`],
    );
    for (const name of [`${mine}.mp4`, `${theirs}.mp4`, `${posterOf}.mp4`, `thumbnail_${posterOf}.jpg`])
      await putObject(nodeA, name, 'x');
    // Node A starts again: its own upload and poster formats go; B's upload, under way, stays.
    await new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent, objectStore, 'node-a').init();
    expect(await stored(nodeA)).toEqual([`${posterOf}.mp4`, `${theirs}.mp4`].sort());
    expect(await pendingKeys()).toEqual([theirs]);
    // B never came back: once older than any upload may last, the housekeeping sweeps it.
    expect(await nodeA.sweepAbandoned(60_000)).toBe(0);
    await db.query(`UPDATE pending_uploads SET created_at = ms_now() - interval '2 minutes' WHERE storage_key = $1`, [
      theirs,
    ]);
    expect(await nodeA.sweepAbandoned(60_000)).toBe(1);
    expect(await stored(nodeA)).toEqual([`${posterOf}.mp4`]);
    expect(await pendingKeys()).toEqual([]);
    await nodeA.objects.remove([`${posterOf}.mp4`]);
  });

  it('creates its folders on a fresh data directory', async () => {
    const dir = dataDir();
    await new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent, await objects()).init();
    expect(existsSync(path.join(dir, 'uploads', '.incoming'))).toBe(true);
  });
});

describe.each(drivers)('MediaStore.receive, abandon and discard, files in %s', async (_, objects) => {
  const dir = dataDir();
  const store = new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent, await objects());
  await store.init();
  const uploads = path.join(dir, 'uploads');
  const has = async (name: string) => (await store.objects.size(name)) !== null;

  it('records the key before writing and streams the file into the store, with nothing in the incoming folder', async () => {
    const received = await store.receive(Readable.from([pdfDocument()]), 'C:\\Users\\me\\plan\u0007.pdf', 'documents');
    expect(received).toMatchObject({
      name: 'plan.pdf',
      mime: 'application/pdf',
      ext: '.pdf',
      kind: 'document',
      formats: null,
    });
    expect(keyOfFile(`${received.key}.pdf`)).toBe(received.key);
    expect(await pendingKeys()).toContain(received.key);
    expect(received.size).toBe(pdfDocument().length);
    expect(await store.objects.size(`${received.key}.pdf`)).toBe(pdfDocument().length);
    expect(listing(path.join(uploads, '.incoming'))).toEqual([]);

    await store.discard({ keys: [received.key], files: [`${received.key}.pdf`] });
    expect(await has(`${received.key}.pdf`)).toBe(false);
    expect(await pendingKeys()).not.toContain(received.key);
  });

  it('links a local file (a finished resumable upload) rather than copying it, and copies when it cannot', async () => {
    const local = path.join(dir, 'finished-upload');
    writeFileSync(local, pdfDocument());
    const linked = await store.receive(Readable.from([pdfDocument()]), 'plan.pdf', 'documents', local);
    expect(linked.size).toBe(pdfDocument().length);
    expect(await store.objects.size(`${linked.key}.pdf`)).toBe(pdfDocument().length);
    // The upload keeps its own name until it is removed; in the folder both names are one file.
    expect(existsSync(local)).toBe(true);
    const sameFile = () => statSync(path.join(uploads, `${linked.key}.pdf`)).ino === statSync(local).ino;
    expect(store.objects.kind === 's3' || sameFile()).toBe(true);
    expect(listing(path.join(uploads, '.incoming'))).toEqual([]);
    // A file that cannot be linked (here: gone) is copied from the stream, as any upload.
    const copied = await store.receive(Readable.from([pdfDocument()]), 'plan.pdf', 'documents', `${local}-gone`);
    expect(await store.objects.size(`${copied.key}.pdf`)).toBe(pdfDocument().length);
    await store.discard({ keys: [linked.key, copied.key], files: [`${linked.key}.pdf`, `${copied.key}.pdf`] });
  });

  it('makes the image formats from the stored image and abandons them all with the original', async () => {
    const received = await store.receive(Readable.from([await pngImage(900, 300)]), 'wide.png', 'images');
    expect([...received.stored].sort()).toEqual(
      [
        `${received.key}.png`,
        `large_${received.key}.jpg`,
        `medium_${received.key}.jpg`,
        `small_${received.key}.jpg`,
        `thumbnail_${received.key}.jpg`,
      ].sort(),
    );
    expect(received.formats!.thumbnail).toMatchObject({ width: 245, height: 82 });
    for (const name of received.stored) expect(await has(name)).toBe(true);
    await store.abandon(received);
    expect(listing(path.join(uploads, '.incoming'))).toEqual([]);
    for (const name of received.stored) expect(await has(name)).toBe(false);
    expect(await pendingKeys()).not.toContain(received.key);
  });

  it('leaves nothing behind when it refuses a file', async () => {
    const before = await pendingKeys();
    expect((await refusal(store.receive(Readable.from([Buffer.alloc(0)]), 'empty.pdf', 'documents'))).message).toBe(
      'You cannot upload an empty file.',
    );
    expect((await refusal(store.receive(Readable.from([pdfDocument()]), 'x.png', 'images'))).statusCode).toBe(400);
    const broken = Buffer.concat([(await pngImage(50, 50)).subarray(0, 60)]);
    expect((await refusal(store.receive(Readable.from([broken]), 'broken.png', 'images'))).message).toBe(
      'This image could not be read. It may be damaged.',
    );
    const failing = new Readable({
      read() {
        this.destroy(new HttpError(413, 'too_large', 'This file is too large.'));
      },
    });
    expect((await refusal(store.receive(failing, 'big.pdf', 'documents'))).statusCode).toBe(413);
    // Over the limit in the middle: after its head was stored.
    let sent = 0;
    const tooLong = new Readable({
      read() {
        sent += 1;
        if (sent > 40) this.destroy(new HttpError(413, 'too_large', 'This file is too large.'));
        else this.push(Buffer.alloc(16 * 1024, 7));
      },
    });
    expect((await refusal(store.receive(tooLong, 'long.bin', 'documents'))).statusCode).toBe(413);
    expect(listing(path.join(uploads, '.incoming'))).toEqual([]);
    expect(await stored(store)).toEqual([]);
    expect(await pendingKeys()).toEqual(before);
  });

  it('stores an image with its formats, each readable whole and by byte range', async () => {
    const received = await store.receive(Readable.from([await pngImage(900, 300)]), 'wide.png', 'images');
    for (const name of received.stored) expect(await has(name)).toBe(true);
    const head = await store.objects.read(`${received.key}.png`, { start: 1, end: 3 });
    const chunks: Buffer[] = [];
    for await (const chunk of head) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('latin1')).toBe('PNG');
    await store.discard({ keys: [received.key], files: received.stored });
    for (const name of received.stored) expect(await has(name)).toBe(false);
  });
});

describe('MediaStore.init with the media in a bucket', () => {
  it('also drops the parts a crashed upload left in the bucket (an unfinished multipart upload)', async () => {
    const settings = await testS3Settings();
    const client = s3Client(settings);
    afterAll(() => client.destroy());
    const store = new MediaStore(
      db,
      dataDir(),
      { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' },
      silent,
      new S3ObjectStore(settings),
      'node-a',
    );
    await store.init();
    const crashed = newKey();
    const other = newKey();
    await db.query(`INSERT INTO pending_uploads (storage_key, node) VALUES ($1, 'node-a')`, [crashed]);
    const unfinished = async (key: string) => {
      const { UploadId } = await client.send(
        new CreateMultipartUploadCommand({ Bucket: settings.bucket, Key: `${key}.mp4` }),
      );
      await client.send(
        new UploadPartCommand({
          Bucket: settings.bucket,
          Key: `${key}.mp4`,
          UploadId,
          PartNumber: 1,
          Body: Buffer.alloc(5 * 1024 * 1024, 1),
        }),
      );
    };
    await unfinished(crashed);
    await unfinished(other);
    const uploads = async () =>
      ((await client.send(new ListMultipartUploadsCommand({ Bucket: settings.bucket }))).Uploads ?? [])
        .map((u) => u.Key)
        .sort();
    expect(await uploads()).toEqual([`${crashed}.mp4`, `${other}.mp4`].sort());
    await new MediaStore(
      db,
      dataDir(),
      { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' },
      silent,
      store.objects,
      'node-a',
    ).init();
    // Only the recorded upload's: another one may be under way.
    expect(await uploads()).toEqual([`${other}.mp4`]);
    expect(await pendingKeys()).not.toContain(crashed);
    await store.objects.dropUnfinished(other);
    expect(await uploads()).toEqual([]);
  });
});

describe('MediaStore.stop', () => {
  it('kills the ffmpeg still running when the node stops', async () => {
    const dir = dataDir();
    const ffmpeg = path.join(dir, 'slow-ffmpeg');
    writeFileSync(ffmpeg, '#!/bin/sh\nexec sleep 31.25\n', { mode: 0o755 });
    const store = new MediaStore(db, dir, { ffmpeg, ffprobe: 'ffprobe' }, silent);
    await store.init();
    const key = newKey();
    await putObject(store, `${key}.mp4`, 'not really a video');
    const running = () => spawnSync('pgrep', ['-f', 'sleep 31.25']).status === 0;
    const started = Date.now();
    const poster = store.makePoster(key, `${key}.mp4`);
    await until(running, { what: 'ffmpeg running' });
    store.stop();
    expect(await poster).toBeNull();
    expect(Date.now() - started).toBeLessThan(10_000);
    await until(() => !running(), { what: 'ffmpeg gone' });
    await store.objects.remove([`${key}.mp4`]);
  });
});

describe('MediaStore when the object store cannot delete', () => {
  it('keeps the keys for the next start to delete, and lets the request succeed', async () => {
    const dir = dataDir();
    const store = new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent);
    await store.init();
    const received = await store.receive(Readable.from([pdfDocument()]), 'plan.pdf', 'documents');
    const remove = store.objects.remove.bind(store.objects);
    store.objects.remove = () => Promise.reject(new Error('the bucket is out of reach'));
    try {
      await store.discard({ keys: [received.key], files: [`${received.key}.pdf`] });
      await store.abandon(received);
    } finally {
      store.objects.remove = remove;
    }
    expect(await pendingKeys()).toContain(received.key);
    // The next start deletes them.
    await new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent).init();
    expect(await store.objects.size(`${received.key}.pdf`)).toBeNull();
    expect(await pendingKeys()).not.toContain(received.key);
  });
});

describe('isStoredName', () => {
  it('answers only plain stored names', () => {
    const key = newKey();
    expect(isStoredName(`${key}.png`)).toBe(true);
    expect(isStoredName(`thumbnail_${key}.jpg`)).toBe(true);
    for (const bad of ['../x.png', 'a/b.png', '.incoming', `${key}`, `${key}.PNG`, `${key}.png.html`, ''])
      expect(isStoredName(bad)).toBe(false);
  });
});

describe('keyOfFile', () => {
  it('finds the storage key in an original or a format file name', () => {
    const key = 'AbCdEfGhIjKlMnOpQrStUv-_';
    expect(keyOfFile(`${key}.mp4`)).toBe(key);
    expect(keyOfFile(`medium_${key}.jpg`)).toBe(key);
    expect(keyOfFile(key)).toBe(key);
    expect(keyOfFile('short.png')).toBeNull();
    expect(keyOfFile(`poster_${key}.jpg`)).toBeNull();
  });
});
