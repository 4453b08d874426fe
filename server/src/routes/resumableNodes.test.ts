import { createHash, randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { PgLocker, UPLOAD_LOCKED } from '../media/resumable/pgLocker.ts';
import { createArtifact, createPortfolio, createTeacher } from '../../test/factories.ts';
import { pdfDocument, pngImage } from '../../test/files.ts';
import { CapturingMailer, createTestDb, TEST_JOBS, testAppOf, testConfig, type TestApp } from '../../test/helper.ts';
import { TestClock } from '../../test/clock.ts';
import { fetchFile, media } from '../../test/fixtures/media.ts';
import { toArtifact, TUS, tusMetadata } from '../../test/fixtures/resumable.ts';
import { until } from '../../test/until.ts';

// Several nodes on one database (and one store): successive chunks of an upload on different
// nodes, a second concurrent chunk refused by the PostgreSQL lock, and a chunk cut off mid-way.
const db = await createTestDb();
const config = testConfig({ ffmpegPath: '/usr/bin/ffmpeg' });
const nodes: { t: TestApp; url: string }[] = [];
for (let i = 0; i < 2; i += 1) {
  const app = await buildApp({
    config,
    db,
    mailer: new CapturingMailer(),
    logger: false,
    clock: new TestClock(),
    jobs: TEST_JOBS,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  nodes.push({
    t: testAppOf(app, db, new CapturingMailer(), config),
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
  });
}
afterAll(async () => {
  for (const node of nodes) await node.t.app.close();
});
const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];

const BODY = 'application/offset+octet-stream';

/** One request over a real connection; `hold` keeps the body open after `body` (a client still sending). */
function send(
  node: { url: string },
  options: {
    method: string;
    path: string;
    token: string;
    headers?: Record<string, string>;
    body?: Buffer;
    length?: number;
  },
) {
  const url = new URL(`/api/v1${options.path}`, node.url);
  const request = http.request(url, {
    method: options.method,
    headers: {
      ...TUS,
      authorization: `Bearer ${options.token}`,
      ...(options.body
        ? { 'content-type': BODY, 'content-length': String(options.length ?? options.body.length) }
        : {}),
      ...options.headers,
    },
  });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    request.on('error', reject);
  });
  if (options.body) request.write(options.body);
  if (options.length === undefined) request.end();
  return { request, answer };
}

async function newUpload(file: Buffer, kind = 'image', name = 'photo.png') {
  const teacher = await createTeacher(a.t);
  const portfolio = await createPortfolio(a.t, teacher);
  const artifact = await createArtifact(a.t, portfolio);
  const created = await send(a, {
    method: 'POST',
    path: '/uploads/tus',
    token: teacher.token,
    headers: {
      'upload-length': String(file.length),
      'upload-metadata': tusMetadata(toArtifact(portfolio.id, artifact.id, kind, name)),
    },
  }).answer;
  expect(created.status).toBe(201);
  const id = String(created.headers.location).split('/').pop()!;
  const patch = (node: typeof a, offset: number, body: Buffer, length?: number) =>
    send(node, {
      method: 'PATCH',
      path: `/uploads/tus/${id}`,
      token: teacher.token,
      headers: { 'upload-offset': String(offset) },
      body,
      ...(length === undefined ? {} : { length }),
    });
  const offset = async (node: typeof a) => {
    const res = await send(node, { method: 'HEAD', path: `/uploads/tus/${id}`, token: teacher.token }).answer;
    return res.status === 200 ? Number(res.headers['upload-offset']) : null;
  };
  return { teacher, id, patch, offset };
}

/** Whether a request holds an upload lock (an advisory lock of the upload locks' key space). */
const locked = async () =>
  (await db.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::oid`, [0x74757300])).rows
    .length > 0;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('resumable uploads on several nodes', () => {
  it('takes successive chunks on alternating nodes and stores the file byte for byte', async () => {
    const png = await pngImage(1200, 900);
    const up = await newUpload(png);
    const step = Math.ceil(png.length / 4);
    const seen: [number, number | null][] = [];
    for (let i = 0; i < 3; i += 1) {
      const chunk = await up.patch(i % 2 === 0 ? a : b, i * step, png.subarray(i * step, (i + 1) * step)).answer;
      // Each chunk's node and then the other node tell the new offset.
      seen.push([chunk.status, await up.offset(i % 2 === 0 ? b : a)]);
    }
    expect(seen).toEqual([
      [204, step],
      [204, 2 * step],
      [204, 3 * step],
    ]);
    const answer = await up.patch(b, 3 * step, png.subarray(3 * step)).answer;
    expect(answer.status).toBe(200);
    const file = media({ statusCode: 200, json: () => JSON.parse(answer.body) } as never);
    const stored = await fetchFile(a.t, file.url);
    expect(sha256(stored.rawPayload)).toBe(sha256(png));
  });

  it('refuses a second chunk while another node receives the first (423), and never mixes their bytes', async () => {
    const png = await pngImage(800, 600);
    const up = await newUpload(png);
    // Node A receives a chunk that is still arriving…
    const slow = up.patch(a, 0, png.subarray(0, 1000), png.length);
    await until(locked, { what: 'the upload lock taken' });
    // …so node B refuses the same upload's chunk.
    const second = await up.patch(b, 0, png).answer;
    expect(second.status).toBe(423);
    expect(JSON.parse(second.body)).toMatchObject({ code: 'upload_locked' });
    slow.request.end(png.subarray(1000));
    const first = await slow.answer;
    expect(first.status).toBe(200);
    const stored = await fetchFile(a.t, JSON.parse(first.body).url);
    expect(sha256(stored.rawPayload)).toBe(sha256(png));
  });

  it('keeps what arrived of a chunk cut off mid-way: HEAD on the other node tells it, and the upload resumes from there', async () => {
    const png = Buffer.concat([pdfDocument(), randomBytes(4 * 1024 * 1024)]);
    const up = await newUpload(png, 'document', 'notes.pdf');
    const cut = up.patch(a, 0, png.subarray(0, 1024 * 1024), png.length);
    cut.answer.catch(() => undefined);
    // In a folder the first bytes show as they arrive; a bucket keeps them aside until the part ends.
    const part = path.join(config.dataDir, 'resumable', up.id);
    if (config.s3) await until(locked, { what: 'the chunk arriving' });
    else await until(() => existsSync(part) && statSync(part).size > 0, { what: 'the first bytes stored' });
    cut.request.destroy();
    const kept = await until(() => up.offset(b), { what: 'the offset after the drop (the lock released)' });
    // A folder keeps the bytes that arrived; a bucket (radosgw here) kept none of a cut-off part
    // smaller than its least part size: the client resumes from whichever offset HEAD tells.
    expect(config.s3 ? kept >= 0 : kept > 0).toBe(true);
    expect(kept).toBeLessThanOrEqual(1024 * 1024);
    const rest = await up.patch(b, kept, png.subarray(kept)).answer;
    expect(rest.status).toBe(200);
    const stored = await fetchFile(a.t, JSON.parse(rest.body).url);
    expect(sha256(stored.rawPayload)).toBe(sha256(png));
  });

  it('survives a writer thread that stops mid-chunk: 503, HEAD tells what was written, a new thread takes the rest', async () => {
    const file = Buffer.concat([pdfDocument(), randomBytes(4 * 1024 * 1024)]);
    const up = await newUpload(file, 'document', 'notes.pdf');
    const writer = a.t.app.services.resumableWriter;
    const cut = up.patch(a, 0, file.subarray(0, 1024 * 1024), file.length);
    const part = path.join(config.dataDir, 'resumable', up.id);
    await until(() => writer.writing > 0, { what: 'the chunk going to the thread' });
    if (!config.s3) await until(() => existsSync(part) && statSync(part).size > 0, { what: 'the first bytes stored' });
    const crashed = writer.worker!;
    await crashed.terminate();
    const answer = await cut.answer;
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'busy' });
    const kept = await until(() => up.offset(a), { what: 'the offset after the crash (the lock released)' });
    expect(kept).toBeLessThanOrEqual(1024 * 1024);
    const rest = await up.patch(a, kept, file.subarray(kept)).answer;
    expect(rest.status).toBe(200);
    expect(writer.worker).not.toBe(crashed);
    const stored = await fetchFile(a.t, JSON.parse(rest.body).url);
    expect(sha256(stored.rawPayload)).toBe(sha256(file));
  });
});

describe('the PostgreSQL upload locker', () => {
  const settings = db.settings!();
  const one = new PgLocker(settings, { max: 2, waitMs: 200 });
  const two = new PgLocker(settings, { max: 2, waitMs: 200 });
  afterAll(async () => {
    await one.close();
    await two.close();
  });
  const never = () => undefined;

  it('gives an upload to one holder at a time across lockers, and frees it on unlock or at the end of the request', async () => {
    const first = one.forRequest();
    const lock = first.newLock('upload-1');
    await lock.lock(new AbortController().signal, never);
    const second = two.forRequest();
    await expect(second.newLock('upload-1').lock(new AbortController().signal, never)).rejects.toBe(UPLOAD_LOCKED);
    // Another upload is free meanwhile.
    const other = second.newLock('upload-2');
    await other.lock(new AbortController().signal, never);
    await other.unlock();
    await lock.unlock();
    const again = second.newLock('upload-1');
    await again.lock(new AbortController().signal, never);
    // The request ends without unlocking: its locks are released all the same.
    await second.releaseAll();
    const third = one.forRequest();
    await third.newLock('upload-1').lock(new AbortController().signal, never);
    await third.releaseAll();
  });

  it('waits briefly for a holder that lets go', async () => {
    const holder = one.forRequest();
    const lock = holder.newLock('upload-3');
    await lock.lock(new AbortController().signal, never);
    setTimeout(() => void lock.unlock(), 50);
    const waiting = two.forRequest();
    await expect(waiting.newLock('upload-3').lock(new AbortController().signal, never)).resolves.toBeUndefined();
    await waiting.releaseAll();
  });
});
