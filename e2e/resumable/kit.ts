import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import { ffmpegVideo, freeBoxHeader } from '../../server/test/files.ts';
import { api, baseUrl, DEMO, login, setupBrowser, tokenFor } from '../fixtures.ts';
import { DropProxy } from './dropProxy.ts';

export const MiB = 1024 * 1024;

/**
 * For one spec file: a work folder for its files, and a browser that reaches the portal through a
 * proxy that can throttle, hold and break its connections (started before the tests, closed after).
 */
export function behindDropProxy(prefix: string) {
  const work = mkdtempSync(path.join(os.tmpdir(), prefix));
  let proxy: DropProxy | null = null;
  beforeAll(async () => {
    const target = new URL(baseUrl());
    proxy = await new DropProxy({ host: target.hostname, port: Number(target.port) }).listen();
  });
  afterAll(async () => {
    await proxy?.close();
    rmSync(work, { recursive: true, force: true });
  });
  const browser = setupBrowser(() => portal.proxy.url, { brokenConnections: true });
  const portal = {
    work,
    browser,
    get proxy(): DropProxy {
      if (!proxy) throw new Error('The proxy starts before the tests.');
      return proxy;
    },
  };
  return portal;
}

/**
 * A real MP4 (2 s, ffmpeg's test pattern) grown to `size` bytes by a `free` box of random bytes,
 * written to `dir` in pieces; its SHA-256.
 */
export function videoFile(dir: string, name: string, size: number): { file: string; sha256: string } {
  const file = path.join(dir, name);
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

/**
 * A new portfolio and artifact of Theo's own (deleted with their files after the test), and the
 * artifact's edit page, signed in, in `browser` at `width`.
 */
export async function artifactToEdit(
  browser: ReturnType<typeof setupBrowser>,
  title: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; token: string; artifactId: number }> {
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
  const page = await browser.newPage('/login', viewport);
  await login(page, DEMO.teacher2.email);
  await page.goto(`/my-portfolios/${portfolio.body.id}/artifacts/${artifact.body.id}/edit`);
  await page.getByLabel('Choose files').waitFor({ state: 'attached' });
  return { page, token, artifactId: artifact.body.id };
}

/** The SHA-256 of a stored video of the artifact, as the portal serves it. */
export async function storedSha256(token: string, artifactId: number, name: string): Promise<string> {
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
  const hash = createHash('sha256');
  for await (const piece of response.body!) hash.update(piece as Uint8Array);
  return hash.digest('hex');
}
