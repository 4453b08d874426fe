import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
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
 * A teacher uploads a 50 MiB video in Chromium through the balancer (round robin): which node
 * answered each chunk (PATCH) of the one upload, and the SHA-256 of the file and of the stored
 * video. `token` is the same teacher's, for reading the video back through the API.
 */
export async function uploadAcrossNodes(
  cluster: Cluster,
  login: { email: string; password: string },
  target: { portfolioId: number; artifactId: number; token: string },
): Promise<{ nodes: string[]; sha256: string; stored: string }> {
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
    return { nodes, sha256, stored: hash.digest('hex') };
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}
