/**
 * Lighthouse (its mobile preset: a mid-range phone on a slow 4G link, simulated) on `/login`, and
 * signed in (the session cookies of one sign-in, sent with every request) on the dashboard, My
 * Portfolios on the teacher's biggest portfolio and a shared artifact with a video. Debian's
 * Chromium through chrome-launcher (`--chromium`, else CHROMIUM_PATH or /usr/bin/chromium):
 * nothing is downloaded. Each page `runs` times; the median of each category's score. The last
 * run's report of each page is left in the temporary folder (`pf-lighthouse-<page>.json`).
 */
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { prepare } from './benchWorld.ts';
import { ensureSpaBuilt, median, prepareDataDir, startServer, token } from './support.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LighthouseResult {
  name: string;
  path: string;
  /** Scores 0–100 (median of the runs) per category. */
  scores: Record<Category, number>;
  /** Each run's performance score. */
  performanceRuns: number[];
  /** The metrics of the run with the median performance score, and the load average as it ended. */
  metrics: RunMetrics;
  /** The audits that kept a category under 100 in the last run (id and title). */
  failing: { category: Category; id: string; title: string }[];
}

/**
 * The metrics the performance score is made of (simulated, ms; CLS unitless). The simulation
 * multiplies the main-thread tasks it observed by the preset's CPU slowdown (4×), so TBT, and
 * through the tasks before them FCP and LCP, follow the machine's load: hence the load average.
 */
export interface RunMetrics {
  fcp: number;
  lcp: number;
  tbt: number;
  si: number;
  cls: number;
  load: number;
  /**
   * Lighthouse's own measure of the host's CPU (`environment.benchmarkIndex`: a fixed piece of
   * JavaScript timed before the page loads; higher is faster). The same code scores differently
   * on machines of one kind: this tells a slower machine from slower code.
   */
  cpu: number;
}

/** The metrics of one report. */
function metricsOf(lhr: {
  audits: Record<string, { numericValue?: number } | undefined>;
  environment?: { benchmarkIndex?: number };
}): RunMetrics {
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    fcp: Math.round(value('first-contentful-paint')),
    lcp: Math.round(value('largest-contentful-paint')),
    tbt: Math.round(value('total-blocking-time')),
    si: Math.round(value('speed-index')),
    cls: Math.round(value('cumulative-layout-shift') * 1000) / 1000,
    load: Math.round(os.loadavg()[0]! * 100) / 100,
    cpu: Math.round(lhr.environment?.benchmarkIndex ?? Number.NaN),
  };
}

/** The cookies of one sign-in as the web app makes it (`name=value` each). */
async function sessionCookies(origin: string, email: string): Promise<string[]> {
  const res = await fetch(`${origin}/api/v1/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-practicefolio-client': 'web' },
    body: JSON.stringify({ identifier: email, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { jwt?: string };
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (body.jwt && !cookies.some((c) => c.startsWith('jwt='))) cookies.push(`jwt=${body.jwt}`);
  return cookies;
}

/**
 * Before each run: an empty cache and no cookies, then the session's cookies where the page is
 * signed in (set in the browser, where the app's script reads them too). Lighthouse's own reset
 * of the origin's storage is turned off, as it would clear them.
 */
async function freshVisit(port: number, origin: string, cookies: string[]): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await context.clearCookies();
    const { hostname } = new URL(origin);
    if (cookies.length > 0)
      await context.addCookies(
        cookies.map((c) => ({
          name: c.slice(0, c.indexOf('=')),
          value: c.slice(c.indexOf('=') + 1),
          domain: hostname,
          path: '/',
        })),
      );
    await cdp.detach();
  } finally {
    // Only the connection ends: the browser is chrome-launcher's.
    await browser.close();
  }
}

async function audit(
  port: number,
  name: string,
  url: string,
  cookies: string[],
  runs: number,
): Promise<LighthouseResult> {
  const all: Record<Category, number>[] = [];
  const metrics: RunMetrics[] = [];
  let failing: LighthouseResult['failing'] = [];
  for (let i = 0; i < runs; i++) {
    await freshVisit(port, new URL(url).origin, cookies);
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      disableStorageReset: true,
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) {
      // A run Lighthouse could not complete scores 0: reported, not counted.
      process.stdout.write(
        `  ${name}: run ${i + 1} failed (${lhr.runtimeError.code}: ${lhr.runtimeError.message}); not counted\n`,
      );
      continue;
    }
    // The last run's whole report, to read what a score is made of.
    writeFileSync(
      path.join(os.tmpdir(), `pf-lighthouse-${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.json`),
      JSON.stringify(lhr),
    );
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname)
      throw new Error(`${url} ended on ${lhr.finalDisplayedUrl}`);
    metrics.push(metricsOf(lhr));
    all.push(
      Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<
        Category,
        number
      >,
    );
    failing = CATEGORIES.filter((c) => c !== 'performance').flatMap((category) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => ({ category, id: ref.id, title: lhr.audits[ref.id]?.title ?? ref.id })),
    );
  }
  if (all.length === 0) throw new Error(`Lighthouse could not complete a run of ${url}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(all.map((s) => s[c]))])) as Record<
    Category,
    number
  >;
  // The run whose performance score is the median (the lower middle one of an even count).
  const order = all.map((s, i) => [s.performance, i] as const).sort((a, b) => a[0] - b[0]);
  const middle = metrics[order[Math.floor((order.length - 1) / 2)]![1]]!;
  process.stdout.write(
    `  ${name}: ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(', ')} (performance ${all.map((s) => s.performance).join(', ')}; FCP ${middle.fcp} ms, LCP ${middle.lcp} ms, TBT ${middle.tbt} ms, SI ${middle.si} ms, CLS ${middle.cls}; load ${middle.load.toFixed(2)}; CPU index ${middle.cpu})\n`,
  );
  return {
    name,
    path: new URL(url).pathname,
    scores,
    performanceRuns: all.map((s) => s.performance),
    metrics: middle,
    failing,
  };
}

/** Lighthouse's scores of `/login` and the three signed-in pages, `runs` times each. */
export async function runLighthouseBench(size: DatasetSize, runs: number, chromePath: string) {
  ensureSpaBuilt();
  const { dataDir, emails } = await prepareDataDir(size);
  const server = await startServer(dataDir);
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  try {
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const world = await prepare(server.url, jwt);
    const cookies = await sessionCookies(server.url, emails.teacherEmail);
    chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const pages: [string, string, string[]][] = [
      ['/login', '/login', []],
      ['dashboard', '/dashboard', cookies],
      [`My Portfolios on ${world.big.artifacts} artifacts`, `/my-portfolios/${world.big.id}`, cookies],
      [
        'a shared artifact with a video',
        `/shared-portfolios/${world.shared.plc}/artifacts/${world.shared.artifact}`,
        cookies,
      ],
    ];
    const results: LighthouseResult[] = [];
    for (const [name, route, withCookie] of pages)
      results.push(await audit(chrome.port, name, `${server.url}${route}`, withCookie, runs));
    return {
      results,
      version: ((await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as { Browser: string })
        .Browser,
    };
  } finally {
    chrome?.kill();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
