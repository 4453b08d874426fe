import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import {
  attachVideo,
  createArtifact,
  createLead,
  createPortfolio,
  createSharedPortfolio,
  createTeacher,
  snapshot,
} from '../../test/factories.ts';
import { htmlPage, multipart, pdfDocument, pngImage, svgImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { loadConfig } from '../config.ts';
import { createMailer } from '../mail/mailer.ts';
import { securityKit, FILE_NOT_FOUND, upload } from '../../test/fixtures/security.ts';
import { isStored } from '../../test/fixtures/media.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * media: private and safe files, file modes, per-person write limits and quota, caption tracks: one
 * test per item proves that our server does not have it, or names exactly how far the product protects
 * against it.
 */
const t = await buildTestApp();
const { team } = securityKit(t);

describe('#11 media are private and safe', () => {
  it('#11 media are private and safe: files need a reader (a capability address signed for them), names are unguessable, SVG/HTML are never images or videos, PDFs open sandboxed and other documents download with a neutral type and nosniff, removed files are deleted with their artifact', async () => {
    const owner = await createTeacher(t);
    const stranger = await createTeacher(t);
    const portfolio = await createPortfolio(t, owner);
    const artifact = await createArtifact(t, portfolio);
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;
    const first = await upload(t, owner.token, `${base}/documents`, multipart('file', 'plan.pdf', pdfDocument()));
    const second = await upload(t, owner.token, `${base}/documents`, multipart('file', 'plan.pdf', pdfDocument()));
    const [a, b] = [ArtifactMediaResponseSchema.parse(first.json()), ArtifactMediaResponseSchema.parse(second.json())];
    // A capability (user, expiry, 128-bit signature), then 24 random URL-safe characters (144 bits), different for the same bytes.
    const ADDRESS = /^\/uploads\/[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{22}\/[A-Za-z0-9_-]{24}\.pdf$/;
    expect(a.url).toMatch(ADDRESS);
    expect(b.url).toMatch(ADDRESS);
    expect(a.url.split('/').pop()).not.toBe(b.url.split('/').pop());

    const fetchFile = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    const name = a.url.split('/').pop()!;
    const [, , capability] = a.url.split('/');
    // The bare name, a session, someone else's capability, a tampered or borrowed one: nothing.
    expect(await fetchFile(`/uploads/${name}`, { authorization: `Bearer ${owner.token}` })).toHaveStatus(404);
    expect(await fetchFile(t.app.services.media.signFor(stranger.user.id)(a.url))).toBeApiError(404, FILE_NOT_FOUND);
    const tampered = `${capability!.slice(0, -1)}${capability!.endsWith('A') ? 'B' : 'A'}`;
    expect(await fetchFile(`/uploads/${tampered}/${name}`)).toBeApiError(404, FILE_NOT_FOUND);
    expect(await fetchFile(`/uploads/${capability}/${b.url.split('/').pop()}`)).toBeApiError(404, FILE_NOT_FOUND);
    expect(await fetchFile(`/uploads/${capability}/AAAAAAAAAAAAAAAAAAAAAAAA.pdf`)).toBeApiError(404, FILE_NOT_FOUND);
    const served = await fetchFile(a.url);
    expect(served).toHaveStatus(200);
    // A PDF (read as one from its bytes) opens in the browser's viewer, sandboxed (issue 20, 15).
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe('inline; filename="plan.pdf"');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.headers['cross-origin-resource-policy']).toBe('same-origin');
    // Every other document downloads with a neutral type.
    const other = ArtifactMediaResponseSchema.parse(
      (
        await upload(
          t,
          owner.token,
          `${base}/documents`,
          multipart('file', 'data.bin', Buffer.from([0, 1, 2, 3, 254, 255, 0, 7])),
        )
      ).json(),
    );
    const download = await fetchFile(other.url);
    expect(download).toHaveStatus(200);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toBe('attachment; filename="data.bin"');
    expect(download.headers['x-content-type-options']).toBe('nosniff');

    const before = await snapshot(t);
    for (const kind of ['images', 'videos'] as const) {
      for (const [content, fileName, type] of [
        [svgImage(), 'drawing.svg', 'image/svg+xml'],
        [htmlPage(), 'page.html', 'text/html'],
        [svgImage(), 'drawing.png', 'image/png'],
      ] as const) {
        expect(
          await upload(t, owner.token, `${base}/${kind}`, multipart('file', fileName, content, type)),
          `${kind} ${fileName}`,
        ).toBeApiError(400, /^This file is /);
      }
    }
    expect(await snapshot(t)).toEqual(before);

    // HTML or SVG as a document is kept, and only ever downloaded, never rendered.
    for (const [content, fileName] of [
      [htmlPage(), 'notes.txt'],
      [htmlPage(), 'page.html'],
      [svgImage(), 'drawing.svg'],
    ] as const) {
      const doc = ArtifactMediaResponseSchema.parse(
        (await upload(t, owner.token, `${base}/documents`, multipart('file', fileName, content, 'text/html'))).json(),
      );
      const download = await fetchFile(doc.url);
      expect(download).toHaveStatus(200);
      expect(download.headers['content-type']).toBe('application/octet-stream');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="${fileName}"`);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
    }

    // A removed file stays for the artifact's history (decision 049), served to its readers only; it is
    // deleted from the store (the uploads folder or the bucket) with the artifact, and no longer served.
    expect(await isStored(t, a.url)).toBe(true);
    expect(await t.api({ method: 'DELETE', url: `${base}/documents/${a.id}`, token: owner.token })).toHaveStatus(200);
    expect(await isStored(t, a.url)).toBe(true);
    expect(await fetchFile(t.app.services.media.signFor(stranger.user.id)(a.url))).toBeApiError(404, FILE_NOT_FOUND);
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: owner.token })).toHaveStatus(200);
    expect(await isStored(t, a.url)).toBe(false);
    expect(await fetchFile(a.url)).toBeApiError(404, FILE_NOT_FOUND);
  });
});

describe('#19 files for this account only', () => {
  it('#19 files for this account only: the data folder is 0700 (even one made before), uploads and their formats 0600, the outbox 0700 with 0600 messages and no link in the log', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-modes-'));
    chmodSync(dataDir, 0o755);
    loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    rmSync(dataDir, { recursive: true, force: true });

    const owner = await createTeacher(t);
    const portfolio = await createPortfolio(t, owner);
    const artifact = await createArtifact(t, portfolio);
    const res = await upload(
      t,
      owner.token,
      `/portfolios/${portfolio.id}/artifacts/${artifact.id}/images`,
      multipart('file', 'a.png', await pngImage(60, 40)),
    );
    const image = ArtifactMediaResponseSchema.parse(res.json());
    // The uploads folder holds the incoming files of every store; with MEDIA_STORE=local the files too.
    const uploads = path.join(t.config.dataDir, 'uploads');
    expect(statSync(uploads).mode & 0o777).toBe(0o700);
    expect(statSync(t.app.mediaStore.tmpDir).mode & 0o777).toBe(0o700);
    const urls = [image.url, ...Object.values(image.formats ?? {}).map((f) => f!.url)];
    const kept = await Promise.all(
      urls.map(async (url) =>
        t.config.s3
          ? (await isStored(t, url)) && 'in the bucket'
          : (statSync(path.join(uploads, url.split('/').pop()!)).mode & 0o777).toString(8),
      ),
    );
    expect(kept).toEqual(urls.map(() => (t.config.s3 ? 'in the bucket' : '600')));

    const outboxDir = mkdtempSync(path.join(os.tmpdir(), 'pf-outbox-'));
    const lines: string[] = [];
    const log = {
      info: (data: unknown, msg: string) => lines.push(JSON.stringify([data, msg])),
    } as unknown as FastifyBaseLogger;
    await createMailer({
      smtpUrl: null,
      from: 'PracticeFolio <a@b.c>',
      outboxDir: path.join(outboxDir, 'outbox'),
      log,
    }).send({
      to: 'ada@example.org',
      subject: 'Reset your PracticeFolio password',
      text: 'http://portal.test/reset-password/secret-code',
      html: '<a href="http://portal.test/reset-password/secret-code">Reset</a>',
      links: ['http://portal.test/reset-password/secret-code'],
    });
    expect(statSync(path.join(outboxDir, 'outbox')).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(path.join(outboxDir, 'outbox')))
      expect(statSync(path.join(outboxDir, 'outbox', file)).mode & 0o777).toBe(0o600);
    expect(lines.join('\n')).not.toContain('secret-code');
    rmSync(outboxDir, { recursive: true, force: true });
  });
});

describe('#27 limits on logged-in writes', async () => {
  const small = await buildTestApp({ storageQuotaBytes: 200_000 });

  it('#27 per-person limits on invitations, comments and uploads, a storage quota that refuses and keeps nothing', async () => {
    // Invitations: 30 in ten minutes, then a pause (each may create an account and sends an e-mail).
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead);
    const invite = (i: number) =>
      t.api({
        method: 'POST',
        url: '/invitations',
        token: lead.token,
        payload: { email: `flood-${Date.now().toString(36)}-${i}@school.example`, sharedPortfolio: sp.id },
      });
    for (let i = 0; i < 30; i += 1) expect(await invite(i), `invitation ${i}`).toHaveStatus(200);
    expect(await invite(30)).toBeApiError(429, /^Too many attempts, please try again in /);
    // Another person is not held back.
    const otherLead = await createLead(t);
    const otherSp = await createSharedPortfolio(t, otherLead);
    expect(
      await t.api({
        method: 'POST',
        url: '/invitations',
        token: otherLead.token,
        payload: { email: `calm-${Date.now().toString(36)}@school.example`, sharedPortfolio: otherSp.id },
      }),
    ).toHaveStatus(200);

    // Comments: 60 a minute.
    const { m1, sa1 } = await team();
    for (let i = 0; i < 60; i += 1)
      expect(
        await t.api({
          method: 'POST',
          url: '/comments',
          token: m1.token,
          payload: { text: `Comment ${i}`, sharedArtifact: sa1.id },
        }),
      ).toHaveStatus(200);
    expect(
      await t.api({
        method: 'POST',
        url: '/comments',
        token: m1.token,
        payload: { text: 'One more', sharedArtifact: sa1.id },
      }),
    ).toBeApiError(429);

    // Storage: the upload that would pass the quota is refused, and nothing of it is kept.
    const owner = await createTeacher(small);
    const portfolio = await createPortfolio(small, owner);
    const artifact = await createArtifact(small, portfolio);
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`;
    const file = Buffer.alloc(120_000, 7);
    expect(await upload(small, owner.token, base, multipart('file', 'a.bin', file))).toHaveStatus(200);
    const before = await snapshot(small);
    expect(await upload(small, owner.token, base, multipart('file', 'b.bin', file))).toBeApiError(
      413,
      /^Your files would take more than your storage limit of /,
    );
    expect(await snapshot(small)).toEqual(before);
  });
});

describe('#21.2 caption tracks: bounded per video, sized, in the quota and the write limits, listed without cues', async () => {
  const small = await buildTestApp({ storageQuotaBytes: 60_000 });
  const cueLines = (n: number, text: string) =>
    Array.from({ length: n }, (_, i) => `00:00:0${i % 9}.000 --> 00:00:09.500\n${text} ${i}`).join('\n\n');

  it('at most 10 tracks per video, a track at most 512 KiB, and the list of tracks carries no cues', async () => {
    const owner = await createTeacher(t);
    const artifact = await createArtifact(t, await createPortfolio(t, owner));
    const video = await attachVideo(t, 'artifact', artifact.id, 10);
    const url = `/artifacts/${artifact.id}/media/${video}/captions`;
    // Ten tracks of 55 KB each made a 550 KB answer for the video's list (and 500 KB tracks, 5 MB).
    const big = `WEBVTT\n\n${cueLines(60, 'x'.repeat(900))}`;
    const languages = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'sv', 'da', 'fi'];
    for (const language of languages)
      expect(
        await t.api({
          method: 'POST',
          url,
          token: owner.token,
          payload: { language, label: language, format: 'vtt', source: big },
        }),
        language,
      ).toHaveStatus(200);
    const before = await snapshot(t);
    expect(
      await t.api({
        method: 'POST',
        url,
        token: owner.token,
        payload: { language: 'no', label: 'Norsk', format: 'vtt', source: 'WEBVTT\n\n00:00.000 --> 00:01.000\nHei\n' },
      }),
    ).toBeApiError(409, 'A video can have at most 10 caption tracks. Delete one before adding another.');
    expect(await snapshot(t)).toEqual(before);
    const list = await t.api({ method: 'GET', url, token: owner.token });
    expect(list).toHaveStatus(200);
    expect(list.body.length).toBeLessThan(4_000);
    const tracks = list.json() as { id: number; language: string; cueCount: number; cues?: unknown }[];
    expect(tracks.map((track) => [track.cueCount, track.cues])).toEqual(languages.map(() => [60, undefined]));
    // The cues of one track, on demand.
    const one = await t.api({ method: 'GET', url: `/captions/${tracks[0]!.id}`, token: owner.token });
    expect(one).toHaveStatus(200);
    expect((one.json() as { cues: unknown[] }).cues).toHaveLength(60);
    // The editor's body may hold 5000 cues of 1000 characters: a stored track stays within 512 KiB.
    const cues = Array.from({ length: 600 }, (_, i) => ({
      start: i / 100,
      end: i / 100 + 0.5,
      text: 'y'.repeat(1000),
    }));
    expect(
      await t.api({
        method: 'PUT',
        url: `/captions/${tracks[0]!.id}`,
        token: owner.token,
        payload: { language: tracks[0]!.language, label: 'Big', cues },
      }),
    ).toBeApiError(413, /^A caption track can be at most 512 KiB/);
    expect(await snapshot(t)).toEqual(before);
  });

  it('caption bytes count in the storage quota with the files, and caption writes in the per-person write limits', async () => {
    const owner = await createTeacher(small);
    const artifact = await createArtifact(small, await createPortfolio(small, owner));
    const video = await attachVideo(small, 'artifact', artifact.id, 10);
    const url = `/artifacts/${artifact.id}/media/${video}/captions`;
    const add = (language: string, source: string) =>
      small.api({
        method: 'POST',
        url,
        token: owner.token,
        payload: { language, label: language, format: 'vtt', source },
      });
    expect(await add('en', `WEBVTT\n\n${cueLines(40, 'z'.repeat(990))}`)).toHaveStatus(200);
    const before = await snapshot(small);
    expect(await add('es', `WEBVTT\n\n${cueLines(40, 'z'.repeat(990))}`)).toBeApiError(
      413,
      /^These captions would take more than your storage limit/,
    );
    expect(await snapshot(small)).toEqual(before);
    // Replacing her own track counts it once.
    expect(await add('en', `WEBVTT\n\n${cueLines(45, 'z'.repeat(990))}`)).toHaveStatus(200);

    // 60 caption writes in ten minutes, then a pause.
    const tiny = 'WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n';
    for (let i = 0; i < 57; i += 1) expect(await add('fr', tiny), `write ${i}`).toHaveStatus(200);
    expect(await add('fr', tiny)).toBeApiError(429, /^Too many attempts, please try again in /);
  });
});
