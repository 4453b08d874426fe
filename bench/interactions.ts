/**
 * Interactions as a teacher feels them: Interaction to Next Paint of single interactions, from the
 * Event Timing API (the entries of one `interactionId`: from the input until the next paint after
 * its handlers ran, the figure web-vitals' INP reports), in Chromium at 390 and 1280 px, with the
 * CPU unthrottled and slowed 4× through the DevTools protocol (`Emulation.setCPUThrottlingRate`),
 * on the data set's biggest portfolio of a teacher: a keystroke in search, a Filter By choice,
 * selecting an artifact, compare (turning it on, and the second pick that opens the side-by-side
 * view), posting a comment, opening the notification panel and starting a video at a marker.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { ensureSpaBuilt, prepareDataDir, startServer, token } from './support.ts';
import { prepare, signIn, type Cookies, type World } from './benchWorld.ts';
import { measureConfig, type InteractionResult } from './inp.ts';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--autoplay-policy=no-user-gesture-required',
];

/** Waits (polled every frame) until the table shows `rows` rows and one is drawn; returns the page's `performance.now()` then. */
async function tableDrawn(page: Page, rows: number): Promise<number> {
  const handle = await page.waitForFunction(
    `(() => { const g = document.querySelector('[role=grid][aria-label=Artifacts]'); return g && g.getAttribute('aria-rowcount') === '${rows + 1}' && g.querySelector('[role=row][aria-rowindex="2"]') ? performance.now() : 0; })()`,
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  return (await handle.jsonValue()) as number;
}

/** Where one load's time went, from the Resource Timing entries of the page's reads of the portfolio. */
export interface LoadParts {
  /** Navigation until the first of them was sent (ms). */
  asked: number;
  /** Navigation until the last of them was answered (ms). */
  answered: number;
  /** Navigation until the table was drawn (ms). */
  drawn: number;
  /** Their bytes on the wire and decoded (both reads). */
  wireBytes: number;
  bodyBytes: number;
}

/** The `GET /portfolios…` reads of the page just loaded, measured with the table drawn at `drawn`. */
async function loadParts(page: Page, drawn: number): Promise<LoadParts> {
  const reads = (await page.evaluate(
    `performance.getEntriesByType('resource').filter((e) => /\\/api\\/v1\\/portfolios/.test(e.name)).map((e) => [e.startTime, e.responseEnd, e.transferSize, e.decodedBodySize])`,
  )) as [number, number, number, number][];
  if (reads.length === 0) throw new Error('the page read no portfolio');
  return {
    asked: Math.round(Math.min(...reads.map((r) => r[0]))),
    answered: Math.round(Math.max(...reads.map((r) => r[1]))),
    drawn: Math.round(drawn),
    wireBytes: reads.reduce((sum, r) => sum + r[2], 0),
    bodyBytes: reads.reduce((sum, r) => sum + r[3], 0),
  };
}

export interface PortfolioTimings {
  /** Navigation to `/my-portfolios/{big}` until its table is drawn, 1280 px, unthrottled (ms). */
  load: number[];
  /** Each of those loads in parts. */
  loadParts: LoadParts[];
  /** Choosing the big portfolio in the selector (from another one) until its table is drawn, 1280 px, 4× slowdown (ms). */
  switchThrottled: number[];
  switchUnthrottled: number[];
}

/** Goal 2: My Portfolios on the big portfolio, loaded, and switched to in the selector. */
async function measurePortfolio(
  browser: Browser,
  url: string,
  cookies: Cookies,
  world: World,
  reps: number,
): Promise<PortfolioTimings> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    storageState: { cookies, origins: [] },
    bypassCSP: true,
  });
  const out: PortfolioTimings = { load: [], loadParts: [], switchThrottled: [], switchUnthrottled: [] };
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
      const drawn = await tableDrawn(page, world.big.artifacts);
      out.load.push(Math.round(drawn));
      out.loadParts.push(await loadParts(page, drawn));
    }
    for (const [rate, list] of [
      [4, out.switchThrottled],
      [1, out.switchUnthrottled],
    ] as const) {
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
export async function runInteractionsBench(
  size: DatasetSize,
  reps: number,
  executablePath: string,
  parts: { portfolio: boolean; interactions: boolean },
) {
  ensureSpaBuilt();
  const { dataDir, emails } = await prepareDataDir(size);
  const server = await startServer(dataDir);
  let browser: Browser | null = null;
  try {
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const world = await prepare(server.url, jwt);
    browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
    const cookies = await signIn(browser, server.url, emails.teacherEmail);
    const portfolio = parts.portfolio ? await measurePortfolio(browser, server.url, cookies, world, reps) : null;
    if (portfolio)
      process.stdout.write(
        `  My Portfolios on ${world.big.artifacts} artifacts: load ${portfolio.load.join(', ')} ms; switch at 4× ${portfolio.switchThrottled.join(', ')} ms, 1× ${portfolio.switchUnthrottled.join(', ')} ms (load ${os.loadavg()[0]!.toFixed(2)})\n`,
      );
    const results: InteractionResult[] = [];
    for (const throttle of parts.interactions ? [4, 1] : []) {
      for (const width of [390, 1280]) {
        const config = await measureConfig(browser, server.url, cookies, world, width, throttle, reps);
        for (const r of config)
          process.stdout.write(
            `  ${width} px, ${throttle}×: ${r.id} median ${r.median} ms, p75 ${r.p75} ms (load ${os.loadavg()[0]!.toFixed(2)})\n`,
          );
        results.push(...config);
      }
    }
    return { results, portfolio, portfolioArtifacts: world.big.artifacts, version: `Chromium ${browser.version()}` };
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
