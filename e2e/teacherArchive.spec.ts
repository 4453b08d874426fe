import { ffmpegWebm } from '../server/test/files.ts';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { api, DEMO, login, outboxFor, setupBrowser, tokenFor, until, uploadMedia } from './fixtures.ts';
import { ownServer } from './ownServer.ts';

const browser = setupBrowser();
const work = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-archive-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A small PNG photo made by sharp. */
function pngPhoto(): Promise<Buffer> {
  const pixels = Buffer.alloc(160 * 120 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 31) % 251;
  return sharp(pixels, { raw: { width: 160, height: 120, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * Adds an artifact of this journey's own, with a photo and a video, to the demo teacher's first
 * portfolio, so that the demo artifacts other journeys read stay as seeded.
 */
async function addMedia(token: string): Promise<void> {
  const portfolios = await api<{ id: number }[]>('GET', '/portfolios', undefined, token);
  const portfolio = portfolios.body[0];
  if (!portfolio) throw new Error('the demo teacher has no portfolio');
  const responses = {
    artifactName: `Archive media: shadow lengths ${Date.now()}`,
    learningGoal: 'Students measure how a shadow changes through the day.',
  };
  const created = await api<{ id: number }>(
    'POST',
    `/portfolios/${portfolio.id}/artifacts/responses`,
    { responses, parkingLot: false },
    token,
  );
  expect(created.status).toBe(200);
  await uploadMedia(token, portfolio.id, created.body.id, 'images', 'ramp-setup.png', 'image/png', await pngPhoto());
  await uploadMedia(
    token,
    portfolio.id,
    created.body.id,
    'videos',
    'experiment.webm',
    'video/webm',
    ffmpegWebm({ size: '320x240', kbps: 200 }),
  );
}

describe('a teacher takes her work with her', () => {
  it('builds her archive, downloads it, and its site opens offline with every image and video', async () => {
    const token = await tokenFor(DEMO.teacher.email);
    await addMedia(token);
    type Job = { id: number; status: string };
    const jobs = async () => (await api<Job[]>('GET', '/archives', undefined, token)).body;
    // Archives other journeys asked for may be listed already: this one is the job that is new.
    const earlier = new Set((await jobs()).map((j) => j.id));

    const page = await browser.newPage('/login');
    await login(page, DEMO.teacher.email);
    await page.waitForURL('**/dashboard');
    const section = page.getByRole('region', { name: 'Download my archive' });
    await section.getByRole('button', { name: 'Prepare my archive' }).click();
    let job: Job | undefined;
    await expect
      .poll(async () => (job = (await jobs()).find((j) => !earlier.has(j.id)))?.status, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe('ready');
    const link = section.locator(`a[href$="/archives/${job!.id}/download"]`);
    await link.waitFor({ timeout: 30_000 });
    expect(await link.getAttribute('aria-label')).toMatch(/^Download the archive of /);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^practicefolio-archive-\d{4}-\d\d-\d\d\.zip$/);
    const zip = path.join(work, 'archive.zip');
    await download.saveAs(zip);

    // The e-mail names the same archive.
    const mail = outboxFor(DEMO.teacher.email).find((m) => m.subject === 'Your PracticeFolio archive is ready');
    expect(mail?.text).toMatch(/\/api\/v1\/archives\/\d+\/download/);

    const site = path.join(work, 'site');
    execFileSync('unzip', ['-q', zip, '-d', site]);
    const pages = readdirSync(site).filter((f) => f.endsWith('.html'));
    expect(pages).toContain('index.html');
    expect(pages.some((p) => p.startsWith('portfolio-'))).toBe(true);
    expect(pages.some((p) => p.startsWith('shared-artifact-'))).toBe(true);

    // Every page from the file system: nothing but file:// requests, every image shown, every video playable.
    const offline = await browser.newPage('about:blank');
    const requests: string[] = [];
    offline.on('request', (request) => requests.push(request.url()));
    let images = 0;
    let videos = 0;
    for (const name of ['index.html', ...pages.filter((p) => p !== 'index.html')]) {
      await offline.goto(pathToFileURL(path.join(site, name)).href, { waitUntil: 'load' });
      const result = await offline.evaluate(async () => {
        const imgs = [...document.images];
        await Promise.all(
          imgs.map((img) =>
            img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })),
          ),
        );
        const vids = [...document.querySelectorAll('video')];
        const states = await Promise.all(
          vids.map(async (video) => {
            video.muted = true;
            if (video.readyState < 2) {
              video.preload = 'auto';
              await new Promise<void>((resolve, reject) => {
                video.addEventListener('loadeddata', () => resolve(), { once: true });
                video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}`)), {
                  once: true,
                });
                video.load();
              });
            }
            await video.play();
            video.pause();
            return video.readyState;
          }),
        );
        return {
          widths: imgs.map((img) => img.naturalWidth),
          alts: imgs.map((img) => img.getAttribute('alt')),
          states,
        };
      });
      for (const w of result.widths) expect(w, `an image of ${name}`).toBeGreaterThan(0);
      for (const alt of result.alts) expect(alt, `the alt text of an image of ${name}`).toBeTruthy();
      for (const s of result.states) expect(s, `a video of ${name}`).toBeGreaterThanOrEqual(2);
      images += result.widths.length;
      videos += result.states.length;
    }
    expect(images).toBeGreaterThan(0);
    expect(videos).toBeGreaterThan(0);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
  });
});

describe('an archive being built when the server is killed', () => {
  it('is built at the next start, without waiting for its missed heartbeat', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-archive-kill-'));
    const server = await ownServer(dataDir, path.join(dataDir, 'static'), { LOG_LEVEL: 'info' });
    const url = server.url;
    try {
      await server.start();
      const call = async <T>(method: string, pathname: string, token: string, body?: BodyInit): Promise<T> => {
        const res = await fetch(`${url}/api/v1${pathname}`, {
          method,
          headers: { authorization: `Bearer ${token}` },
          ...(body ? { body } : {}),
        });
        if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
        return (await res.json()) as T;
      };
      const login = await fetch(`${url}/api/v1/auth/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identifier: DEMO.teacher.email, password: DEMO.password }),
      });
      const token = ((await login.json()) as { jwt: string }).jwt;
      // A large file, so that the build takes a while.
      const portfolios = await call<{ id: number; artifacts: { id: number }[] }[]>('GET', '/portfolios', token);
      const portfolio = portfolios.find((p) => p.artifacts.length > 0)!;
      const block = randomBytes(1024 ** 2);
      const big = Buffer.concat(Array.from({ length: 384 }, (_, i) => (i === 0 ? randomBytes(1024 ** 2) : block)));
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(big)], { type: 'application/octet-stream' }), 'recordings.bin');
      await call('POST', `/portfolios/${portfolio.id}/artifacts/${portfolio.artifacts[0]!.id}/documents`, token, form);

      type Job = { id: number; status: string; size: number | null };
      const job = await call<Job>('POST', '/archives', token, undefined);
      // Killed as soon as the build is seen under way.
      const jobNow = async () => (await call<Job[]>('GET', '/archives', token)).find((j) => j.id === job.id)!;
      const seen = await until(
        async () => {
          const now = await jobNow();
          return now.status !== 'queued' && now;
        },
        'the build to start',
        { timeoutMs: 60_000, everyMs: 5 },
      );
      await server.kill();
      expect(seen.status, 'the build finished before the kill could land').toBe('building');

      await server.start();
      const done = await until(
        async () => {
          const now = await jobNow();
          return (now.status === 'ready' || now.status === 'failed') && now;
        },
        'the build to end',
        { timeoutMs: 60_000, everyMs: 200 },
      );
      expect(done.status).toBe('ready');
      // Taken up at the start (the killed process is gone), not after its heartbeat was missed.
      expect(server.output).toContain('archive job of a stopped process taken up again');

      const zip = path.join(dataDir, 'archive.zip');
      const res = await fetch(`${url}/api/v1/archives/${job.id}/download`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
      expect(statSync(zip).size).toBe(done.size);
      // A whole ZIP holding the large file as uploaded.
      execFileSync('unzip', ['-tq', zip]);
      const listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n');
      const entry = listing.find((name) => /^media\/\d+-recordings\.bin\.txt$/.test(name));
      expect(entry).toBeDefined();
      expect(execFileSync('unzip', ['-p', zip, entry!], { maxBuffer: 512 * 1024 ** 2 }).equals(big)).toBe(true);
      // One e-mail, for the build that finished.
      const mails = readdirSync(path.join(dataDir, 'outbox')).filter((f) =>
        readFileSync(path.join(dataDir, 'outbox', f), 'utf8').includes('Your PracticeFolio archive is ready'),
      );
      expect(mails).toHaveLength(1);
    } finally {
      if (server.running) await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
