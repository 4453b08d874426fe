import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SharedArtifactMediaResponseSchema } from '#schemas/sharedArtifact';
import {
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  snapshot,
  uploadedFiles,
  type TestUser,
} from '../../test/factories.ts';
import { ffmpegVideo, ffmpegWebm, ftypThenHtml, mp4Header, multipart, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { FFMPEG_CPU_SECONDS, FFMPEG_MEMORY_KIB, VIDEO_MESSAGES } from '../media/videoTools.ts';
import { mediaKit, upload, fetchFile, media, settledVideo } from '../../test/fixtures/media.ts';

const t = await buildTestApp({ ffmpegPath: '/usr/bin/ffmpeg' });
const { ownArtifact } = mediaKit(t);

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
    const video = media(
      await upload(
        probed,
        teacher.token,
        `${base}/videos`,
        multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4'),
      ),
    );
    expect(video).toMatchObject({ mime: 'video/mp4', formats: null });
    expect(readFileSync(path.join(probeDir, 'limits'), 'utf8').trim()).toBe(
      `${FFMPEG_MEMORY_KIB} ${FFMPEG_CPU_SECONDS}`,
    );
  });

  it('are stored without formats when ffmpeg is missing', async () => {
    const { teacher, base } = await ownArtifact(noFfmpeg);
    const video = media(
      await upload(
        noFfmpeg,
        teacher.token,
        `${base}/videos`,
        multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4'),
      ),
    );
    expect(video).toMatchObject({
      mime: 'video/mp4',
      ext: '.mp4',
      caption: 'A',
      formats: null,
      width: null,
      height: null,
    });
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
      [
        `/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}/videos`,
        multipart('myFile', 'clip.mp4', ftypThenHtml(), 'application/octet-stream'),
      ],
    ] as const;
    for (const [url, body] of attempts)
      expect(await upload(t, teacher.token, url, body), url).toBeApiError(400, VIDEO_MESSAGES.unreadable);
    expect(await snapshot(t)).toEqual(before);
    expect((await uploadedFiles(t)).filter((f) => f.startsWith('.incoming/'))).toEqual([]);
  });

  it('accept a real MP4 and a real WebM, on a personal artifact and through the mobile apps’ form on a shared one', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const mp4 = media(
      await upload(t, teacher.token, `${base}/videos`, multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4')),
    );
    expect(mp4).toMatchObject({ mime: 'video/mp4', ext: '.mp4' });
    const webm = media(
      await upload(t, teacher.token, `${base}/videos`, multipart('file', 'lesson.webm', ffmpegWebm(), 'video/webm')),
    );
    expect(webm).toMatchObject({ mime: 'video/webm', ext: '.webm' });
    // Their picture sizes come with their posters, made from the stored videos after the answer.
    expect(await settledVideo(t, teacher.token, artifact.id, mp4.id)).toMatchObject({ width: 320, height: 240 });
    expect(await settledVideo(t, teacher.token, artifact.id, webm.id)).toMatchObject({ width: 160, height: 120 });
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { members: [teacher] });
    const sa = await createSharedArtifact(t, sp, teacher);
    const shared = await upload(
      t,
      teacher.token,
      `/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}/videos`,
      multipart('myFile', 'lesson.mp4', ffmpegVideo(), 'application/octet-stream'),
    );
    expect(shared).toHaveStatus(200);
    expect(SharedArtifactMediaResponseSchema.parse(shared.json())).toMatchObject({
      mime: 'video/mp4',
      parentSharedArtifact: { id: sa.id },
    });
  });

  it('are refused with a clear 503 when the server has no ffprobe to check them, storing nothing', async () => {
    const { teacher, base } = await ownArtifact(noFfprobe);
    const before = await snapshot(noFfprobe);
    expect(
      await upload(
        noFfprobe,
        teacher.token,
        `${base}/videos`,
        multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4'),
      ),
    ).toBeApiError(503, VIDEO_MESSAGES.unavailable);
    expect(await snapshot(noFfprobe)).toEqual(before);
    // Images and documents do not need it.
    expect(
      await upload(
        noFfprobe,
        teacher.token,
        `${base}/documents`,
        multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4'),
      ),
    ).toHaveStatus(200);
  });

  it('get a poster frame in every format with Debian’s ffmpeg', async () => {
    expect(existsSync('/usr/bin/ffmpeg'), 'Debian’s ffmpeg is needed for video posters (apt-get install ffmpeg)').toBe(
      true,
    );
    const { teacher, artifact, base } = await ownArtifact();
    const uploaded = media(
      await upload(t, teacher.token, `${base}/videos`, multipart('file', 'lesson.mp4', ffmpegVideo(), 'video/mp4')),
    );
    // The answer comes before the poster, which a job makes from the stored video.
    expect(uploaded).toMatchObject({ mime: 'video/mp4', formats: null });
    expect(uploaded.duration).toBeGreaterThan(0);
    const video = await settledVideo(t, teacher.token, artifact.id, uploaded.id);
    expect(video).toMatchObject({ mime: 'video/mp4', width: 320, height: 240 });
    expect(video.formats!.thumbnail).toMatchObject({ mime: 'image/jpeg', width: 208, height: 156 });
    expect(Object.keys(video.formats!).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    const poster = await fetchFile(t, video.formats!.thumbnail!.url);
    expect(poster).toHaveStatus(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect((await uploadedFiles(t)).some((f) => f.endsWith('-poster.png'))).toBe(false);
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
    for (const url of [
      `/portfolios/${a.id}/artifacts/${inB.id}/images`,
      `/portfolios/${a.id}/artifacts/${theirs.id}/images`,
      `/portfolios/1/artifacts/${theirs.id}/images`,
    ]) {
      expect(await upload(t, teacher.token, url, multipart('file', 'x.png', png))).toBeApiError(
        404,
        'Artifact not found.',
      );
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses researchers (403) before reading the file', async () => {
    const { base } = await ownArtifact();
    const researcher: TestUser = await createResearcher(t);
    const before = await snapshot(t);
    expect(
      await upload(t, researcher.token, `${base}/images`, multipart('file', 'x.png', await pngImage(20, 20))),
    ).toBeApiError(403, 'Researchers can read teacher portfolios but not change them.');
    expect(await snapshot(t)).toEqual(before);
  });
});
