import { describe, expect, it } from 'vitest';
import { captionLetters, type Media } from '#schemas/media';
import { countRows, snapshot, uploadedFiles } from '../../test/factories.ts';
import {
  ffmpegVideo,
  heicHeader,
  htmlPage,
  jpegImage,
  mp4Header,
  multipart,
  multipartParts,
  pdfDocument,
  pngImage,
  svgImage,
} from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import {
  mediaKit,
  IMAGE_HINT,
  VIDEO_HINT,
  NO_FILE,
  type Kind,
  upload,
  fetchFile,
  CAPABILITY,
  isStored,
  filesOf,
  media,
} from '../../test/fixtures/media.ts';

const t = await buildTestApp({ ffmpegPath: '/usr/bin/ffmpeg' });
const { ownArtifact } = mediaKit(t);

describe('uploading images', () => {
  it('stores a PNG with its caption letter and thumbnail, small, medium and large formats, all served', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const file = media(
      await upload(
        t,
        teacher.token,
        `${base}/images`,
        multipart('file', 'class photo.png', await pngImage(1600, 1200), 'image/png'),
      ),
    );
    expect(file).toMatchObject({
      name: 'class photo.png',
      caption: 'A',
      mime: 'image/png',
      ext: '.png',
      width: 1600,
      height: 1200,
      provider: 'local',
    });
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
    for (const url of filesOf(file)) expect(await isStored(t, url)).toBe(true);
  });

  it('stores a JPEG and never enlarges a small image', async () => {
    const { teacher, base } = await ownArtifact();
    const big = media(
      await upload(
        t,
        teacher.token,
        `${base}/images`,
        multipart('file', 'ramp.jpg', await jpegImage(2000, 1500), 'image/jpeg'),
      ),
    );
    expect(big).toMatchObject({ mime: 'image/jpeg', ext: '.jpg', width: 2000, height: 1500, caption: 'A' });
    expect(big.formats!.large).toMatchObject({ width: 1000, height: 750 });
    const small = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'icon.jpeg', await jpegImage(100, 80))),
    );
    expect(small.caption).toBe('B');
    expect(small.formats!.large).toMatchObject({ width: 100, height: 80 });
    expect(small.formats!.thumbnail).toMatchObject({ width: 100, height: 80 });
  });

  it('gives an iPhone HEIC photo it cannot decode its three formats all the same (a neutral preview; the mobile apps read all three)', async () => {
    const { teacher, base } = await ownArtifact();
    const file = media(
      await upload(t, teacher.token, `${base}/images`, multipart('myFile', 'IMG_0001.HEIC', heicHeader())),
    );
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
    expect(
      media(await upload(t, teacher.token, `${base}/images`, multipart('myFile', 'phone.png', await pngImage(50, 50))))
        .caption,
    ).toBe('A');
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
    expect(await upload(t, teacher.token, `${base}/${kind}`, multipart('file', name, await make()))).toBeApiError(
      400,
      message,
    );
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
        expect(res).toBeApiError(
          400,
          /^This file is (of an unknown type|of type [a-z/+.-]+), not an? (image|video|document)\. Upload /,
        );
      }
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('serves a PDF (read as one from its bytes) inline as application/pdf under a sandbox policy; a PDF named file of another type stays a download', async () => {
    const { teacher, base } = await ownArtifact();
    const pdf = media(
      await upload(
        t,
        teacher.token,
        `${base}/documents`,
        multipart('file', 'plan.pdf', pdfDocument(), 'application/octet-stream'),
      ),
    );
    const served = await fetchFile(t, pdf.url);
    expect(served).toHaveStatus(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe('inline; filename="plan.pdf"');
    expect(served.headers['content-security-policy']).toBe('sandbox');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const fake = media(
      await upload(t, teacher.token, `${base}/documents`, multipart('file', 'fake.pdf', htmlPage(), 'application/pdf')),
    );
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
      [
        Buffer.from([0x00, 0x01, 0x02, 0xff, 0x10, 0x20]),
        'class discussion.m4a',
        { mime: 'application/octet-stream', ext: '.m4a' },
      ],
      [Buffer.from('just some words'), 'notes.exe', { mime: 'application/octet-stream', ext: '.exe' }],
      [Buffer.from('PK\u0003\u0004 iWork bundle'), 'Lesson.pages', { mime: 'application/octet-stream', ext: '.pages' }],
      [Buffer.from('no extension at all'), 'README', { mime: 'application/octet-stream', ext: '.bin' }],
      [svgImage(), 'drawing.svg', { mime: 'application/octet-stream', ext: '.svg' }],
      [htmlPage(), 'page.html', { mime: 'application/octet-stream', ext: '.html' }],
    ];
    for (const [content, name, expected] of cases) {
      const file = media(
        await upload(
          t,
          teacher.token,
          `${base}/documents`,
          multipart('file', name, await content, 'application/octet-stream'),
        ),
      );
      expect(file, name).toMatchObject({
        name,
        ...(expected.mime === 'application/octet-stream' ? { ext: expected.ext } : expected),
      });
      const served = await fetchFile(t, file.url);
      expect(served).toHaveStatus(200);
      if (name === 'plan.pdf') continue; // a PDF opens in the viewer (next test)
      expect(served.headers['content-type'], name).toBe('application/octet-stream');
      expect(served.headers['content-disposition']).toBe(
        `attachment; filename="${name}"${name.includes(' ') ? `; filename*=UTF-8''${encodeURIComponent(name)}` : ''}`,
      );
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toContain('sandbox');
      expect(Buffer.compare(served.rawPayload, await content)).toBe(0);
    }
  });

  it('refuses an empty file: "You cannot upload an empty file."', async () => {
    const { teacher, base } = await ownArtifact();
    const before = await snapshot(t);
    for (const kind of ['images', 'videos', 'documents'] as const) {
      expect(
        await upload(t, teacher.token, `${base}/${kind}`, multipart('file', 'empty.png', Buffer.alloc(0))),
      ).toBeApiError(400, 'You cannot upload an empty file.');
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
      await post(
        multipartParts([
          { field: 'file', filename: 'a.png', content: png },
          { field: 'file', filename: 'b.png', content: png },
        ]),
      ),
    ).toBeApiError(400, 'Send one file per request.');
    expect(await post({ payload: { file: png.toString('base64') } })).toBeApiError(400, NO_FILE);
    expect(await post({})).toBeApiError(400, NO_FILE);
    expect(
      await post({ payload: 'garbage', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } }),
    ).toBeApiError(400, 'The upload could not be read. Please send the file again.');
    expect(await post({ payload: 'garbage', headers: { 'content-type': 'multipart/form-data' } })).toBeApiError(
      400,
      'The upload could not be read. Please send the file again.',
    );
    const cut = multipart('file', 'a.png', png);
    expect(await post({ ...cut, payload: cut.payload.subarray(0, cut.payload.length - 40) })).toBeApiError(
      400,
      'The upload could not be read. Please send the file again.',
    );
    expect(
      await t.api({ method: 'POST', url: `${base}/audio`, token: teacher.token, ...multipart('file', 'a.png', png) }),
    ).toBeApiError(400, 'kind must be one of: "images", "videos", "documents".');
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
      [
        'documents',
        Buffer.concat([pdfDocument(), Buffer.alloc(4096 - pdfDocument().length + 1, 0x20)]),
        'just-over.pdf',
      ],
    ] as const) {
      expect(await upload(small, teacher.token, `${base}/${kind}`, multipart('file', name, content))).toBeApiError(
        413,
        'This file is too large. Files can be at most 4 KB.',
      );
    }
    expect(await snapshot(small)).toEqual(before);
    expect(await uploadedFiles(small)).toEqual([]);
    expect(await countRows(small, 'media_files')).toBe(0);
    expect(await countRows(small, 'pending_uploads')).toBe(0);
    const exactly = Buffer.concat([pdfDocument(), Buffer.alloc(4096 - pdfDocument().length, 0x20)]);
    expect(
      media(await upload(small, teacher.token, `${base}/documents`, multipart('file', 'fits.pdf', exactly))).caption,
    ).toBe('A');
  });
});

describe('caption letters', () => {
  it('gives 30 simultaneous uploads to one artifact the letters A … AD, each once, without gaps (the 27th is AA)', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        upload(t, teacher.token, `${base}/documents`, multipart('file', `page-${i}.pdf`, pdfDocument())),
      ),
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
    const a = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(10, 10))),
    );
    const b = media(await upload(t, teacher.token, `${base}/documents`, multipart('file', 'b.pdf', pdfDocument())));
    expect(await t.api({ method: 'DELETE', url: `${base}/documents/${b.id}`, token: teacher.token })).toHaveStatus(200);
    const c = media(await upload(t, teacher.token, `${base}/videos`, multipart('file', 'c.mp4', ffmpegVideo())));
    expect([a.caption, b.caption, c.caption]).toEqual(['A', 'B', 'C']);
  });
});
