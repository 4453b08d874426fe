/**
 * Interactions as a teacher feels them: Interaction to Next Paint of single interactions, from the
 * Event Timing API (the entries of one `interactionId`: from the input until the next paint after
 * its handlers ran, the figure web-vitals' INP reports), in Chromium at 390 and 1280 px, with the
 * CPU unthrottled and slowed 4× through the DevTools protocol (`Emulation.setCPUThrottlingRate`),
 * on the data set's biggest portfolio of a teacher: a keystroke in search, a Filter By choice,
 * selecting an artifact, compare (turning it on, and the second pick that opens the side-by-side
 * view), posting a comment, opening the notification panel and starting a video at a marker.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { ensureSpaBuilt, prepareDataDir, startServer, token } from './support.ts';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--autoplay-policy=no-user-gesture-required'];

export const INTERACTIONS = [
  { id: 'search', name: 'a keystroke in search', goalThrottled: 100 },
  { id: 'filter', name: 'a Filter By choice', goalThrottled: 200 },
  { id: 'select', name: 'selecting an artifact', goalThrottled: 100 },
  { id: 'compareOn', name: 'compare: turning it on', goalThrottled: 200 },
  { id: 'compareOpen', name: 'compare: the second pick opens the comparison', goalThrottled: 200 },
  { id: 'comment', name: 'posting a comment', goalThrottled: 200 },
  { id: 'bell', name: 'opening the notification panel (phones: the Notifications page)', goalThrottled: 200 },
  { id: 'marker', name: 'starting a video at a marker', goalThrottled: 200 },
] as const;
export type InteractionId = (typeof INTERACTIONS)[number]['id'];
export const GOAL_UNTHROTTLED_MS = 100;

export interface InteractionResult {
  width: number;
  throttle: number;
  id: InteractionId;
  /** INP of each repetition, ms (below 16 ms Chromium reports no entry: counted as 16). */
  runs: number[];
  median: number;
  p75: number;
}

/** The p-th percentile (nearest rank) of some numbers. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

type Cookies = NonNullable<Exclude<BrowserContextOptions['storageState'], string | undefined>>['cookies'];

async function signIn(browser: Browser, origin: string, email: string): Promise<Cookies> {
  const context = await browser.newContext();
  try {
    const res = await context.request.post(`${origin}/api/v1/auth/local`, { headers: { 'x-practicefolio-client': 'web' }, data: { identifier: email, password: BENCH_PASSWORD } });
    if (!res.ok()) throw new Error(`sign-in: ${res.status()} ${await res.text()}`);
    const body = (await res.json()) as { jwt?: string };
    const { cookies } = await context.storageState();
    if (body.jwt && !cookies.some((c) => c.name === 'jwt')) cookies.push({ name: 'jwt', value: body.jwt, domain: new URL(origin).hostname, path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' });
    return cookies;
  } finally {
    await context.close();
  }
}

// Strings, not functions: the TypeScript runner would name inner arrows with a helper the page lacks.
const OBSERVE_EVENTS =
  'window.__events = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.interactionId) window.__events.push({ id: e.interactionId, start: e.startTime, duration: e.duration }); }).observe({ type: "event", durationThreshold: 16, buffered: true });';

/** Runs `act` (one user interaction) and returns its INP: the longest event entry of the interactions it started. */
async function timed(page: Page, act: () => Promise<void>, settled: () => Promise<unknown>): Promise<number> {
  const since = (await page.evaluate('performance.now()')) as number;
  await act();
  await settled();
  // Event entries are delivered after the paint that ends them.
  await page.waitForTimeout(250);
  const events = (await page.evaluate('window.__events')) as { id: number; start: number; duration: number }[];
  const mine = events.filter((e) => e.start >= since);
  return Math.max(16, ...mine.map((e) => e.duration));
}

/** A six-second WebM video made by ffmpeg. */
function webmVideo(dir: string): Buffer {
  const file = path.join(dir, 'ramp-race.webm');
  execFileSync(process.env['FFMPEG_PATH'] ?? 'ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=6:size=320x240:rate=10', '-c:v', 'libvpx', '-b:v', '200k', '-y', file]);
  return readFileSync(file);
}

export interface World {
  big: { id: number; artifacts: number };
  /** Another portfolio of the teacher (before the video's artifact was added). */
  other: { id: number; artifacts: number };
  shared: { plc: number; artifact: number; marker: string };
}

/** The teacher's biggest portfolio, and a shared artifact of hers with a video and a comment at 00:02 (made through the API). */
export async function prepare(url: string, jwt: string, work: string): Promise<World> {
  const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${jwt}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(`${url}/api/v1${route}`, init);
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const portfolios = await api<{ id: number; artifacts: unknown[] }[]>('GET', '/portfolios');
  const big = portfolios.reduce((a, b) => (b.artifacts.length > a.artifacts.length ? b : a));
  const other = portfolios.find((p) => p !== big) ?? big;
  const me = await api<{ id: number; username: string }>('GET', '/users/me');
  const created = await api<{ id: number }>('POST', `/portfolios/${other.id}/artifacts/responses`, { responses: { artifactName: 'Ramp race video', learningGoal: 'Students predict which car rolls faster.' }, parkingLot: false });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(webmVideo(work))], { type: 'video/webm' }), 'ramp-race.webm');
  const up = await fetch(`${url}/api/v1/portfolios/${other.id}/artifacts/${created.id}/videos`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` }, body: form });
  if (!up.ok) throw new Error(`video upload: ${up.status} ${await up.text()}`);
  const video = (await up.json()) as { id: number };
  const shared = await api<{ id: number }[]>('GET', '/shared-portfolios');
  const copy = await api<{ id: number }>('POST', `/artifacts/${created.id}/share`, { sharedPortfolioId: shared[0]!.id });
  await api('POST', '/comments', { sharedArtifact: copy.id, text: 'Here the ball passes the second mark.', moment: { media: video.id, start: 2, end: null } });
  return { big: { id: big.id, artifacts: big.artifacts.length }, other: { id: other.id, artifacts: other.artifacts.length + 1 }, shared: { plc: shared[0]!.id, artifact: copy.id, marker: `Comment by ${me.username} at 0:02` } };
}

const ROWS = '[role=grid][aria-label=Artifacts] [role=row][aria-rowindex]:not([aria-rowindex="1"])';

async function measureConfig(browser: Browser, url: string, cookies: Cookies, world: World, width: number, throttle: number, reps: number): Promise<InteractionResult[]> {
  // bypassCSP: the benchmark's own probes are strings the page's script-src would refuse.
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, storageState: { cookies, origins: [] }, bypassCSP: true });
  const runs = new Map<InteractionId, number[]>(INTERACTIONS.map((i) => [i.id, []]));
  const add = (id: InteractionId, ms: number) => runs.get(id)!.push(ms);
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE_EVENTS);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(`${url}/my-portfolios/${world.big.id}`);
    await page.locator(ROWS).first().waitFor({ timeout: 60_000 });

    // Search: keystrokes one after the other, then the box is emptied again.
    const search = page.getByLabel('Search artifacts');
    for (let r = 0; r < reps; r++) {
      await search.click();
      for (const key of 'Ramp') add('search', await timed(page, () => page.keyboard.press(key), () => page.waitForTimeout(50)));
      await search.fill('');
      await page.locator(ROWS).nth(5).waitFor();
    }
    // Filter By: a tick applies at once.
    for (let r = 0; r < reps; r++) {
      await page.getByRole('button', { name: 'Filter By' }).click();
      const box = page.getByRole('dialog', { name: 'Filter By' }).getByRole('checkbox', { name: 'Student work' });
      await box.waitFor();
      add('filter', await timed(page, () => box.click(), () => box.isChecked()));
      await box.click();
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('dialog', { name: 'Filter By' }).waitFor({ state: 'detached' });
    }
    // Selecting an artifact: a different row each time.
    for (let r = 0; r < reps; r++) {
      const row = page.locator(ROWS).nth(1 + (r % 5));
      const key = await row.getAttribute('data-row-key');
      add('select', await timed(page, () => row.click(), () => page.locator(`${ROWS}[data-row-key="${key}"][aria-selected=true]`).waitFor({ state: 'attached' })));
      // Stacked (narrow) layouts: the artifact took the table's place.
      if (width < 900) await page.getByRole('button', { name: /Back to artifacts/ }).click();
      await page.locator(ROWS).nth(5).waitFor();
    }
    // Compare: on, two picks (the second opens the side-by-side view), off.
    const compare = page.getByRole('checkbox', { name: 'Compare', exact: true });
    for (let r = 0; r < reps; r++) {
      add('compareOn', await timed(page, () => compare.check(), () => page.locator(ROWS).first().getByRole('checkbox').waitFor()));
      await page.locator(ROWS).nth(1).getByRole('checkbox').check();
      add('compareOpen', await timed(page, () => page.locator(ROWS).nth(2).getByRole('checkbox').check(), () => page.waitForTimeout(50)));
      await compare.uncheck();
      await page.locator(ROWS).first().getByRole('checkbox').waitFor({ state: 'detached' });
    }
    // The notification panel: opened, closed with Escape.
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    for (let r = 0; r < reps; r++) {
      if (width < 768) {
        // Phones open the feed as a page of its own.
        add('bell', await timed(page, () => bell.click(), () => page.waitForURL('**/notifications')));
        await page.goBack();
        await page.locator(ROWS).nth(5).waitFor();
      } else {
        add('bell', await timed(page, () => bell.click(), () => page.getByRole('banner').getByRole('dialog').waitFor()));
        await page.keyboard.press('Escape');
        await page.getByRole('banner').getByRole('dialog').waitFor({ state: 'detached' });
      }
    }

    // The shared artifact with the video: a marker starts the video there; a comment is posted.
    await page.goto(`${url}/shared-portfolios/${world.shared.plc}/artifacts/${world.shared.artifact}`);
    await page.waitForFunction('(document.querySelector("video")?.readyState ?? 0) >= 1', undefined, { timeout: 60_000 });
    const marker = page.getByRole('button', { name: world.shared.marker });
    for (let r = 0; r < reps; r++) {
      await page.evaluate('document.querySelector("video").currentTime = 0');
      add('marker', await timed(page, () => marker.click(), () => page.waitForFunction('Math.abs(document.querySelector("video").currentTime - 2) < 0.5')));
    }
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    for (let r = 0; r < reps; r++) {
      await box.fill(`Benchmark comment ${r + 1}`);
      add('comment', await timed(page, () => page.getByRole('button', { name: 'Post Comment' }).click(), () => page.getByText(`Benchmark comment ${r + 1}`).last().waitFor()));
      await page.waitForFunction('!document.querySelector("textarea")?.readOnly');
    }
  } finally {
    await context.close();
  }
  return INTERACTIONS.map(({ id }) => {
    const r = runs.get(id)!;
    return { width, throttle, id, runs: r.map(Math.round), median: Math.round(percentile(r, 50)), p75: Math.round(percentile(r, 75)) };
  });
}

/** Waits (polled every frame) until the table shows `rows` rows and one is drawn; returns the page's `performance.now()` then. */
async function tableDrawn(page: Page, rows: number): Promise<number> {
  const handle = await page.waitForFunction(
    `(() => { const g = document.querySelector('[role=grid][aria-label=Artifacts]'); return g && g.getAttribute('aria-rowcount') === '${rows + 1}' && g.querySelector('[role=row][aria-rowindex="2"]') ? performance.now() : 0; })()`,
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  return (await handle.jsonValue()) as number;
}

export interface PortfolioTimings {
  /** Navigation to `/my-portfolios/{big}` until its table is drawn, 1280 px, unthrottled (ms). */
  load: number[];
  /** Choosing the big portfolio in the selector (from another one) until its table is drawn, 1280 px, 4× slowdown (ms). */
  switchThrottled: number[];
  switchUnthrottled: number[];
}

/** Goal 2: My Portfolios on the big portfolio, loaded, and switched to in the selector. */
async function measurePortfolio(browser: Browser, url: string, cookies: Cookies, world: World, reps: number): Promise<PortfolioTimings> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: { cookies, origins: [] }, bypassCSP: true });
  const out: PortfolioTimings = { load: [], switchThrottled: [], switchUnthrottled: [] };
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // One unrecorded load: the scripts come from the cache after it, as on a teacher's second visit.
    await page.goto(`${url}/my-portfolios/${world.big.id}`);
    await tableDrawn(page, world.big.artifacts);
    for (let r = 0; r < reps; r++) {
      await page.goto(`${url}/my-portfolios/${world.other.id}`);
      await tableDrawn(page, world.other.artifacts);
      await page.goto(`${url}/my-portfolios/${world.big.id}`);
      out.load.push(Math.round(await tableDrawn(page, world.big.artifacts)));
    }
    for (const [rate, list] of [[4, out.switchThrottled], [1, out.switchUnthrottled]] as const) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const select = page.getByLabel('Select Portfolio');
      for (let r = 0; r < reps; r++) {
        await select.selectOption(String(world.other.id));
        await tableDrawn(page, world.other.artifacts);
        await page.waitForTimeout(200);
        const since = (await page.evaluate('performance.now()')) as number;
        await select.selectOption(String(world.big.id));
        list.push(Math.round((await tableDrawn(page, world.big.artifacts)) - since));
      }
    }
  } finally {
    await context.close();
  }
  return out;
}

/** Every interaction at 390 and 1280 px, unthrottled and at a 4× CPU slowdown, `reps` times each. */
export async function runInteractionsBench(size: DatasetSize, reps: number, executablePath: string, parts: { portfolio: boolean; interactions: boolean }) {
  ensureSpaBuilt();
  const { dataDir, emails } = await prepareDataDir(size);
  const server = await startServer(dataDir);
  const work = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-inp-'));
  let browser: Browser | null = null;
  try {
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const world = await prepare(server.url, jwt, work);
    browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
    const cookies = await signIn(browser, server.url, emails.teacherEmail);
    const portfolio = parts.portfolio ? await measurePortfolio(browser, server.url, cookies, world, reps) : null;
    if (portfolio) process.stdout.write(`  My Portfolios on ${world.big.artifacts} artifacts: load ${portfolio.load.join(', ')} ms; switch at 4× ${portfolio.switchThrottled.join(', ')} ms, 1× ${portfolio.switchUnthrottled.join(', ')} ms (load ${os.loadavg()[0]!.toFixed(2)})\n`);
    const results: InteractionResult[] = [];
    for (const throttle of parts.interactions ? [4, 1] : []) {
      for (const width of [390, 1280]) {
        const config = await measureConfig(browser, server.url, cookies, world, width, throttle, reps);
        for (const r of config) process.stdout.write(`  ${width} px, ${throttle}×: ${r.id} median ${r.median} ms, p75 ${r.p75} ms (load ${os.loadavg()[0]!.toFixed(2)})\n`);
        results.push(...config);
      }
    }
    return { results, portfolio, portfolioArtifacts: world.big.artifacts, version: `Chromium ${browser.version()}` };
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
