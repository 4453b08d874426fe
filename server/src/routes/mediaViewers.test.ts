import { describe, expect, it } from 'vitest';
import { createTeacher } from '../../test/factories.ts';
import { ffmpegVideo, multipart, pdfDocument, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { mediaKit, upload, fetchFile, addressFor, CAPABILITY, media } from '../../test/fixtures/media.ts';

const t = await buildTestApp({ ffmpegPath: '/usr/bin/ffmpeg' });
const { ownArtifact } = mediaKit(t);

describe('viewer pages (the mobile apps open `/images<url>.html` and `/videos<url>.html`)', () => {
  it('show the image or play the video, named, readable on a phone, with a way to download', async () => {
    const { teacher, base } = await ownArtifact();
    const image = media(
      await upload(
        t,
        teacher.token,
        `${base}/images`,
        multipart('myFile', "<Ramp> & 'race'.png", await pngImage(1600, 1200), 'application/octet-stream'),
      ),
    );
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

    const video = media(
      await upload(
        t,
        teacher.token,
        `${base}/videos`,
        multipart('myFile', 'race.mp4', ffmpegVideo(), 'application/octet-stream'),
      ),
    );
    const player = await fetchFile(t, `/videos${video.url}.html`);
    expect(player).toHaveStatus(200);
    expect(player.body).toContain('<h1>race.mp4</h1>');
    expect(player.body).toContain(`<video controls playsinline preload="metadata" src="/api/v1${video.url}"`);
  });

  it('answer a browser a page that tells nothing for a wrong kind, a bad or expired capability, or a missing .html', async () => {
    const { teacher, base } = await ownArtifact();
    const image = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(30, 20))),
    );
    const doc = media(
      await upload(t, teacher.token, `${base}/documents`, multipart('file', 'plan.pdf', pdfDocument())),
    );
    const stranger = await createTeacher(t);
    for (const url of [
      `/videos${image.url}.html`,
      `/images${doc.url}.html`,
      `/images${image.url}`,
      `/images${addressFor(t, stranger, image.url)}.html`,
      `/images${image.url.replace(/\/uploads\/[^/]+/, '/uploads/x.y.zzzzzzzzzzzzzzzzzzzzzz')}.html`,
    ]) {
      // Any other client than a browser gets the API's error.
      expect(await fetchFile(t, url), url).toBeApiError(404, 'File not found.');
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1${url}`,
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('This file is not available');
      expect(res.body).not.toContain('a.png');
    }
  });
});

describe("the portal's viewer opened from a bare link (`/viewer-files/{capability}/{name}`)", () => {
  it("names the file as uploaded and gives the way back to the holder's artifact, without a session", async () => {
    const { teacher, portfolio, artifact, base } = await ownArtifact();
    expect(
      await t.api({
        method: 'PUT',
        url: `/artifacts/${artifact.id}`,
        token: teacher.token,
        payload: { responses: { artifactName: 'Ramp races' }, parkingLot: true },
      }),
    ).toHaveStatus(200);
    const image = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'ramp-setup.png', await pngImage(40, 30))),
    );
    const about = await fetchFile(t, image.url.replace(/^\/uploads\//, '/viewer-files/'));
    expect(about).toHaveStatus(200);
    expect(about.headers['cache-control']).toBe('private, no-store');
    expect(about.json()).toEqual({
      name: 'ramp-setup.png',
      alt: '',
      artifact: { kind: 'personal', id: artifact.id, portfolioId: portfolio.id, title: 'Ramp races' },
    });
  });

  it("tells nothing for a format, another holder's address or a bad capability", async () => {
    const { teacher, base } = await ownArtifact();
    const image = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(1600, 1200))),
    );
    const stranger = await createTeacher(t);
    const about = (url: string) => url.replace(/^\/uploads\//, '/viewer-files/');
    for (const url of [
      about(image.formats!.large!.url),
      about(addressFor(t, stranger, image.url)),
      about(image.url).replace(/viewer-files\/[^/]+/, 'viewer-files/x.y.zzzzzzzzzzzzzzzzzzzzzz'),
    ]) {
      expect(await fetchFile(t, url), url).toBeApiError(404, 'File not found.');
    }
  });
});
