/**
 * Cold loads in Chromium: a new browser context (empty cache, no cookies) opens a page; the
 * bytes on the wire (the sum of CDP `Network.loadingFinished` `encodedDataLength`: headers and
 * bodies as sent, compressed when the server compresses), the number of requests, the first
 * contentful paint and the time until the last request of the load has finished. The floor is a
 * static one-line HTML page from a bare Node.js http server.
 */
import http from 'node:http';
import { rmSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { signIn, type Cookies } from './benchWorld.ts';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { ensureSpaBuilt, freePort, median, prepareDataDir, startServer, token } from './support.ts';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The network stays quiet this long after the last request: the load is over. */
const QUIET_MS = 500;

export interface PageLoad {
  bytes: number;
  requests: number;
  /** First contentful paint, ms after navigation start. */
  fcp: number;
  /**
   * When the app first drew its page (its `<main>` entered the document, replacing the frame
   * `index.html` paints before the script runs), ms after navigation start; 0 for the floor.
   */
  drawn: number;
  /** When the last request of the load finished, ms after the first one started. */
  doneMs: number;
  /** The HTML's arrival (navigation `responseEnd`), the first script's request and the end of parsing (`domInteractive`), ms after navigation start. */
  htmlEnd: number;
  firstScript: number;
  domInteractive: number;
}

export interface PageResult extends PageLoad {
  name: string;
  path: string;
  loads: number;
}

async function coldLoad(browser: Browser, url: string, cookies: Cookies): Promise<PageLoad> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    storageState: { cookies, origins: [] },
  });
  try {
    const page = await context.newPage();
    // A string, not a function: the TypeScript runner would name the function's inner arrows with
    // a helper the page does not have.
    await page.addInitScript(
      "new MutationObserver(() => { if (window.__drawn === undefined && document.querySelector('main')) window.__drawn = performance.now(); }).observe(document, { childList: true, subtree: true });",
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const inflight = new Set<string>();
    let bytes = 0;
    let requests = 0;
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    let lastActivity = Date.now();
    const refused: string[] = [];
    cdp.on('Network.requestWillBeSent', (e) => {
      if (!/^https?:/.test(e.request.url)) return;
      requests += 1;
      if (e.redirectResponse) bytes += e.redirectResponse.encodedDataLength;
      inflight.add(e.requestId);
      first = Math.min(first, e.timestamp);
      lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', (e) => {
      if (e.response.status >= 400 && !e.response.url.endsWith('/favicon.ico'))
        refused.push(`${e.response.status} ${e.response.url}`);
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (!inflight.delete(e.requestId)) return;
      bytes += e.encodedDataLength;
      last = Math.max(last, e.timestamp);
      lastActivity = Date.now();
    });
    cdp.on('Network.loadingFailed', (e) => {
      if (inflight.delete(e.requestId)) lastActivity = Date.now();
    });
    // As a fresh visitor's first page: a new context, loaded until the network is idle.
    await page.goto(url, { waitUntil: 'networkidle' });
    const deadline = Date.now() + 30_000;
    while ((inflight.size > 0 || Date.now() - lastActivity < QUIET_MS) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const landed = new URL(page.url()).pathname;
    if (landed !== new URL(url).pathname) throw new Error(`${url} ended on ${landed}`);
    if (refused.length > 0) throw new Error(`${url}: refused requests: ${refused.join(', ')}`);
    const fcp = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const seen = performance.getEntriesByName('first-contentful-paint')[0];
          if (seen) return resolve(seen.startTime);
          new PerformanceObserver((list) => {
            const entry = list.getEntriesByName('first-contentful-paint')[0];
            if (entry) resolve(entry.startTime);
          }).observe({ type: 'paint', buffered: true });
          setTimeout(() => reject(new Error('no first contentful paint')), 10_000);
        }),
    );
    const drawn = await page.evaluate(() => (window as unknown as { __drawn?: number }).__drawn ?? 0);
    const phases = (await page.evaluate(
      "(() => { const n = performance.getEntriesByType('navigation')[0]; const s = performance.getEntriesByType('resource').filter((e) => /\\.js$/.test(e.name)); return [n.responseEnd, s.length ? Math.min(...s.map((e) => e.startTime)) : 0, n.domInteractive]; })()",
    )) as [number, number, number];
    return {
      bytes,
      requests,
      fcp,
      drawn,
      doneMs: (last - first) * 1000,
      htmlEnd: phases[0],
      firstScript: phases[1],
      domInteractive: phases[2],
    };
  } finally {
    await context.close();
  }
}

function summarise(name: string, url: string, loads: number, runs: PageLoad[]): PageResult {
  const result = {
    name,
    path: new URL(url).pathname,
    loads,
    bytes: median(runs.map((r) => r.bytes)),
    requests: median(runs.map((r) => r.requests)),
    fcp: Math.round(median(runs.map((r) => r.fcp))),
    drawn: Math.round(median(runs.map((r) => r.drawn))),
    doneMs: Math.round(median(runs.map((r) => r.doneMs))),
    htmlEnd: Math.round(median(runs.map((r) => r.htmlEnd))),
    firstScript: Math.round(median(runs.map((r) => r.firstScript))),
    domInteractive: Math.round(median(runs.map((r) => r.domInteractive))),
  };
  process.stdout.write(
    `  ${name}: ${(result.bytes / 1000).toFixed(1)} kB in ${result.requests} requests, HTML ${result.htmlEnd} ms, first script ${result.firstScript} ms, parsed ${result.domInteractive} ms, FCP ${result.fcp} ms, drawn ${result.drawn} ms, done ${result.doneMs} ms\n`,
  );
  return result;
}

async function measure(
  browser: Browser,
  name: string,
  url: string,
  cookies: Cookies,
  loads: number,
): Promise<PageResult> {
  await coldLoad(browser, url, cookies); // the server's first answer of each file is not a visitor's
  const runs: PageLoad[] = [];
  for (let i = 0; i < loads; i++) runs.push(await coldLoad(browser, url, cookies));
  return summarise(name, url, loads, runs);
}

/** Two pages loaded in turn (a, b, a, b, …), so that both meet the same moments of the machine's load. */
async function measurePair(
  browser: Browser,
  a: [string, string],
  b: [string, string],
  loads: number,
): Promise<[PageResult, PageResult]> {
  await coldLoad(browser, a[1], []);
  await coldLoad(browser, b[1], []);
  const runsA: PageLoad[] = [];
  const runsB: PageLoad[] = [];
  for (let i = 0; i < loads; i++) {
    runsA.push(await coldLoad(browser, a[1], []));
    runsB.push(await coldLoad(browser, b[1], []));
  }
  return [summarise(a[0], a[1], loads, runsA), summarise(b[0], b[1], loads, runsB)];
}

/** The floor: a one-line HTML page from a bare Node.js http server. */
async function staticFloor(): Promise<{ url: string; close: () => Promise<void> }> {
  const html = '<!doctype html><html lang="en"><title>PracticeFolio</title><p>PracticeFolio</p></html>';
  const server = http.createServer((request, response) => {
    if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else response.writeHead(404).end();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Cold loads (median of `loads`, after one unrecorded) of the static floor, `/login`,
 * `/dashboard` signed in, and the two largest pages: a portfolio and a shared portfolio with all
 * their artifacts. Signed in: each new context starts with the session cookies of one sign-in.
 */
export async function runBrowserBench(size: DatasetSize, loads: number, executablePath: string) {
  ensureSpaBuilt();
  const { dataDir, emails } = await prepareDataDir(size);
  const server = await startServer(dataDir);
  const floor = await staticFloor();
  let browser: Browser | null = null;
  try {
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const auth = { authorization: `Bearer ${jwt}` };
    const portfolios = (await (await fetch(`${server.url}/api/v1/portfolios`, { headers: auth })).json()) as {
      id: number;
      artifacts: unknown[];
    }[];
    const shared = (await (await fetch(`${server.url}/api/v1/shared-portfolios`, { headers: auth })).json()) as {
      id: number;
    }[];
    const portfolio = portfolios.reduce((a, b) => (b.artifacts.length > a.artifacts.length ? b : a));
    const sharedOne = (await (
      await fetch(`${server.url}/api/v1/shared-portfolios/${shared[0]!.id}`, { headers: auth })
    ).json()) as { id: number; sharedArtifacts: unknown[] };
    browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
    const session = await signIn(browser, server.url, emails.teacherEmail);
    const pages = [
      ...(await measurePair(
        browser,
        ['static one-line page (floor)', floor.url],
        ['sign-in page', `${server.url}/login`],
        loads,
      )),
      await measure(browser, 'dashboard, signed in', `${server.url}/dashboard`, session, loads),
      await measure(
        browser,
        `a portfolio (${portfolio.artifacts.length} artifacts)`,
        `${server.url}/my-portfolios/${portfolio.id}`,
        session,
        loads,
      ),
      await measure(
        browser,
        `a shared portfolio (${sharedOne.sharedArtifacts.length} artifacts)`,
        `${server.url}/shared-portfolios/${sharedOne.id}`,
        session,
        loads,
      ),
    ];
    return { pages, version: `Chromium ${browser.version()}` };
  } finally {
    await browser?.close();
    await floor.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
