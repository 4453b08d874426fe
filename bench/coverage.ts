/**
 * The coverage map (decision 056) at the data set's size: the researchers' map of every teacher
 * (1,000 × 8 practices on the large set) through the API of the real server — p50 and p99 of
 * sequential requests, and the SQL statements of one — and its drawing in Chromium: from the
 * moment the map's answer arrived (its Resource Timing `responseEnd`) until the table holding
 * every row was in the page and a frame was painted, at 1× and 4× CPU. Beside it, the researcher's
 * charts of the whole installation (`GET /insights`), measured like the map's API.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { openPostgres } from '../server/src/db/client.ts';
import { runningEmbedded } from '../server/src/db/embedded.ts';
import { signIn } from './benchWorld.ts';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { ensureSpaBuilt, percentile, prepareDataDir, startServer, token } from './support.ts';

export interface CoverageResult {
  rows: number;
  columns: number;
  bytes: number;
  statements: number;
  api: Record<string, { p50: number; p99: number }>;
  /** The researcher's charts of the whole installation (`GET /insights`, decision 057), read the same way. */
  insights: { p50: number; p99: number; bytes: number; statements: number };
  /** Per CPU rate: the drawing after the data arrived, each load, ms. */
  render: { rate: number; times: number[] }[];
  version: string;
}

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];
const MAP = '/coverage?scope=installation&rows=teachers&dimension=practices';
/** Reads of the charts' numbers (seconds each before decision 062: fewer than the map's 200). */
export const INSIGHTS_READS = 30;
const ms = (value: number) => Math.round(value * 10) / 10;

/** `reads` sequential reads of `url` after `warm` (20) unrecorded ones: p50 and p99, ms. */
async function timed(base: string, jwt: string, url: string, reads: number, warm = 20) {
  const times: number[] = [];
  for (let i = 0; i < reads + warm; i += 1) {
    const started = performance.now();
    const res = await fetch(`${base}/api/v1${url}`, { headers: { authorization: `Bearer ${jwt}` } });
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  const kept = times.slice(warm);
  return { p50: ms(percentile(kept, 50)), p99: ms(percentile(kept, 99)) };
}

/** Loads `/coverage` `reps` times (after one unrecorded load) at each CPU rate: data arrived → table painted. */
async function drawing(browser: Browser, url: string, email: string, reps: number) {
  const cookies = await signIn(browser, url, email);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    storageState: { cookies, origins: [] },
  });
  // Records when the map's table first holds its rows, and the end of the frame after it.
  await context.addInitScript(() => {
    const w = window as unknown as { mapDrawn?: number; mapPainted?: number };
    new MutationObserver((_, observer) => {
      if (w.mapDrawn !== undefined) return;
      const table = document.querySelector('table[data-rows]');
      if (!table || table.querySelectorAll('tbody button').length === 0) return;
      w.mapDrawn = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => (w.mapPainted = performance.now()), 0));
    }).observe(document, { childList: true, subtree: true });
  });
  const render: CoverageResult['render'] = [];
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const once = async () => {
      await page.goto(`${url}/coverage`);
      await page.waitForFunction(
        () => (window as unknown as { mapPainted?: number }).mapPainted !== undefined,
        undefined,
        {
          timeout: 60_000,
        },
      );
      return page.evaluate(() => {
        const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) =>
          e.name.includes('/api/v1/coverage?'),
        );
        if (!entry) throw new Error('the map was not read');
        return Math.round((window as unknown as { mapPainted: number }).mapPainted - entry.responseEnd);
      });
    };
    await once();
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const times: number[] = [];
      for (let r = 0; r < reps; r += 1) times.push(await once());
      render.push({ rate, times });
      process.stdout.write(
        `  coverage map drawn at ${rate}×: ${times.join(', ')} ms (load ${os.loadavg()[0]!.toFixed(2)})\n`,
      );
    }
  } finally {
    await context.close();
  }
  return render;
}

export async function runCoverageBench(
  size: DatasetSize,
  reps: number,
  reads: number,
  executablePath: string,
): Promise<CoverageResult> {
  ensureSpaBuilt();
  const { dataDir, emails } = await prepareDataDir(size);
  const server = await startServer(dataDir, { QUERY_COUNT_HEADER: 'true' });
  const connection = runningEmbedded(path.join(dataDir, 'db'));
  if (!connection) throw new Error('the embedded database of the running server cannot be reached');
  const db = openPostgres(connection, { max: 1 });
  let browser: Browser | null = null;
  try {
    // The generated rows were all just inserted: vacuumed and analysed, as autovacuum leaves
    // them on a running installation (the map's index-only scans need the visibility map, and
    // the counts kept by triggers were rewritten once per artifact and score generated).
    for (const table of [
      'artifacts',
      'shared_artifacts',
      'scores',
      'portfolios',
      'users',
      'portfolio_tag_counts',
      'score_level_counts',
    ])
      await db.query(`VACUUM (ANALYZE) ${table}`);
    const jwt = await token(server.url, emails.researcherEmail, BENCH_PASSWORD);
    const first = await fetch(`${server.url}/api/v1${MAP}`, { headers: { authorization: `Bearer ${jwt}` } });
    const body = (await first.json()) as { rows: unknown[]; columns: unknown[] };
    const again = await fetch(`${server.url}/api/v1${MAP}`, { headers: { authorization: `Bearer ${jwt}` } });
    const bytes = (await again.arrayBuffer()).byteLength;
    const statements = Number(again.headers.get('x-query-count'));
    const { rows: teacher } = await db.query<{ id: number }>(
      `SELECT p.owner_id AS id FROM portfolios p GROUP BY p.owner_id ORDER BY count(*) DESC, p.owner_id LIMIT 1`,
    );
    const api = {
      'installation, teachers × practices': await timed(server.url, jwt, MAP, reads),
      'installation, shared portfolios × core ideas': await timed(
        server.url,
        jwt,
        '/coverage?scope=installation&rows=portfolios&dimension=coreIdeas',
        reads,
      ),
      'one teacher, her portfolios × practices': await timed(
        server.url,
        jwt,
        `/coverage?scope=teacher&id=${teacher[0]!.id}&rows=portfolios`,
        reads,
      ),
      'a cell’s artifacts (first page)': await timed(
        server.url,
        jwt,
        `/coverage/artifacts?scope=installation&row=${teacher[0]!.id}&column=SEP2`,
        reads,
      ),
    };
    const insightsOnce = await fetch(`${server.url}/api/v1/insights`, { headers: { authorization: `Bearer ${jwt}` } });
    const insights = {
      ...(await timed(server.url, jwt, '/insights', INSIGHTS_READS, 3)),
      bytes: (await insightsOnce.arrayBuffer()).byteLength,
      statements: Number(insightsOnce.headers.get('x-query-count')),
    };
    browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
    const render = await drawing(browser, server.url, emails.researcherEmail, reps);
    return {
      rows: body.rows.length,
      columns: body.columns.length,
      bytes,
      statements,
      api,
      insights,
      render,
      version: `Chromium ${browser.version()}`,
    };
  } finally {
    await browser?.close();
    await db.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
