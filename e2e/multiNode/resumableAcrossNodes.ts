import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { expect } from 'vitest';
import { MiB, videoFile } from '../resumable/kit.ts';
import type { Cluster } from './cluster.ts';

/** Which node answered each PATCH of an upload, in order, as HAProxy logged them. */
function patchNodes(log: string, uploadId: string): string[] {
  return log
    .split('\n')
    .filter((line) => line.includes(`"PATCH /api/v1/uploads/tus/${uploadId} `))
    .map((line) => /\bnodes\/(node\d)\b/.exec(line)?.[1] ?? '?');
}

/**
 * A teacher uploads a video in Chromium through the balancer (round robin): the chunks (PATCHes)
 * of the one upload land on both nodes in turn, and the stored video is the file, byte for byte.
 * `token` is the same teacher's, for the checks through the API.
 */
export async function uploadAcrossNodes(
  cluster: Cluster,
  login: { email: string; password: string },
  target: { portfolioId: number; artifactId: number; token: string },
): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'pf-cluster-upload-'));
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  try {
    // Six chunks of 8 MiB, and a last one.
    const { file, sha256 } = videoFile(work, 'two-nodes.mp4', 50 * MiB);
    const page = await (await browser.newContext({ baseURL: cluster.url })).newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(login.email);
    await page.getByLabel('Password', { exact: true }).fill(login.password);
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto(`/my-portfolios/${target.portfolioId}/artifacts/${target.artifactId}/edit`);
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/uploads/tus'));
    await page.getByLabel('Choose files').setInputFiles(file);
    const uploadId = (await created).headers()['location']!.split('/').at(-1)!;
    await page.getByRole('listitem', { name: 'two-nodes.mp4' }).getByText('Uploaded').waitFor({ timeout: 90_000 });

    const nodes = patchNodes(cluster.balancerLog(), uploadId);
    expect(nodes.length, 'one PATCH a chunk').toBe(7);
    expect(new Set(nodes), `the chunks went to ${nodes.join(', ')}`).toEqual(new Set(['node1', 'node2']));
    const switches = nodes.slice(1).filter((node, i) => node !== nodes[i]).length;
    // Round robin: other requests of the page may come between two chunks, so not every chunk switches.
    expect(switches, `the chunks went to ${nodes.join(', ')}`).toBeGreaterThanOrEqual(3);

    const artifact = await fetch(`${cluster.url}/api/v1/artifacts/${target.artifactId}`, {
      headers: { authorization: `Bearer ${target.token}` },
    });
    const video = ((await artifact.json()) as { videos: { name: string; url: string }[] }).videos.find(
      (v) => v.name === 'two-nodes.mp4',
    )!;
    const hash = createHash('sha256');
    const stored = await fetch(`${cluster.url}/api/v1${video.url}`, {
      headers: { authorization: `Bearer ${target.token}` },
    });
    for await (const piece of stored.body!) hash.update(piece as Uint8Array);
    expect(hash.digest('hex')).toBe(sha256);
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}
