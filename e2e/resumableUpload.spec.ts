import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ffmpegVideo, freeBoxHeader } from '../server/test/files.ts';
import { api, baseUrl, DEMO, login, setupBrowser, tokenFor } from './fixtures.ts';
import { DropProxy } from './resumable/dropProxy.ts';

const MiB = 1024 * 1024;
const work = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-resumable-'));
let proxy: DropProxy;
beforeAll(async () => {
  const target = new URL(baseUrl());
  proxy = await new DropProxy({ host: target.hostname, port: Number(target.port) }).listen();
});
afterAll(async () => {
  await proxy?.close();
  rmSync(work, { recursive: true, force: true });
});
// The browser talks to the portal through the proxy, which breaks its connections.
const browser = setupBrowser(() => proxy.url, { brokenConnections: true });

/**
 * A real MP4 (2 s, ffmpeg's test pattern) grown to `size` bytes by a `free` box of random bytes,
 * written to disk in pieces; its SHA-256.
 */
function videoFile(name: string, size: number): { file: string; sha256: string } {
  const file = path.join(work, name);
  const video = ffmpegVideo();
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  const write = (data: Buffer) => {
    writeSync(fd, data);
    hash.update(data);
  };
  write(video);
  write(freeBoxHeader(size - video.length));
  for (let left = size - video.length - 8; left > 0; left -= 16 * MiB) write(randomBytes(Math.min(left, 16 * MiB)));
  closeSync(fd);
  return { file, sha256: hash.digest('hex') };
}

async function sha256Of(response: Response): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of response.body!) hash.update(piece as Uint8Array);
  return hash.digest('hex');
}

/** A new artifact of Theo's own (its files are deleted with it), and its edit page in the browser. */
async function artifactToEdit(
  title: string,
): Promise<{ page: Page; token: string; portfolioId: number; artifactId: number }> {
  const token = await tokenFor(DEMO.teacher2.email);
  const stamp = Date.now();
  const portfolio = await api<{ id: number }>('POST', '/portfolios', { name: `Lesson videos ${stamp}` }, token);
  expect(portfolio.status).toBe(200);
  const artifact = await api<{ id: number }>(
    'POST',
    `/portfolios/${portfolio.body.id}/artifacts/responses`,
    { responses: { artifactName: `${title} ${stamp}`, learningGoal: 'Watch the lesson again.' }, parkingLot: false },
    token,
  );
  expect(artifact.status).toBe(200);
  onTestFinished(async () => {
    await api('DELETE', `/artifacts/${artifact.body.id}`, undefined, token);
    await api('DELETE', `/portfolios/${portfolio.body.id}`, undefined, token);
  });
  const page = await browser.newPage('/login');
  await login(page, DEMO.teacher2.email);
  await page.goto(`/my-portfolios/${portfolio.body.id}/artifacts/${artifact.body.id}/edit`);
  await page.getByLabel('Choose files').waitFor({ state: 'attached' });
  return { page, token, portfolioId: portfolio.body.id, artifactId: artifact.body.id };
}

/** The stored video's bytes, hashed, as the portal serves them. */
async function storedSha256(token: string, artifactId: number, name: string): Promise<string> {
  const artifact = await api<{ videos: { name: string; url: string }[] }>(
    'GET',
    `/artifacts/${artifactId}`,
    undefined,
    token,
  );
  const video = artifact.body.videos.find((v) => v.name === name);
  expect(video, `${name} is in the artifact`).toBeDefined();
  const response = await fetch(`${baseUrl()}/api/v1${video!.url}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return sha256Of(response);
}

describe('resumable uploads through a connection that breaks', () => {
  it('a 512 MiB video survives three drops by itself, each resume within 2 s, byte for byte', async () => {
    const size = 512 * MiB;
    const { file, sha256 } = videoFile('lesson.mp4', size);
    const { page, token, artifactId } = await artifactToEdit('Three drops');
    await page.getByLabel('Choose files').setInputFiles(file);
    const row = page.getByRole('listitem', { name: 'lesson.mp4' });
    await row.getByRole('progressbar', { name: 'Uploading lesson.mp4' }).waitFor();
    const resumes: number[] = [];
    const start = proxy.clientBytes;
    for (const fraction of [0.2, 0.45, 0.7]) {
      await proxy.sent(start + fraction * size);
      const back = await proxy.cut(800);
      // tus-js-client asks the offset (HEAD), then sends from there (PATCH).
      const resumed = await proxy.firstRequestAfter(back, /^(HEAD|PATCH) \/api\/v1\/uploads\/tus\//, 10_000);
      resumes.push(resumed - back);
    }
    await row.getByText('Uploaded').waitFor({ timeout: 120_000 });
    expect(
      resumes.every((ms) => ms < 2000),
      `resumed ${resumes.join(', ')} ms after the connection was back`,
    ).toBe(true);
    expect(await storedSha256(token, artifactId, 'lesson.mp4')).toBe(sha256);
  }, 180_000);

  it('a reload at half way, then the same file chosen again, resumes from where it stopped', async () => {
    const size = 64 * MiB;
    const { file, sha256 } = videoFile('lesson-part.mp4', size);
    const { page, token, artifactId } = await artifactToEdit('Reloaded');
    const start = proxy.clientBytes;
    await page.getByLabel('Choose files').setInputFiles(file);
    await proxy.sent(start + 0.55 * size);
    proxy.hold();
    await page.reload();
    proxy.release();
    const offer = page.getByRole('listitem', { name: 'Unfinished: lesson-part.mp4' });
    await offer.waitFor();
    expect(await offer.textContent()).toMatch(/Stopped at (5\d|[6-9]\d)%/);
    const head = page.waitForResponse((r) => r.request().method() === 'HEAD' && r.url().includes('/uploads/tus/'));
    await page.getByLabel('Choose files').setInputFiles(file);
    const offset = Number((await head).headers()['upload-offset']);
    expect(offset / size).toBeGreaterThanOrEqual(0.5);
    await page.getByRole('listitem', { name: 'lesson-part.mp4' }).getByText('Uploaded').waitFor({ timeout: 60_000 });
    expect(await offer.count()).toBe(0);
    expect(await storedSha256(token, artifactId, 'lesson-part.mp4')).toBe(sha256);
  }, 120_000);
});
