import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { captionLetters, type Media } from '#schemas/media';
import { SharedArtifactMediaResponseSchema } from '#schemas/sharedArtifact';
import {
  countRows,
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  removeMember,
  snapshot,
  uploadedFiles,
  type TestUser,
} from '../../test/factories.ts';
import { ffmpegVideo, ffmpegWebm, ftypThenHtml, heicHeader, htmlPage, jpegImage, mp4Header, multipart, multipartParts, pdfDocument, pngImage, svgImage } from '../../test/files.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { MediaCapabilities } from '../media/capabilities.ts';
import { FFMPEG_CPU_SECONDS, FFMPEG_MEMORY_KIB, VIDEO_MESSAGES } from '../media/videoTools.ts';

const t = await buildTestApp({ ffmpegPath: '/usr/bin/ffmpeg' });

const IMAGE_HINT = 'Upload photos as JPEG, PNG, GIF, WebP or HEIC.';
const VIDEO_HINT = 'Upload videos as MP4, MOV, WebM or another common video format.';
const NO_FILE = 'Send the file as multipart/form-data in a field named "file".';

type Kind = 'images' | 'videos' | 'documents';

/** A teacher with a parking-lot artifact in a portfolio. */
async function ownArtifact(app: TestApp = t) {
  const teacher = await createTeacher(app);
  const portfolio = await createPortfolio(app, teacher);
  const artifact = await createArtifact(app, portfolio);
  return { teacher, portfolio, artifact, base: `/portfolios/${portfolio.id}/artifacts/${artifact.id}` };
}

const upload = (app: TestApp, token: string, url: string, body: ReturnType<typeof multipart>) => app.api({ method: 'POST', url, token, ...body });

/** Fetches a served file (`url` as the API answers it, relative to /api/v1), without any credentials: the address is the capability. */
const fetchFile = (app: TestApp, url: string) => app.app.inject({ method: 'GET', url: `/api/v1${url}` });

/** The same file's address as the API gives it to `who`. */
const addressFor = (app: TestApp, who: TestUser, url: string) => app.app.services.media.signFor(who.user.id)(url);

/** A capability: the user and expiry in base 36, then a 22-character signature. */
const CAPABILITY = '[0-9a-z]+\\.[0-9a-z]+\\.[A-Za-z0-9_-]{22}';
const fileNameOf = (url: string) => url.split('/').pop()!;
const onDisk = (app: TestApp, url: string) => existsSync(path.join(app.config.dataDir, 'uploads', fileNameOf(url)));

/** The file names an uploaded medium occupies on disk (original and formats). */
const filesOf = (m: Media) => [m.url, ...Object.values(m.formats ?? {}).map((f) => f!.url)];

function media(res: LightMyRequestResponse) {
  expect(res).toHaveStatus(200);
  return ArtifactMediaResponseSchema.parse(res.json());
}

describe('uploading images', () => {
  it('stores a PNG with its caption letter and thumbnail, small, medium and large formats, all served', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const file = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'class photo.png', await pngImage(1600, 1200), 'image/png')));
    expect(file).toMatchObject({ name: 'class photo.png', caption: 'A', mime: 'image/png', ext: '.png', width: 1600, height: 1200, provider: 'local' });
    expect(file.url).toMatch(new RegExp(`^/uploads/${CAPABILITY}/[A-Za-z0-9_-]{24}\\.png$`));
    expect(file.size).toBeGreaterThan(0);
    const boxes = { thumbnail: [245, 156], small: [500, 500], medium: [750, 750], large: [1000, 1000] } as const;
    for (const [format, [w, h]] of Object.entries(boxes)) {
      const f = file.formats![format as keyof typeof boxes]!;
      expect(f.url).toMatch(new RegExp(`^/uploads/${CAPABILITY}/${format}_${file.hash}\\.jpg$`));
      expect(f.mime).toBe('image/jpeg');
      expect(f.width <= w && f.height <= h && (f.width === w || f.height === h)).toBe(true);
      const served = await fetchFile(t, f.url);
      expect(served).toHaveStatus(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
    }
    const original = await fetchFile(t, file.url);
    expect(original).toHaveStatus(200);
    expect(original.headers['content-type']).toBe('image/png');
    expect(original.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(file.parentArtifact).toMatchObject({ id: artifact.id, nextCaption: 'B' });
    expect(file.parentArtifact.images.map((m) => m.id)).toEqual([file.id]);
    expect(Date.parse(file.parentArtifact.updated_at)).toBeGreaterThan(Date.parse(artifact.updated_at));
    for (const url of filesOf(file)) expect(onDisk(t, url)).toBe(true);
  });

  it('stores a JPEG and never enlarges a small image', async () => {
    const { teacher, base } = await ownArtifact();
    const big = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'ramp.jpg', await jpegImage(2000, 1500), 'image/jpeg')));
    expect(big).toMatchObject({ mime: 'image/jpeg', ext: '.jpg', width: 2000, height: 1500, caption: 'A' });
    expect(big.formats!.large).toMatchObject({ width: 1000, height: 750 });
    const small = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'icon.jpeg', await jpegImage(100, 80))));
    expect(small.caption).toBe('B');
    expect(small.formats!.large).toMatchObject({ width: 100, height: 80 });
    expect(small.formats!.thumbnail).toMatchObject({ width: 100, height: 80 });
  });

  it('gives an iPhone HEIC photo it cannot decode its three formats all the same (a neutral preview; the mobile apps read all three)', async () => {
    const { teacher, base } = await ownArtifact();
    const file = media(await upload(t, teacher.token, `${base}/images`, multipart('myFile', 'IMG_0001.HEIC', heicHeader())));
    expect(file).toMatchObject({ mime: 'image/heic', ext: '.heic', name: 'IMG_0001.HEIC' });
    for (const format of ['thumbnail', 'medium', 'large'] as const) {
      const served = await fetchFile(t, file.formats![format]!.url);
      expect(served, format).toHaveStatus(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
    }
    expect(await fetchFile(t, file.url)).toHaveStatus(200);
  });

  it('takes the file from any field name (the mobile apps send "myFile")', async () => {
    const { teacher, base } = await ownArtifact();
    expect(media(await upload(t, teacher.token, `${base}/images`, multipart('myFile', 'phone.png', await pngImage(50, 50)))).caption).toBe('A');
  });
});

describe('what is refused', () => {
  const WRONG: [Kind, () => Buffer | Promise<Buffer>, string, string][] = [
    ['images', pdfDocument, 'worksheet.pdf', `This file is of type application/pdf, not an image. ${IMAGE_HINT}`],
    ['images', mp4Header, 'clip.png', `This file is a video, not an image. ${IMAGE_HINT}`],
    ['videos', () => pngImage(20, 20), 'clip.mp4', `This file is an image, not a video. ${VIDEO_HINT}`],
    ['videos', pdfDocument, 'clip.mp4', `This file is of type application/pdf, not a video. ${VIDEO_HINT}`],
  ];

  it.each(WRONG)('a file whose bytes are not of the kind: %s ← %s', async (kind, make, name, message) => {
    const { teacher, base } = await ownArtifact();
    const before = await snapshot(t);
    expect(await upload(t, teacher.token, `${base}/${kind}`, multipart('file', name, await make()))).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses SVG and HTML files as images and videos, whatever their declared type or name', async () => {
    const { teacher, base } = await ownArtifact();
    const before = await snapshot(t);
    const attempts: [Buffer, string, string][] = [
      [svgImage(), 'drawing.svg', 'image/svg+xml'],
      [svgImage(), 'drawing.png', 'image/png'],
      [svgImage(), 'drawing.txt', 'text/plain'],
      [htmlPage(), 'page.html', 'text/html'],
      [htmlPage(), 'page.htm', 'text/html'],
      [htmlPage(), 'page.pdf', 'application/pdf'],
    ];
    for (const kind of ['images', 'videos'] as const) {
      for (const [content, name, type] of attempts) {
        const res = await upload(t, teacher.token, `${base}/${kind}`, multipart('file', name, content, type));
        expect(res.statusCode, `${kind} ${name}: ${res.body}`).toBe(400);
        expect(res).toBeApiError(400, /^This file is (of an unknown type|of type [a-z/+.-]+), not an? (image|video|document)\. Upload /);
      }
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('serves a PDF (read as one from its bytes) inline as application/pdf under a sandbox policy; a PDF named file of another type stays a download', async () => {
    const { teacher, base } = await ownArtifact();
    const pdf = media(await upload(t, teacher.token, `${base}/documents`, multipart('file', 'plan.pdf', pdfDocument(), 'application/octet-stream')));
    const served = await fetchFile(t, pdf.url);
    expect(served).toHaveStatus(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe(`inline; filename*=UTF-8''plan.pdf`);
    expect(served.headers['content-security-policy']).toBe('sandbox');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const fake = media(await upload(t, teacher.token, `${base}/documents`, multipart('file', 'fake.pdf', htmlPage(), 'application/pdf')));
    const download = await fetchFile(t, fake.url);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('keeps documents of any type (as the mobile apps’ picker allows) and serves each only as a download with a neutral type', async () => {
    const { teacher, base } = await ownArtifact();
    const cases: [Buffer | Promise<Buffer>, string, { mime: string; ext: string }][] = [
      [htmlPage(), 'notes.txt', { mime: 'text/plain; charset=utf-8', ext: '.txt' }],
      [pdfDocument(), 'plan.pdf', { mime: 'application/pdf', ext: '.pdf' }],
      [pngImage(20, 20), 'scan from Files.png', { mime: 'image/png', ext: '.png' }],
      [Buffer.from([0x00, 0x01, 0x02, 0xff, 0x10, 0x20]), 'class discussion.m4a', { mime: 'application/octet-stream', ext: '.m4a' }],
      [Buffer.from('just some words'), 'notes.exe', { mime: 'application/octet-stream', ext: '.exe' }],
      [Buffer.from('PK\u0003\u0004 iWork bundle'), 'Lesson.pages', { mime: 'application/octet-stream', ext: '.pages' }],
      [Buffer.from('no extension at all'), 'README', { mime: 'application/octet-stream', ext: '.bin' }],
      [svgImage(), 'drawing.svg', { mime: 'application/octet-stream', ext: '.svg' }],
      [htmlPage(), 'page.html', { mime: 'application/octet-stream', ext: '.html' }],
    ];
    for (const [content, name, expected] of cases) {
      const file = media(await upload(t, teacher.token, `${base}/documents`, multipart('file', name, await content, 'application/octet-stream')));
      expect(file, name).toMatchObject({ name, ...(expected.mime === 'application/octet-stream' ? { ext: expected.ext } : expected) });
      const served = await fetchFile(t, file.url);
      expect(served).toHaveStatus(200);
      if (name === 'plan.pdf') continue; // a PDF opens in the viewer (next test)
      expect(served.headers['content-type'], name).toBe('application/octet-stream');
      expect(served.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toContain('sandbox');
      expect(Buffer.compare(served.rawPayload, await content)).toBe(0);
    }
  });

  it('refuses an empty file: "You cannot upload an empty file."', async () => {
    const { teacher, base } = await ownArtifact();
    const before = await snapshot(t);
    for (const kind of ['images', 'videos', 'documents'] as const) {
      expect(await upload(t, teacher.token, `${base}/${kind}`, multipart('file', 'empty.png', Buffer.alloc(0)))).toBeApiError(400, 'You cannot upload an empty file.');
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('answers malformed uploads with a clear 4xx and stores nothing', async () => {
    const { teacher, base } = await ownArtifact();
    const png = await pngImage(20, 20);
    const before = await snapshot(t);
    const post = (extra: object) => t.api({ method: 'POST', url: `${base}/images`, token: teacher.token, ...extra });
    expect(await post(multipartParts([{ field: 'caption', value: 'no file here' }]))).toBeApiError(400, NO_FILE);
    expect(await post(multipartParts([]))).toBeApiError(400, NO_FILE);
    expect(
      await post(multipartParts([
        { field: 'file', filename: 'a.png', content: png },
        { field: 'file', filename: 'b.png', content: png },
      ])),
    ).toBeApiError(400, 'Send one file per request.');
    expect(await post({ payload: { file: png.toString('base64') } })).toBeApiError(400, NO_FILE);
    expect(await post({})).toBeApiError(400, NO_FILE);
    expect(await post({ payload: 'garbage', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } })).toBeApiError(
      400,
      'The upload could not be read. Please send the file again.',
    );
    expect(await post({ payload: 'garbage', headers: { 'content-type': 'multipart/form-data' } })).toBeApiError(
      400,
      'The upload could not be read. Please send the file again.',
    );
    const cut = multipart('file', 'a.png', png);
    expect(await post({ ...cut, payload: cut.payload.subarray(0, cut.payload.length - 40) })).toBeApiError(
      400,
      'The upload could not be read. Please send the file again.',
    );
    expect(await t.api({ method: 'POST', url: `${base}/audio`, token: teacher.token, ...multipart('file', 'a.png', png) })).toBeApiError(
      400,
      'kind must be one of: "images", "videos", "documents".',
    );
    expect(await snapshot(t)).toEqual(before);
    // The artifact's letters were not used up by the failures.
    expect(media(await post(multipart('file', 'a.png', png))).caption).toBe('A');
  });
});

describe('the size limit', async () => {
  const small = await buildTestApp({ uploadLimitBytes: 4096 });

  it('answers 413 for a file over UPLOAD_LIMIT_BYTES and leaves no file and no row', async () => {
    const { teacher, base } = await ownArtifact(small);
    const before = await snapshot(small);
    const huge = Buffer.concat([pdfDocument(), Buffer.alloc(200_000, 0x20)]);
    for (const [kind, content, name] of [
      ['documents', huge, 'big.pdf'],
      ['images', await pngImage(800, 800), 'big.png'],
      ['documents', Buffer.concat([pdfDocument(), Buffer.alloc(4096 - pdfDocument().length + 1, 0x20)]), 'just-over.pdf'],
    ] as const) {
      expect(await upload(small, teacher.token, `${base}/${kind}`, multipart('file', name, content))).toBeApiError(
        413,
        'This file is too large. Files can be at most 4 KB.',
      );
    }
    expect(await snapshot(small)).toEqual(before);
    expect(uploadedFiles(small)).toEqual([]);
    expect(await countRows(small, 'media_files')).toBe(0);
    expect(await countRows(small, 'pending_uploads')).toBe(0);
    const exactly = Buffer.concat([pdfDocument(), Buffer.alloc(4096 - pdfDocument().length, 0x20)]);
    expect(media(await upload(small, teacher.token, `${base}/documents`, multipart('file', 'fits.pdf', exactly))).caption).toBe('A');
  });
});

describe('caption letters', () => {
  it('gives 30 simultaneous uploads to one artifact the letters A … AD, each once, without gaps (the 27th is AA)', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => upload(t, teacher.token, `${base}/documents`, multipart('file', `page-${i}.pdf`, pdfDocument()))),
    );
    const captions = results.map((r) => media(r).caption);
    const expected = Array.from({ length: 30 }, (_, i) => captionLetters(i));
    expect(expected[26]).toBe('AA');
    expect([...captions].sort()).toEqual([...expected].sort());
    const stored = (await t.api({ method: 'GET', url: `/artifacts/${artifact.id}`, token: teacher.token })).json();
    expect(stored.documents.map((d: Media) => d.caption)).toEqual(expected);
    expect(stored.nextCaption).toBe('AE');
  });

  it('continues one sequence across images, videos and documents, and never reuses a deleted letter', async () => {
    const { teacher, base } = await ownArtifact();
    const a = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(10, 10))));
    const b = media(await upload(t, teacher.token, `${base}/documents`, multipart('file', 'b.pdf', pdfDocument())));
    expect(await t.api({ method: 'DELETE', url: `${base}/documents/${b.id}`, token: teacher.token })).toHaveStatus(200);
    const c = media(await upload(t, teacher.token, `${base}/videos`, multipart('file', 'c.mp4', ffmpegVideo())));
    expect([a.caption, b.caption, c.caption]).toEqual(['A', 'B', 'C']);
  });
});

describe('deleting files', () => {
  it('removes a file only this artifact holds: its row and every file on disk', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const file = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(600, 400))));
    const keep = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'b.png', await pngImage(60, 40))));
    const res = await t.api({ method: 'DELETE', url: `${base}/images/${file.id}`, token: teacher.token });
    const answer = media(res);
    expect(answer).toMatchObject({ id: file.id, caption: 'A', url: file.url });
    expect(answer.parentArtifact.id).toBe(artifact.id);
    expect(answer.parentArtifact.images.map((m) => m.id)).toEqual([keep.id]);
    for (const url of filesOf(file)) {
      expect(onDisk(t, url)).toBe(false);
      expect(await fetchFile(t, url)).toBeApiError(404, 'File not found.');
    }
    for (const url of filesOf(keep)) expect(onDisk(t, url)).toBe(true);
    const { rows } = await t.db.query('SELECT 1 FROM media_files WHERE id = $1', [file.id]);
    expect(rows).toEqual([]);
    expect(await t.api({ method: 'DELETE', url: `${base}/images/${file.id}`, token: teacher.token })).toBeApiError(404, 'File not found.');
  });

  it('answers 404 for a file of another kind, of another artifact, or under another portfolio, changing nothing', async () => {
    const { teacher, portfolio, base } = await ownArtifact();
    const mine = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(20, 20))));
    const other = await ownArtifact();
    const theirs = media(await upload(t, other.teacher.token, `${other.base}/documents`, multipart('file', 'b.pdf', pdfDocument())));
    const myOther = await createArtifact(t, await createPortfolio(t, teacher));
    const before = await snapshot(t);
    expect(await t.api({ method: 'DELETE', url: `${base}/documents/${mine.id}`, token: teacher.token })).toBeApiError(404, 'File not found.');
    expect(await t.api({ method: 'DELETE', url: `${base}/documents/${theirs.id}`, token: teacher.token })).toBeApiError(404, 'File not found.');
    expect(await t.api({ method: 'DELETE', url: `${other.base}/documents/${theirs.id}`, token: teacher.token })).toBeApiError(404, 'Artifact not found.');
    expect(
      await t.api({ method: 'DELETE', url: `/portfolios/${portfolio.id}/artifacts/${other.artifact.id}/documents/${theirs.id}`, token: teacher.token }),
    ).toBeApiError(404, 'Artifact not found.');
    expect(
      await t.api({ method: 'DELETE', url: `/portfolios/${portfolio.id}/artifacts/${myOther.id}/images/${mine.id}`, token: teacher.token }),
    ).toBeApiError(404, 'Artifact not found.');
    expect(await t.api({ method: 'DELETE', url: `${base}/images/abc`, token: teacher.token })).toBeApiError(400, 'fileId must be a positive whole number.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('deletes the files an artifact held alone when the artifact is deleted', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const image = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(300, 300))));
    const doc = media(await upload(t, teacher.token, `${base}/documents`, multipart('file', 'b.pdf', pdfDocument())));
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: teacher.token })).toHaveStatus(200);
    for (const url of [...filesOf(image), ...filesOf(doc)]) expect(onDisk(t, url)).toBe(false);
    const { rows } = await t.db.query('SELECT 1 FROM media_files WHERE id = ANY($1::int[])', [[image.id, doc.id]]);
    expect(rows).toEqual([]);
    expect(await countRows(t, 'pending_uploads')).toBe(0);
  });

  it('keeps a file copied into a shared artifact when the personal artifact lets go of it, and serves it to members', async () => {
    const { teacher, portfolio } = await ownArtifact();
    const member = await createTeacher(t);
    const sp = await createSharedPortfolio(t, await createTeacher(t), { members: [teacher, member] });
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    const own = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;
    const image = media(await upload(t, teacher.token, `${own}/images`, multipart('file', 'shared.png', await pngImage(400, 300))));
    const copy = await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/share`, token: teacher.token, payload: { sharedPortfolioId: sp.id } });
    expect(copy).toHaveStatus(200);
    expect(copy.json().images.map((m: Media) => [m.id, m.caption])).toEqual([[image.id, 'A']]);

    expect(await t.api({ method: 'DELETE', url: `${own}/images/${image.id}`, token: teacher.token })).toHaveStatus(200);
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: teacher.token })).toHaveStatus(200);
    for (const url of filesOf(image)) {
      expect(onDisk(t, url)).toBe(true);
      expect(await fetchFile(t, addressFor(t, member, url))).toHaveStatus(200);
    }

    // The last holder lets go: now the file goes.
    expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${copy.json().id}`, token: member.token })).toHaveStatus(200);
    for (const url of filesOf(image)) expect(onDisk(t, url)).toBe(false);
  });
});

describe('who may fetch a file', () => {
  it('serves a file by the capability address the API gave its reader, without a session; others get 404', async () => {
    const { teacher, base } = await ownArtifact();
    const file = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(300, 200))));
    const researcher = await createResearcher(t);
    const stranger = await createTeacher(t);
    for (const url of filesOf(file)) {
      expect(await fetchFile(t, url)).toHaveStatus(200);
      expect(await fetchFile(t, addressFor(t, teacher, url))).toHaveStatus(200);
      expect(await fetchFile(t, addressFor(t, researcher, url))).toHaveStatus(200);
      expect(await fetchFile(t, addressFor(t, stranger, url))).toBeApiError(404, 'File not found.');
      // The bare name is no address at all, whatever credentials come with it.
      const bare = await t.app.inject({ method: 'GET', url: `/api/v1/uploads/${fileNameOf(url)}`, headers: { authorization: `Bearer ${teacher.token}`, cookie: `jwt=${teacher.token}` } });
      expect(bare).toHaveStatus(404);
    }
    const served = await fetchFile(t, file.url);
    expect(served.headers['content-disposition']).toBe("inline; filename*=UTF-8''a.png");
    expect(served.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(Number(/max-age=(\d+)/.exec(served.headers['cache-control'] as string)![1])).toBeLessThanOrEqual(3600);
  });

  it('refuses a tampered, expired, borrowed or foreign capability with a 404 that tells nothing', async () => {
    const { teacher, base } = await ownArtifact();
    const file = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(30, 20))));
    const other = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'b.png', await pngImage(30, 20))));
    const [, , capability, name] = file.url.split('/') as [string, string, string, string];
    const [user, expiry, signature] = capability.split('.') as [string, string, string];
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    const stranger = await createTeacher(t);
    const past = new MediaCapabilities(t.config.jwtSecret).sign(`/uploads/${name}`, teacher.user.id, Date.now() - 3 * 24 * 3600_000);
    const otherKey = new MediaCapabilities('another installation').sign(`/uploads/${name}`, teacher.user.id);
    const refused = [
      `/uploads/${user}.${expiry}.${flip(signature)}/${name}`,
      `/uploads/${stranger.user.id.toString(36)}.${expiry}.${signature}/${name}`,
      `/uploads/${user}.${(parseInt(expiry, 36) + 3600).toString(36)}.${signature}/${name}`,
      `/uploads/${capability}/${fileNameOf(other.url)}`,
      `/uploads/${capability}/thumbnail_${fileNameOf(other.url).replace('.png', '.jpg')}`,
      past,
      otherKey,
      `/uploads/${capability}/..%2F..%2Fpackage.json`,
      `/uploads/not-a-capability/${name}`,
    ];
    for (const url of refused) expect(await fetchFile(t, url), url).toBeApiError(404, 'File not found.');
    expect(await fetchFile(t, `/uploads/${capability}/%2E%2E`)).toHaveStatus(404);
    expect(await fetchFile(t, file.url)).toHaveStatus(200);
  });

  it('stops working at once for a reader who may no longer read the file, and for a blocked account', async () => {
    const { teacher, portfolio } = await ownArtifact();
    const member = await createTeacher(t);
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { members: [teacher, member] });
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    const image = media(await upload(t, teacher.token, `/portfolios/${portfolio.id}/artifacts/${artifact.id}/images`, multipart('file', 'shared.png', await pngImage(40, 30))));
    expect(await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/share`, token: teacher.token, payload: { sharedPortfolioId: sp.id } })).toHaveStatus(200);
    const membersAddress = addressFor(t, member, image.url);
    expect(await fetchFile(t, membersAddress)).toHaveStatus(200);
    await removeMember(t, sp, member);
    expect(await fetchFile(t, membersAddress)).toBeApiError(404, 'File not found.');

    const leadsAddress = addressFor(t, lead, image.url);
    expect(await fetchFile(t, leadsAddress)).toHaveStatus(200);
    await t.db.query('UPDATE users SET blocked = true WHERE id = $1', [lead.user.id]);
    await t.principalsHeard();
    expect(await fetchFile(t, leadsAddress)).toBeApiError(404, 'File not found.');
  });

  it('answers 404 for names that are not stored files, including path tricks', async () => {
    const { teacher, base } = await ownArtifact();
    const file = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(30, 20))));
    const capability = file.url.split('/')[2]!;
    for (const name of ['nothing.png', 'thumbnail_nothing.jpg', '..%2F..%2Fetc%2Fpasswd', '..%5Cpasswd', '.incoming', 'a.PNG', 'x'.repeat(30)]) {
      const res = await fetchFile(t, `/uploads/${capability}/${name}`);
      expect(res, name).toBeApiError(404, 'File not found.');
    }
    expect(await fetchFile(t, `/uploads/${capability}/../../package.json`)).toHaveStatus(404);
    const long = await fetchFile(t, `/uploads/${capability}/${'x'.repeat(101)}.png`);
    expect(long).toBeApiError(414, 'The address of the request is not valid.');
    expect(long.json().error).toBe('URI Too Long');
  });
});

describe('viewer pages (the mobile apps open `/images<url>.html` and `/videos<url>.html`)', () => {
  it('show the image or play the video, named, readable on a phone, with a way to download', async () => {
    const { teacher, base } = await ownArtifact();
    const image = media(await upload(t, teacher.token, `${base}/images`, multipart('myFile', "<Ramp> & 'race'.png", await pngImage(1600, 1200), 'application/octet-stream')));
    const page = await fetchFile(t, `/images${image.url}.html`);
    expect(page).toHaveStatus(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.body, page.body).toContain('<h1>&lt;Ramp&gt; &amp; &#39;race&#39;.png</h1>');
    const shown = /<img src="([^"]+)"/.exec(page.body)![1]!;
    expect(shown).toMatch(new RegExp(`^/api/v1/uploads/${CAPABILITY}/large_`));
    expect(await t.app.inject({ method: 'GET', url: shown })).toHaveStatus(200);
    const download = /<a href="([^"]+)" download>/.exec(page.body)![1]!;
    expect(download).toBe(`/api/v1${image.url}`);

    const video = media(await upload(t, teacher.token, `${base}/videos`, multipart('myFile', 'race.mp4', ffmpegVideo(), 'application/octet-stream')));
    const player = await fetchFile(t, `/videos${video.url}.html`);
    expect(player).toHaveStatus(200);
    expect(player.body).toContain('<h1>race.mp4</h1>');
    expect(player.body).toContain(`<video controls playsinline preload="metadata" src="/api/v1${video.url}"`);
  });

  it('answer a browser a page that tells nothing for a wrong kind, a bad or expired capability, or a missing .html', async () => {
    const { teacher, base } = await ownArtifact();
    const image = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(30, 20))));
    const doc = media(await upload(t, teacher.token, `${base}/documents`, multipart('file', 'plan.pdf', pdfDocument())));
    const stranger = await createTeacher(t);
    for (const url of [`/videos${image.url}.html`, `/images${doc.url}.html`, `/images${image.url}`, `/images${addressFor(t, stranger, image.url)}.html`, `/images${image.url.replace(/\/uploads\/[^/]+/, '/uploads/x.y.zzzzzzzzzzzzzzzzzzzzzz')}.html`]) {
      // Any other client than a browser gets the API's error.
      expect(await fetchFile(t, url), url).toBeApiError(404, 'File not found.');
      const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('This file is not available');
      expect(res.body).not.toContain('a.png');
    }
  });
});

describe('the portal\'s viewer opened from a bare link (`/viewer-files/{capability}/{name}`)', () => {
  it('names the file as uploaded and gives the way back to the holder\'s artifact, without a session', async () => {
    const { teacher, portfolio, artifact, base } = await ownArtifact();
    expect(await t.api({ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: { artifactName: 'Ramp races' }, parkingLot: true } })).toHaveStatus(200);
    const image = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'ramp-setup.png', await pngImage(40, 30))));
    const about = await fetchFile(t, image.url.replace(/^\/uploads\//, '/viewer-files/'));
    expect(about).toHaveStatus(200);
    expect(about.headers['cache-control']).toBe('private, no-store');
    expect(about.json()).toEqual({ name: 'ramp-setup.png', alt: '', artifact: { kind: 'personal', id: artifact.id, portfolioId: portfolio.id, title: 'Ramp races' } });
  });

  it('tells nothing for a format, another holder\'s address or a bad capability', async () => {
    const { teacher, base } = await ownArtifact();
    const image = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(1600, 1200))));
    const stranger = await createTeacher(t);
    const about = (url: string) => url.replace(/^\/uploads\//, '/viewer-files/');
    for (const url of [about(image.formats!.large!.url), about(addressFor(t, stranger, image.url)), about(image.url).replace(/viewer-files\/[^/]+/, 'viewer-files/x.y.zzzzzzzzzzzzzzzzzzzzzz')]) {
      expect(await fetchFile(t, url), url).toBeApiError(404, 'File not found.');
    }
  });
});

describe('videos', async () => {
  const noFfmpeg = await buildTestApp({ ffmpegPath: '/nonexistent' });
  // A stand-in for ffmpeg that writes down the limits it was started with, then fails.
  const probeDir = mkdtempSync(path.join(os.tmpdir(), 'pf-ffmpeg-'));
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));
  const probe = path.join(probeDir, 'ffmpeg');
  writeFileSync(probe, `#!/bin/sh\necho "$(ulimit -v) $(ulimit -t)" > "${probeDir}/limits"\nexit 1\n`, { mode: 0o700 });
  const probed = await buildTestApp({ ffmpegPath: probe });
  const noFfprobe = await buildTestApp({ ffprobePath: '/nonexistent/ffprobe' });

  it('run ffmpeg with at most 1 GiB of memory and 60 s of CPU', async () => {
    const { teacher, base } = await ownArtifact(probed);
    const video = media(await upload(probed, teacher.token, `${base}/videos`, multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4')));
    expect(video).toMatchObject({ mime: 'video/mp4', formats: null });
    expect(readFileSync(path.join(probeDir, 'limits'), 'utf8').trim()).toBe(`${FFMPEG_MEMORY_KIB} ${FFMPEG_CPU_SECONDS}`);
  });

  it('are stored without formats when ffmpeg is missing', async () => {
    const { teacher, base } = await ownArtifact(noFfmpeg);
    const video = media(await upload(noFfmpeg, teacher.token, `${base}/videos`, multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4')));
    expect(video).toMatchObject({ mime: 'video/mp4', ext: '.mp4', caption: 'A', formats: null, width: null, height: null });
    const served = await fetchFile(noFfmpeg, video.url);
    expect(served).toHaveStatus(200);
    expect(served.headers['content-type']).toBe('video/mp4');
  });

  it('refuse a file ffprobe cannot read as a video (a 24-byte ftyp box before a web page): 400, nothing stored, no quota used', async () => {
    const { teacher, base } = await ownArtifact();
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { members: [teacher] });
    const sa = await createSharedArtifact(t, sp, teacher);
    const before = await snapshot(t);
    const attempts = [
      [`${base}/videos`, multipart('file', 'clip.mp4', ftypThenHtml(), 'video/mp4')],
      [`${base}/videos`, multipart('file', 'clip.mp4', mp4Header(), 'video/mp4')],
      // The mobile apps' form (`myFile`, octet-stream) on a shared artifact gets the same answer.
      [`/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}/videos`, multipart('myFile', 'clip.mp4', ftypThenHtml(), 'application/octet-stream')],
    ] as const;
    for (const [url, body] of attempts) expect(await upload(t, teacher.token, url, body), url).toBeApiError(400, VIDEO_MESSAGES.unreadable);
    expect(await snapshot(t)).toEqual(before);
    expect(uploadedFiles(t).filter((f) => f.startsWith('.incoming/'))).toEqual([]);
  });

  it('accept a real MP4 and a real WebM, on a personal artifact and through the mobile apps’ form on a shared one', async () => {
    const { teacher, base } = await ownArtifact();
    const mp4 = media(await upload(t, teacher.token, `${base}/videos`, multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4')));
    expect(mp4).toMatchObject({ mime: 'video/mp4', ext: '.mp4', width: 320, height: 240 });
    const webm = media(await upload(t, teacher.token, `${base}/videos`, multipart('file', 'lesson.webm', ffmpegWebm(), 'video/webm')));
    expect(webm).toMatchObject({ mime: 'video/webm', ext: '.webm', width: 160, height: 120 });
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { members: [teacher] });
    const sa = await createSharedArtifact(t, sp, teacher);
    const shared = await upload(t, teacher.token, `/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}/videos`, multipart('myFile', 'lesson.mp4', ffmpegVideo(), 'application/octet-stream'));
    expect(shared).toHaveStatus(200);
    expect(SharedArtifactMediaResponseSchema.parse(shared.json())).toMatchObject({ mime: 'video/mp4', parentSharedArtifact: { id: sa.id } });
  });

  it('are refused with a clear 503 when the server has no ffprobe to check them, storing nothing', async () => {
    const { teacher, base } = await ownArtifact(noFfprobe);
    const before = await snapshot(noFfprobe);
    expect(await upload(noFfprobe, teacher.token, `${base}/videos`, multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4'))).toBeApiError(503, VIDEO_MESSAGES.unavailable);
    expect(await snapshot(noFfprobe)).toEqual(before);
    // Images and documents do not need it.
    expect(await upload(noFfprobe, teacher.token, `${base}/documents`, multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4'))).toHaveStatus(200);
  });

  it('get a poster frame in every format with Debian’s ffmpeg', async () => {
    expect(existsSync('/usr/bin/ffmpeg'), 'Debian’s ffmpeg is needed for video posters (apt-get install ffmpeg)').toBe(true);
    const { teacher, base } = await ownArtifact();
    const video = media(await upload(t, teacher.token, `${base}/videos`, multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4')));
    expect(video).toMatchObject({ mime: 'video/mp4', width: 320, height: 240 });
    expect(video.formats!.thumbnail).toMatchObject({ mime: 'image/jpeg', width: 208, height: 156 });
    expect(Object.keys(video.formats!).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    const poster = await fetchFile(t, video.formats!.thumbnail!.url);
    expect(poster).toHaveStatus(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect(uploadedFiles(t).some((f) => f.endsWith('-poster.png'))).toBe(false);
  });
});

describe('uploads go only where the path says', () => {
  it('answers 404 for an artifact of another portfolio — even the caller’s own — and for the template (no IDOR)', async () => {
    const teacher = await createTeacher(t);
    const a = await createPortfolio(t, teacher);
    const b = await createPortfolio(t, teacher);
    const inB = await createArtifact(t, b);
    const { artifact: theirs } = await ownArtifact();
    const png = await pngImage(20, 20);
    const before = await snapshot(t);
    for (const url of [`/portfolios/${a.id}/artifacts/${inB.id}/images`, `/portfolios/${a.id}/artifacts/${theirs.id}/images`, `/portfolios/1/artifacts/${theirs.id}/images`]) {
      expect(await upload(t, teacher.token, url, multipart('file', 'x.png', png))).toBeApiError(404, 'Artifact not found.');
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses researchers (403) before reading the file', async () => {
    const { base } = await ownArtifact();
    const researcher: TestUser = await createResearcher(t);
    const before = await snapshot(t);
    expect(await upload(t, researcher.token, `${base}/images`, multipart('file', 'x.png', await pngImage(20, 20)))).toBeApiError(
      403,
      'Researchers can read teacher portfolios but not change them.',
    );
    expect(await snapshot(t)).toEqual(before);
  });
});
