import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError } from '../errors.ts';
import { createTestDb } from '../../test/helper.ts';
import { pdfDocument, pngImage } from '../../test/files.ts';
import { keyOfFile, MediaStore } from './mediaStore.ts';

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

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('MediaStore.init (crash safety)', () => {
  it('deletes the files of uploads that never completed and empties the incoming folder, keeping everything else', async () => {
    const dir = dataDir();
    const store = new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent);
    await store.init();
    // A crash left: a recorded upload with its file and formats, a half-written temporary file,
    // and a committed file next to them.
    const crashed = newKey();
    const kept = newKey();
    await db.query('INSERT INTO pending_uploads (storage_key) VALUES ($1)', [crashed]);
    const uploads = path.join(dir, 'uploads');
    for (const name of [
      `${crashed}.png`,
      `thumbnail_${crashed}.jpg`,
      `small_${crashed}.jpg`,
      `medium_${crashed}.jpg`,
      `large_${crashed}.jpg`,
      `${kept}.pdf`,
    ]) {
      writeFileSync(path.join(uploads, name), 'x');
    }
    writeFileSync(path.join(uploads, '.incoming', crashed), 'half');
    mkdirSync(path.join(uploads, '.incoming', 'stray-folder'));

    await new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent).init();

    expect(listing(uploads)).toEqual(['.incoming', `${kept}.pdf`].sort());
    expect(listing(path.join(uploads, '.incoming'))).toEqual([]);
    expect(await pendingKeys()).not.toContain(crashed);
  });

  it('creates its folders on a fresh data directory', async () => {
    const dir = dataDir();
    await new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent).init();
    expect(existsSync(path.join(dir, 'uploads', '.incoming'))).toBe(true);
  });
});

describe('MediaStore.receive, place, abandon and discard', async () => {
  const dir = dataDir();
  const store = new MediaStore(db, dir, { ffmpeg: '/nonexistent', ffprobe: 'ffprobe' }, silent);
  await store.init();
  const uploads = path.join(dir, 'uploads');

  it('records the key before writing, keeps the file in the incoming folder until it is placed', async () => {
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
    expect(listing(path.join(uploads, '.incoming'))).toEqual([received.key]);
    await store.place(received);
    expect(existsSync(path.join(uploads, `${received.key}.pdf`))).toBe(true);
    expect(listing(path.join(uploads, '.incoming'))).toEqual([]);

    await store.discard({ keys: [received.key], files: [`${received.key}.pdf`] });
    expect(existsSync(path.join(uploads, `${received.key}.pdf`))).toBe(false);
    expect(await pendingKeys()).not.toContain(received.key);
  });

  it('derives the image formats in the incoming folder and abandons them all with the original', async () => {
    const received = await store.receive(Readable.from([await pngImage(900, 300)]), 'wide.png', 'images');
    expect(received.files.map((f) => f.to).sort()).toEqual(
      [
        `${received.key}.png`,
        `large_${received.key}.jpg`,
        `medium_${received.key}.jpg`,
        `small_${received.key}.jpg`,
        `thumbnail_${received.key}.jpg`,
      ].sort(),
    );
    expect(received.formats!.thumbnail).toMatchObject({ width: 245, height: 82 });
    await store.abandon(received);
    expect(listing(path.join(uploads, '.incoming'))).toEqual([]);
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
    expect(listing(path.join(uploads, '.incoming'))).toEqual([]);
    expect(await pendingKeys()).toEqual(before);
  });

  it('answers only plain stored names with a path inside the uploads folder', () => {
    const key = newKey();
    expect(store.pathOf(`${key}.png`)).toBe(path.join(uploads, `${key}.png`));
    expect(store.pathOf(`thumbnail_${key}.jpg`)).toBe(path.join(uploads, `thumbnail_${key}.jpg`));
    for (const bad of ['../x.png', 'a/b.png', '.incoming', `${key}`, `${key}.PNG`, `${key}.png.html`, ''])
      expect(store.pathOf(bad)).toBeNull();
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
