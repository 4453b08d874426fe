/**
 * The history's differences as a teacher feels them (decision 050): an artifact of 15 answers of
 * 2,500 characters saved three times through the API (each save changes words in every answer),
 * its page opened in Chromium at 1280 px, and the time from a click until the differences are
 * drawn (the first `<ins>` of the compared pair on screen), unthrottled and at a 4× CPU slowdown
 * (`Emulation.setCPUThrottlingRate`):
 *
 * - open: "Show history" until the newest version's differences from the one before are drawn
 *   (the panel's chunk from the cache, the list and both versions read, the diff computed);
 * - compare: "Show changes" of version 2 until its differences from version 1 are drawn (version 1
 *   read, version 2 already held);
 * - again: "Show changes" of version 3 (both versions held: no request) until drawn, the diff's
 *   own work in the browser.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openPostgres } from '../server/src/db/client.ts';
import { runningEmbedded } from '../server/src/db/embedded.ts';
import { longAnswerMaker } from '../server/test/longAnswers.ts';
import { signIn } from './benchWorld.ts';
import { BENCH_PASSWORD, SMALL } from './generate.ts';
import { ensureSpaBuilt, percentile, prepareDataDir, startServer, token } from './support.ts';

const QUESTIONS = 15;
const ANSWER_CHARS = 2500;
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];

export interface HistoryDiffTimings {
  rate: number;
  open: number[];
  compare: number[];
  /** Within each compare: the read of the version (`GET …/versions/1`, request to last byte). */
  compareRead: number[];
  /** Back to versions already read (no request): the diff computed and drawn alone. */
  again: number[];
}

export interface HistoryDiffResult {
  timings: HistoryDiffTimings[];
  /** Words changed per answer between two versions. */
  wordsChanged: number;
  version: string;
}

/** `text` with every `every`th word replaced (a revision that touches the whole answer). */
function revise(text: string, every: number, mark: string): string {
  return text
    .split(' ')
    .map((word, i) => (i % every === every - 1 ? `${mark}${i}` : word))
    .join(' ');
}

/** Clicks the button named `name` and answers, once drawn, the milliseconds until `region` holds an `<ins>`. */
async function clickUntilDrawn(page: Page, name: string, region: string): Promise<number> {
  await page.evaluate((label) => {
    const button = [...document.querySelectorAll('button')].find(
      (b) => b.getAttribute('aria-label') === label || b.textContent === label,
    );
    if (!button) throw new Error(`no button ${label}`);
    (window as unknown as { clickedAt: number }).clickedAt = performance.now();
    button.click();
  }, name);
  const handle = await page.waitForFunction(
    (heading) => {
      const h = [...document.querySelectorAll('h4, h5')].find((el) => el.textContent === heading);
      const drawn = h?.closest('section')?.querySelector('ins');
      return drawn ? performance.now() - (window as unknown as { clickedAt: number }).clickedAt : 0;
    },
    region,
    { polling: 'raf', timeout: 30_000 },
  );
  return Math.round((await handle.jsonValue()) as number);
}

async function measure(
  browser: Browser,
  url: string,
  where: string,
  cookies: Awaited<ReturnType<typeof signIn>>,
  reps: number,
) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    storageState: { cookies, origins: [] },
  });
  const timings: HistoryDiffTimings[] = [];
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // One unrecorded round: the scripts come from the cache after it.
    await page.goto(`${url}${where}`);
    await page.getByRole('button', { name: 'Show history' }).waitFor();
    await clickUntilDrawn(page, 'Show history', 'Changes from version 2 to version 3');
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const t: HistoryDiffTimings = { rate, open: [], compare: [], compareRead: [], again: [] };
      for (let r = 0; r < reps; r += 1) {
        await page.goto(`${url}${where}`);
        await page.getByRole('button', { name: 'Show history' }).waitFor();
        await page.waitForLoadState('networkidle');
        t.open.push(await clickUntilDrawn(page, 'Show history', 'Changes from version 2 to version 3'));
        t.compare.push(await clickUntilDrawn(page, 'Show changes of version 2', 'Changes from version 1 to version 2'));
        t.compareRead.push(
          Math.round(
            (await page.evaluate(() => {
              const reads = performance
                .getEntriesByType('resource')
                .filter((e) => e.name.endsWith('/versions/1')) as PerformanceResourceTiming[];
              const last = reads.at(-1);
              return last ? last.responseEnd - last.startTime : 0;
            })) as number,
          ),
        );
        t.again.push(await clickUntilDrawn(page, 'Show changes of version 3', 'Changes from version 2 to version 3'));
      }
      timings.push(t);
      process.stdout.write(
        `  history diff at ${rate}×: open ${t.open.join(', ')} ms; compare ${t.compare.join(', ')} ms (its read ${t.compareRead.join(', ')} ms); again ${t.again.join(', ')} ms (load ${os.loadavg()[0]!.toFixed(2)})\n`,
      );
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  } finally {
    await context.close();
  }
  return timings;
}

/** Three versions of a 15-answer artifact, then `reps` clicks of each kind at 1× and 4×. */
export async function runHistoryDiffBench(reps: number, executablePath: string): Promise<HistoryDiffResult> {
  ensureSpaBuilt();
  const { dataDir, emails } = await prepareDataDir(SMALL);
  const server = await startServer(dataDir);
  const connection = runningEmbedded(path.join(dataDir, 'db'));
  if (!connection) throw new Error('the embedded database of the running server cannot be reached');
  const db = openPostgres(connection, { max: 1 });
  let browser: Browser | null = null;
  try {
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const structure = [
      { key: 'artifactName', text: 'Artifact Name', type: 'shortText' },
      ...Array.from({ length: QUESTIONS }, (_, i) => ({ key: `q${i}`, text: `Question ${i + 1}`, type: 'longText' })),
    ];
    const answer = longAnswerMaker(7, ANSWER_CHARS);
    const first: Record<string, string> = { artifactName: 'History diff' };
    for (let i = 0; i < QUESTIONS; i += 1) first[`q${i}`] = answer();
    const { rows } = await db.query<{ id: number; portfolio_id: number }>(
      `WITH p AS (
         INSERT INTO portfolios (owner_id, name, structure) SELECT id, 'History diff bench', $2::jsonb FROM users WHERE email = $1 RETURNING id, structure
       )
       INSERT INTO artifacts (portfolio_id, structure, responses, parking_lot) SELECT p.id, p.structure, '{}'::jsonb, false FROM p RETURNING id, portfolio_id`,
      [emails.teacherEmail, JSON.stringify(structure)],
    );
    const { id, portfolio_id: portfolioId } = rows[0]!;
    const every = 25;
    const revised = (from: Record<string, string>, step: number, mark: string) =>
      Object.fromEntries(Object.entries(from).map(([k, v]) => [k, k === 'artifactName' ? v : revise(v, step, mark)]));
    const second = revised(first, every, 'second');
    const third = revised(second, every + 3, 'third');
    // Three saves: versions 1, 2 and 3.
    for (const responses of [first, second, third]) {
      const res = await fetch(`${server.url}/api/v1/artifacts/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify({ responses }),
      });
      if (!res.ok) throw new Error(`PUT /artifacts/${id}: ${res.status} ${await res.text()}`);
    }
    browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
    const cookies = await signIn(browser, server.url, emails.teacherEmail);
    const timings = await measure(browser, server.url, `/my-portfolios/${portfolioId}/artifacts/${id}`, cookies, reps);
    const words = first['q0']!.split(' ').length;
    return { timings, wordsChanged: Math.round(words / every), version: `Chromium ${browser.version()}` };
  } finally {
    await browser?.close();
    await db.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The median and the slowest of some timings. */
export const summarise = (values: readonly number[]) => ({
  median: Math.round(percentile(values, 50)),
  max: Math.max(...values),
});
