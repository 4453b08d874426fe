import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Media } from '#schemas/media';
import { createSharedArtifact, createSharedPortfolio, createTeacher, type TestUser } from '../../test/factories.ts';
import { ffmpegVideo, htmlPage, multipart, multipartParts, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { filesOf, isStored, media, mediaKit, settledVideo, upload } from '../../test/fixtures/media.ts';
import { partsOf, toArtifact, tusClient, uploadIdOf } from '../../test/fixtures/resumable.ts';
import { RESUMABLE_EXPIRES_AFTER_MS, RESUMABLE_MESSAGES } from '../services/resumableUploadService.ts';

// Resumable uploads (tus) of the web app: the protocol, who may use an upload, limits, quota and expiry, and the record a finished upload becomes.
const LIMIT = 6 * 1024 * 1024;
const t = await buildTestApp({
  ffmpegPath: '/usr/bin/ffmpeg',
  uploadLimitBytes: LIMIT,
  storageQuotaBytes: 10 * 1024 * 1024,
});
const { ownArtifact } = mediaKit(t);

/** How many unfinished uploads `who` has. */
async function unfinished(who: TestUser): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM resumable_uploads WHERE owner_id = $1 AND finished_at IS NULL',
    [who.user.id],
  );
  return rows[0]!.n;
}

/** A HEAD answers without a body: only its status tells. */
const statusOf = (res: { statusCode: number }) => res.statusCode;

/** The fields two records of the same file share (ids, captions, addresses and times differ). */
function sameFile(m: Media) {
  return {
    name: m.name,
    mime: m.mime,
    ext: m.ext,
    size: m.size,
    width: m.width,
    height: m.height,
    provider: m.provider,
    alt: m.alt,
    description: m.description,
    duration: m.duration,
    formats: Object.fromEntries(
      Object.entries(m.formats ?? {}).map(([k, f]) => [k, { width: f!.width, height: f!.height, mime: f!.mime }]),
    ),
  };
}

describe('a resumable upload', () => {
  it('takes the file in chunks, tells its offset, and becomes the same record as a multipart upload', async () => {
    const { teacher, portfolio, artifact, base } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const png = await pngImage(1600, 1200);
    const created = await tus.create(
      png.length,
      toArtifact(portfolio.id, artifact.id, 'image', 'class photo.png', { filetype: 'image/png', alt: 'The class' }),
    );
    const id = uploadIdOf(created);
    expect(created.headers['tus-resumable']).toBe('1.0.0');
    expect(Date.parse(String(created.headers['upload-expires']))).toBeGreaterThan(Date.now());
    // Our security headers, and no CORS permission.
    expect(created.headers['content-security-policy']).toBeTruthy();
    expect(created.headers['access-control-allow-origin']).toBeUndefined();

    const half = Math.floor(png.length / 2);
    const first = await tus.patch(id, 0, png.subarray(0, half));
    expect(first).toHaveStatus(204);
    expect(first.headers['upload-offset']).toBe(String(half));
    const head = await tus.head(id);
    expect(head).toHaveStatus(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    expect(head.headers['upload-length']).toBe(String(png.length));
    expect(head.headers['cache-control']).toBe('no-store');

    const last = await tus.patch(id, half, png.subarray(half));
    const resumed = media(last);
    expect(last.headers['upload-offset']).toBe(String(png.length));
    expect(resumed).toMatchObject({ caption: 'A', name: 'class photo.png', mime: 'image/png', alt: 'The class' });
    expect(resumed.parentArtifact.images.map((m) => m.id)).toEqual([resumed.id]);
    for (const url of filesOf(resumed)) expect(await isStored(t, url)).toBe(true);
    // Finished: its bytes are the file's; it answers complete until its expiry (see resumableLastPatch.test.ts).
    expect((await tus.head(id)).headers['upload-offset']).toBe(String(png.length));
    expect(await unfinished(teacher)).toBe(0);
    expect(await partsOf(t, id)).toBe(0);

    const form = multipartParts([
      { field: 'alt', value: 'The class' },
      { field: 'file', filename: 'class photo.png', content: png, contentType: 'image/png' },
    ]);
    const plain = media(await upload(t, teacher.token, `${base}/images`, form));
    expect(plain.caption).toBe('B');
    expect(sameFile(plain)).toEqual(sameFile(resumed));
    expect(Object.keys(resumed.formats ?? {}).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
  });

  it('creates and finishes in one request (creation-with-upload)', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const png = await pngImage(300, 200);
    const res = await tusClient(t, teacher.token).create(
      png.length,
      toArtifact(portfolio.id, artifact.id, 'image', 'small.png'),
      png,
    );
    expect(media(res)).toMatchObject({ width: 300, height: 200, name: 'small.png' });
  });

  it('becomes a video with its poster made by the media jobs, as a multipart video does', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const video = ffmpegVideo();
    const tus = tusClient(t, teacher.token);
    const id = uploadIdOf(await tus.create(video.length, toArtifact(portfolio.id, artifact.id, 'video', 'lesson.mp4')));
    const file = media(await tus.patch(id, 0, video));
    const settled = await settledVideo(t, teacher.token, artifact.id, file.id);
    expect(settled.formats?.large).toBeTruthy();
    expect(settled.mime).toMatch(/^video\//);
  });

  it('goes to a shared artifact under the shared artifact policy', async () => {
    const teacher = await createTeacher(t);
    const sp = await createSharedPortfolio(t, teacher);
    const shared = await createSharedArtifact(t, sp, teacher);
    const png = await pngImage(100, 100);
    const tus = tusClient(t, teacher.token);
    const meta = {
      target: 'sharedArtifact',
      portfolioId: String(sp.id),
      artifactId: String(shared.id),
      kind: 'image',
      filename: 'a.png',
    };
    const id = uploadIdOf(await tus.create(png.length, meta));
    const res = await tus.patch(id, 0, png);
    expect(res).toHaveStatus(200);
    expect((res.json() as { parentSharedArtifact: { id: number } }).parentSharedArtifact.id).toBe(shared.id);
    const stranger = await createTeacher(t);
    expect(await tusClient(t, stranger.token).create(png.length, meta)).toBeHandled();
    expect((await tusClient(t, stranger.token).create(png.length, meta)).statusCode).toBeGreaterThanOrEqual(403);
  });

  it('answers 409 to a chunk at the wrong offset and keeps what it had', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const png = await pngImage(400, 300);
    const tus = tusClient(t, teacher.token);
    const id = uploadIdOf(await tus.create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')));
    expect(await tus.patch(id, 0, png.subarray(0, 100))).toHaveStatus(204);
    expect(await tus.patch(id, 0, png.subarray(0, 100))).toBeApiError(409);
    expect(await tus.patch(id, 150, png.subarray(150))).toBeApiError(409);
    expect((await tus.head(id)).headers['upload-offset']).toBe('100');
  });

  it('checks a chunk against the checksum the client sends (460 when it differs)', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const png = await pngImage(400, 300);
    const tus = tusClient(t, teacher.token);
    const id = uploadIdOf(await tus.create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')));
    const chunk = png.subarray(0, 1000);
    const sha1 = (b: Buffer) => `sha1 ${createHash('sha1').update(b).digest('base64')}`;
    expect(await tus.patch(id, 0, chunk, { 'upload-checksum': sha1(png.subarray(1, 1001)) })).toBeApiError(460);
    expect((await tus.head(id)).headers['upload-offset']).toBe('0');
    expect(await tus.patch(id, 0, chunk, { 'upload-checksum': 'crc32 AAAA' })).toBeApiError(400);
    expect(await tus.patch(id, 0, chunk, { 'upload-checksum': sha1(chunk) })).toHaveStatus(204);
    expect(
      media(await tus.patch(id, 1000, png.subarray(1000), { 'upload-checksum': sha1(png.subarray(1000)) })).name,
    ).toBe('a.png');
  });

  it('is refused when its bytes are not of its kind, and is then gone', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const page = htmlPage();
    const tus = tusClient(t, teacher.token);
    const id = uploadIdOf(await tus.create(page.length, toArtifact(portfolio.id, artifact.id, 'image', 'photo.png')));
    expect(await tus.patch(id, 0, page)).toBeApiError(400);
    expect(statusOf(await tus.head(id))).toBe(404);
    expect(await unfinished(teacher)).toBe(0);
  });
});

describe('who may use a resumable upload', () => {
  it('answers 401 without a session', async () => {
    const { portfolio, artifact } = await ownArtifact();
    expect(await tusClient(t, null).create(10, toArtifact(portfolio.id, artifact.id, 'image', 'a.png'))).toBeApiError(
      401,
    );
  });

  it('takes the web session cookie with the web app header, as the other writes do', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const meta = toArtifact(portfolio.id, artifact.id, 'image', 'a.png');
    const viaCookie = tusClient(t, null);
    const cookie = { cookie: `jwt=${teacher.token}` };
    expect(await viaCookie.create(10, meta, undefined, cookie)).toBeApiError(403);
    const id = uploadIdOf(await viaCookie.create(10, meta, undefined, { ...cookie, 'x-practicefolio-client': 'web' }));
    // Reading the offset is not a write: the cookie alone will do.
    expect(
      (await t.api({ method: 'HEAD', url: `/uploads/tus/${id}`, headers: { ...cookie, 'tus-resumable': '1.0.0' } }))
        .statusCode,
    ).toBe(200);
    expect(await unfinished(teacher)).toBe(1);
  });

  it("answers 404 to another person's HEAD, PATCH and DELETE, and leaves the upload alone", async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const png = await pngImage(100, 100);
    const id = uploadIdOf(
      await tusClient(t, teacher.token).create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')),
    );
    const other = tusClient(t, (await createTeacher(t)).token);
    expect(statusOf(await other.head(id))).toBe(404);
    expect(await other.patch(id, 0, png)).toBeApiError(404, RESUMABLE_MESSAGES.notFound);
    expect(await other.terminate(id)).toBeApiError(404, RESUMABLE_MESSAGES.notFound);
    expect((await tusClient(t, teacher.token).head(id)).headers['upload-offset']).toBe('0');
  });

  it("refuses an upload to another teacher's artifact before any byte, as the multipart route does", async () => {
    const { portfolio, artifact, base } = await ownArtifact();
    const stranger = await createTeacher(t);
    const png = await pngImage(100, 100);
    const viaTus = await tusClient(t, stranger.token).create(
      png.length,
      toArtifact(portfolio.id, artifact.id, 'image', 'a.png'),
      png,
    );
    const form = multipart('file', 'a.png', png, 'image/png');
    const viaForm = await upload(t, stranger.token, `${base}/images`, form);
    expect(viaTus.statusCode).toBe(viaForm.statusCode);
    expect(viaTus.json()).toEqual(viaForm.json());
    expect(await unfinished(stranger)).toBe(0);
  });

  it('validates the metadata: unknown keys, a wrong target or kind, no file name, no length', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const meta = toArtifact(portfolio.id, artifact.id, 'image', 'a.png');
    expect(await tus.create(10, { ...meta, owner: '1' })).toBeApiError(400, /Upload-Metadata/);
    expect(await tus.create(10, { ...meta, target: 'portfolio' })).toBeApiError(400, /target must be/);
    expect(await tus.create(10, { ...meta, kind: 'audio' })).toBeApiError(400, /kind must be/);
    const { filename: _dropped, ...noName } = meta;
    expect(await tus.create(10, noName)).toBeApiError(400, /filename/);
    expect(await tus.create(10, { ...meta, portfolioId: 'x' })).toBeApiError(400, /portfolioId/);
    expect(await tus.create(0, meta)).toBeApiError(400, 'You cannot upload an empty file.');
    const deferred = await t.api({
      method: 'POST',
      url: '/uploads/tus',
      token: teacher.token,
      headers: { 'tus-resumable': '1.0.0', 'upload-defer-length': '1', 'upload-metadata': 'kind aW1hZ2U=' },
    });
    expect(deferred).toBeApiError(400, /Upload-Length/);
    expect(await unfinished(teacher)).toBe(0);
  });
});

describe('limits of resumable uploads', () => {
  it('refuses a file over the size limit at creation (413)', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    expect(
      await tusClient(t, teacher.token).create(LIMIT + 1, toArtifact(portfolio.id, artifact.id, 'video', 'a.mp4')),
    ).toBeApiError(413, 'This file is too large. Files can be at most 6 MB.');
  });

  it('reserves the quota at creation and gives it back on termination', async () => {
    const { teacher, portfolio, artifact, base } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const meta = toArtifact(portfolio.id, artifact.id, 'video', 'a.mp4');
    const first = uploadIdOf(await tus.create(LIMIT, meta));
    // 6 MB reserved of 10: another 6 MB does not fit, neither as tus nor as multipart.
    expect(await tus.create(LIMIT, meta)).toBeApiError(413, /storage limit/);
    const big = multipart(
      'file',
      'b.png',
      Buffer.concat([await pngImage(100, 100), Buffer.alloc(5 * 1024 * 1024)]),
      'image/png',
    );
    expect(await upload(t, teacher.token, `${base}/images`, big)).toBeApiError(413, /storage limit/);
    const done = await tus.terminate(first);
    expect(done).toHaveStatus(204);
    expect(statusOf(await tus.head(first))).toBe(404);
    uploadIdOf(await tus.create(LIMIT, meta));
  });

  it('allows a bounded number of unfinished uploads per person', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const meta = toArtifact(portfolio.id, artifact.id, 'document', 'notes.pdf');
    for (let i = 0; i < 20; i += 1) uploadIdOf(await tus.create(10, meta));
    expect(await tus.create(10, meta)).toBeApiError(429, RESUMABLE_MESSAGES.tooMany);
  });
});

describe('abandoned resumable uploads', () => {
  it('expire a day after their last byte: the housekeeping deletes their bytes and gives the quota back', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const png = await pngImage(400, 300);
    const id = uploadIdOf(await tus.create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')));
    t.clock.advance(RESUMABLE_EXPIRES_AFTER_MS - 60_000);
    // A byte more: a day from now again.
    expect(await tus.patch(id, 0, png.subarray(0, 10))).toHaveStatus(204);
    t.clock.advance(RESUMABLE_EXPIRES_AFTER_MS - 60_000);
    await t.app.services.resumableUploads.expire();
    expect((await tus.head(id)).headers['upload-offset']).toBe('10');
    expect(await partsOf(t, id)).toBeGreaterThan(0);
    expect(await unfinished(teacher)).toBe(1);
    t.clock.advance(120_000);
    expect(statusOf(await tus.head(id))).toBe(404);
    expect(await t.app.services.resumableUploads.expire()).toBeGreaterThanOrEqual(1);
    expect(await unfinished(teacher)).toBe(0);
    await expect(t.app.services.resumableUploads.owned(teacher.user, id)).rejects.toThrow(RESUMABLE_MESSAGES.notFound);
    // Its bytes are gone from the store too.
    expect(await partsOf(t, id)).toBe(0);
  });
});
