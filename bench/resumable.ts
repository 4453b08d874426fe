/**
 * A large video uploaded from Chromium with tus (the web app's upload queue) through a loopback
 * proxy: once without a break, once with the connection cut three times; time, the server's
 * memory and the tab's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { DropProxy } from '../e2e/resumable/dropProxy.ts';
import { videoFile } from '../e2e/resumable/kit.ts';
import { rssMiB, startServer, token } from './support.ts';

const TEACHER = { email: 'teacher@example.org', password: 'spiral-demo' };

/** The resident memory (MiB) of the browser's renderer processes (the tabs), found through the DevTools protocol. */
async function renderersMiB(browser: Browser): Promise<number> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { id: number; type: string }[];
    };
    let sum = 0;
    for (const process of processInfo.filter((p) => p.type === 'renderer')) {
      try {
        sum += rssMiB(process.id);
      } catch {
        // Ended meanwhile.
      }
    }
    return sum;
  } finally {
    await cdp.detach();
  }
}

export interface ResumableRun {
  drops: number;
  seconds: number;
  serverIdleMiB: number;
  serverGrowthMiB: number;
  tabIdleMiB: number;
  tabGrowthMiB: number;
  /** Each resume: ms from the proxy accepting again to the browser's HEAD or PATCH. */
  resumesMs: number[];
}

/** One upload of `file` to a new artifact from a signed-in tab; the connection cut at each of `cutAt` (fractions). */
async function uploadOnce(
  browser: Browser,
  server: { url: string; pid: number },
  file: { path: string; size: number },
  cutAt: readonly number[],
): Promise<ResumableRun> {
  const target = new URL(server.url);
  const proxy = await new DropProxy({ host: target.hostname, port: Number(target.port) }).listen();
  // A kept-alive connection of the previous run that the server has just closed may fail once.
  const jwt = await token(server.url, TEACHER.email, TEACHER.password).catch(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return token(server.url, TEACHER.email, TEACHER.password);
  });
  const auth = { authorization: `Bearer ${jwt}` };
  const portfolios = (await (await fetch(`${server.url}/api/v1/portfolios`, { headers: auth })).json()) as {
    id: number;
  }[];
  const portfolioId = portfolios[0]!.id;
  const created = (await (
    await fetch(`${server.url}/api/v1/portfolios/${portfolioId}/artifacts/responses`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ responses: { artifactName: `Resumable ${Date.now()}` }, parkingLot: true }),
    })
  ).json()) as { id: number };
  const context = await browser.newContext({ baseURL: proxy.url });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(TEACHER.email);
    await page.getByLabel('Password', { exact: true }).fill(TEACHER.password);
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto(`/my-portfolios/${portfolioId}/artifacts/${created.id}/edit`);
    await page.getByLabel('Choose files').waitFor({ state: 'attached' });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const serverIdle = rssMiB(server.pid);
    const tabIdle = await renderersMiB(browser);
    let serverPeak = serverIdle;
    let tabPeak = tabIdle;
    const sampler = setInterval(() => {
      serverPeak = Math.max(serverPeak, rssMiB(server.pid));
      void renderersMiB(browser).then(
        (mib) => (tabPeak = Math.max(tabPeak, mib)),
        () => tabPeak,
      );
    }, 250);
    const started = Date.now();
    const start = proxy.clientBytes;
    await page.getByLabel('Choose files').setInputFiles(file.path);
    const resumesMs: number[] = [];
    for (const fraction of cutAt) {
      await proxy.sent(start + fraction * file.size);
      const back = await proxy.cut(1000);
      const resumed = await proxy.firstRequestAfter(back, /^(HEAD|PATCH) \/api\/v1\/uploads\/tus\//, 60_000);
      resumesMs.push(resumed - back);
    }
    await page
      .getByRole('listitem', { name: path.basename(file.path) })
      .getByText('Uploaded')
      .waitFor({ timeout: 30 * 60_000 });
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    return {
      drops: cutAt.length,
      seconds,
      serverIdleMiB: Math.round(serverIdle),
      serverGrowthMiB: Math.round(serverPeak - serverIdle),
      tabIdleMiB: Math.round(tabIdle),
      tabGrowthMiB: Math.round(tabPeak - tabIdle),
      resumesMs,
    };
  } finally {
    await context.close();
    await proxy.close();
    // The artifact goes with its file, so that the next run has the disk and the quota.
    await fetch(`${server.url}/api/v1/artifacts/${created.id}`, { method: 'DELETE', headers: auth });
  }
}

/** `bytes` uploaded without a break, then with three (at 25%, 50% and 75%), on a new installation (demo data). */
export async function runResumableBench(bytes: number, chromiumPath: string): Promise<ResumableRun[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-resumable-'));
  const server = await startServer(path.join(root, 'data'), {
    DEMO_DATA: 'true',
    UPLOAD_LIMIT_BYTES: String(bytes + 1024 * 1024),
    STORAGE_QUOTA_BYTES: String(4 * bytes),
  });
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });
  try {
    const { file } = videoFile(root, 'lesson.mp4', bytes);
    const target = { url: server.url, pid: server.child.pid! };
    const whole = await uploadOnce(browser, target, { path: file, size: bytes }, []);
    const dropped = await uploadOnce(browser, target, { path: file, size: bytes }, [0.25, 0.5, 0.75]);
    return [whole, dropped];
  } finally {
    await browser.close();
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
