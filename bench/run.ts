/**
 * Runs the benchmarks and writes `bench/RESULTS.md`: every figure next to its goal, marked met or
 * not met, with a summary of the goals first.
 *
 *   npm run bench                                  # everything, large data set (about 20 minutes)
 *   npm run bench -- --size small --seconds 2      # a quick run on the small data set
 *   npm run bench -- --only api,browser            # some parts (see PARTS)
 *   npm run bench -- --seconds 5 --loads 3 --boots 3
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runApiBench, type EndpointResult } from './api.ts';
import { runBrowserBench, type PageResult } from './browser.ts';
import { runBundleBench } from './bundle.ts';
import { runExportBench } from './exports.ts';
import { runFilterBench } from './filter.ts';
import { GOAL_UNTHROTTLED_MS, INTERACTIONS, runInteractionsBench } from './interactions.ts';
import { LARGE, SMALL, type DatasetSize } from './generate.ts';
import { CATEGORIES, runLighthouseBench } from './lighthouse.ts';
import { runLoginBench } from './login.ts';
import { runMemoryBench, type MemoryResult } from './memory.ts';
import { runNotifyBench } from './notify.ts';
import { runResearchBench } from './research.ts';
import { mergeResults } from './results.ts';
import { PHASES, runStartupBench } from './startup.ts';
import { machine, median, ROOT } from './support.ts';
import { runUploadBench } from './upload.ts';

const PARTS = [
  'api',
  'browser',
  'portfolio',
  'interactions',
  'lighthouse',
  'startup',
  'memory',
  'bundle',
  'upload',
  'exports',
  'research',
  'login',
  'filter',
  'notify',
];

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: 'large' },
    only: { type: 'string', default: PARTS.join(',') },
    seconds: { type: 'string', default: '10' },
    loads: { type: 'string', default: '5' },
    boots: { type: 'string', default: '5' },
    reps: { type: 'string', default: '5' },
    'lighthouse-runs': { type: 'string', default: '3' },
    'upload-mib': { type: 'string', default: '1024' },
    chromium: { type: 'string', default: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' },
    out: { type: 'string', default: path.join(ROOT, 'bench', 'RESULTS.md') },
  },
});
const only = new Set(values.only.split(','));
for (const part of only)
  if (!PARTS.includes(part)) throw new Error(`unknown part ${part}; the parts are ${PARTS.join(', ')}`);
const sizeName = values.size === 'small' ? 'small' : 'large';
const size = sizeName === 'small' ? SMALL : LARGE;
/** The data sets of the parts measured at both sizes: the small one, and the large one unless `--size small`. */
const sizes: [string, DatasetSize][] =
  sizeName === 'small'
    ? [['small', SMALL]]
    : [
        ['small', SMALL],
        ['large', LARGE],
      ];
const seconds = Number(values.seconds);
const loads = Number(values.loads);
const boots = Number(values.boots);
const reps = Number(values.reps);
const uploadBytes = Number(values['upload-mib']) * 1024 * 1024;

const GOALS = {
  meShareOfBare: 30,
  portfoliosSmallRps: 630,
  shareOfPgFloor: 50,
  loginWireKb: 100,
  loginRequests: 8,
  loginFcpOverFloorMs: 100,
  restartMs: 1000,
  firstBootMs: 3000,
  stopMs: 5000,
  portfolioMs: 500,
  largestProcessMb: 150,
  allProcessesMb: 250,
  lighthouseLogin: 95,
  lighthouseSignedIn: 90,
  bundleLoginKb: 100,
  bundleLargestKb: 200,
  uploadGrowthMiB: 64,
  exportGrowthMiB: 64,
  researchGrowthMiB: 64,
  loginP99Ms: 150,
  filterP95Ms: 16,
};

const lines: string[] = [];
const out = (line = '') => lines.push(line);
const goals: { part: string; goal: string; figure: string; met: boolean; load: number }[] = [];
/** Records a goal for the summary and returns its mark for the table it belongs to. */
const judge = (part: string, goal: string, figure: string, met: boolean) => {
  goals.push({ part, goal, figure, met, load: os.loadavg()[0]! });
  return mark(met);
};
const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
const log = (message: string) => process.stdout.write(`${message}\n`);
const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const MB = (bytes: number) => (bytes / 1e6).toFixed(1);
const pct = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) : 0);
/** Whether `a` is at least `goal` percent of `b` (exactly: the rounded figure shown is not what is judged). */
const atLeast = (a: number, b: number, goal: number) => b > 0 && (a / b) * 100 >= goal;

let counts: Record<string, number> | null = null;

if (only.has('api')) {
  const bySize = new Map<string, EndpointResult[]>();
  out('## API: throughput and p99 latency');
  out();
  out(
    `Each route on the real server (token check, authorization, validation, serialisation, security headers, the route's SQL on every request), next to two floors in the same run on the same data: a bare Fastify + pg server running the same repository functions on a pg pool connected to the same embedded PostgreSQL, and sending what they return as JSON (\`bare-pg-server.ts\`), and a bare Fastify route answering the same JSON from memory (\`bare-server.ts\`). autocannon, ${seconds} s per route and server, 10 connections, after a 1 s warm-up. *SQL statements*: per request, on the real server (its \`QUERY_COUNT_HEADER\` diagnostic) / on the Fastify + pg floor. The server keeps signed-in principals in memory, so its requests run only their route's statements; the floor of \`GET /users/me\`, which then reads nothing, runs the two statements of a principal lookup.`,
  );
  out();
  for (const [name, dataset] of sizes) {
    log(`API throughput (${name} data set)…`);
    const run = await runApiBench(dataset, seconds);
    if (name === sizeName) counts = run.counts;
    bySize.set(name, run.results);
    out(
      `### ${name === 'small' ? 'Small data set (20 portfolios × 5 artifacts)' : `Large data set (${run.counts['artifacts']?.toLocaleString('en-US')} artifacts)`}`,
    );
    out();
    out(
      `| Route | Body | SQL statements | API req/s | p99 ms | Fastify + pg req/s | p99 ms | API share (goal ≥ ${GOALS.shareOfPgFloor}%) | Fastify req/s | p99 ms | API share |`,
    );
    out('|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|');
    for (const r of run.results) {
      const share = pct(r.api.rps, r.pg.rps);
      const ok = atLeast(r.api.rps, r.pg.rps, GOALS.shareOfPgFloor);
      out(
        `| \`${r.name}\` | ${kB(r.bytes)} kB | ${r.queries} / ${r.floorQueries} | ${r.api.rps} | ${r.api.p99} | ${r.pg.rps} | ${r.pg.p99} | ${share}% ${mark(ok)} | ${r.bare.rps} | ${r.bare.p99} | ${pct(r.api.rps, r.bare.rps)}%${r.name === 'GET /users/me' ? ` ${mark(atLeast(r.api.rps, r.bare.rps, GOALS.meShareOfBare))} (goal ≥ ${GOALS.meShareOfBare}%)` : ''} |`,
      );
    }
    out();
    const different = run.results.filter((r) => !r.sameData).map((r) => `\`${r.name}\``);
    if (different.length > 0)
      out(
        `The Fastify + pg floor answers other data than the API for ${different.join(', ')}: its figures there are not comparable.\n`,
      );
    const me = run.results.find((r) => r.name === 'GET /users/me');
    if (me)
      judge(
        'api',
        `\`GET /users/me\` ≥ ${GOALS.meShareOfBare}% of the bare Fastify route (${name} data set)`,
        `${pct(me.api.rps, me.bare.rps)}% (${me.api.rps} of ${me.bare.rps} req/s)`,
        atLeast(me.api.rps, me.bare.rps, GOALS.meShareOfBare),
      );
    const list = run.results.find((r) => r.name === 'GET /portfolios');
    if (list && name === 'small')
      judge(
        'api',
        `\`GET /portfolios\` ≥ ${GOALS.portfoliosSmallRps} req/s (small data set)`,
        `${list.api.rps} req/s`,
        list.api.rps >= GOALS.portfoliosSmallRps,
      );
    const lowest = run.results.reduce((a, b) => (pct(b.api.rps, b.pg.rps) < pct(a.api.rps, a.pg.rps) ? b : a));
    judge(
      'api',
      `every API route ≥ ${GOALS.shareOfPgFloor}% of its Fastify + pg floor (${name} data set)`,
      `lowest: \`${lowest.name}\` ${pct(lowest.api.rps, lowest.pg.rps)}%`,
      run.results.every((r) => atLeast(r.api.rps, r.pg.rps, GOALS.shareOfPgFloor)),
    );
  }
  const small = bySize.get('small');
  const large = bySize.get('large');
  if (small && large) {
    const bySmall = new Map(small.map((r) => [r.name, r.queries]));
    out('### SQL statements per request do not grow with the data');
    out();
    out('| Route | small data set | large data set | constant |');
    out('|---|---:|---:|---|');
    for (const r of large) {
      const n = bySmall.get(r.name);
      out(`| \`${r.name}\` | ${n} | ${r.queries} | ${n === r.queries ? 'yes' : '**no**'} |`);
    }
    out();
  }
}

if (only.has('browser')) {
  log(`Cold page loads in Chromium (${sizeName} data set)…`);
  const { pages, version } = await runBrowserBench(size, loads, values.chromium);
  const floor = pages[0]!;
  const login = pages.find((p) => p.path === '/login')!;
  out('## Browser: cold loads');
  out();
  out(
    `${version}, headless, 1280 × 900; each load in a new browser context (empty cache; signed in: with the session cookies of one sign-in through the API, made as the web app makes it), each loaded as a fresh visitor's first page (\`waitUntil: 'networkidle'\`), median of ${loads} loads after one unrecorded; the floor and \`/login\` loaded in turn, so both meet the same moments of the machine's load. *HTML arrived*, *first script requested*, *HTML parsed*: the navigation's \`responseEnd\`, the first script's request and \`domInteractive\`, ms after navigation start. *On the wire*: the sum of CDP \`Network.loadingFinished\` \`encodedDataLength\` (headers and bodies as sent, compressed when the server compresses); *FCP*: \`first-contentful-paint\` (for the portal, the frame \`index.html\` paints before its script has run: the header bar); *app drawn*: when the app's first render of the page put its \`<main>\` in the document (the sign-in form, or the page's frame while its data loads); *all loaded*: from the first request to the end of the last one (the network then stays quiet for 500 ms). The floor is a static one-line HTML page from a bare Node.js http server. ${sizeName === 'small' ? 'Small' : 'Large'} data set.`,
  );
  out();
  out(
    '| Page | On the wire | Requests | HTML arrived | First script requested | HTML parsed | FCP | FCP over the floor | App drawn | All loaded |',
  );
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const row = (p: PageResult) =>
    `| ${p === floor ? p.name : `\`${p.path}\`: ${p.name}`} | ${kB(p.bytes)} kB | ${p.requests} | ${p.htmlEnd} ms | ${p.firstScript ? `${p.firstScript} ms` : ''} | ${p.domInteractive} ms | ${p.fcp} ms | ${p === floor ? '' : `${p.fcp - floor.fcp} ms`} | ${p === floor ? '' : `${p.drawn} ms`} | ${p.doneMs} ms |`;
  for (const p of pages) out(row(p));
  out();
  out('| Goal | Figure | |');
  out('|---|---:|---|');
  out(
    `| cold \`/login\` ≤ ${GOALS.loginWireKb} kB on the wire | ${kB(login.bytes)} kB | ${judge('browser', `cold \`/login\` ≤ ${GOALS.loginWireKb} kB on the wire`, `${kB(login.bytes)} kB`, login.bytes <= GOALS.loginWireKb * 1000)} |`,
  );
  out(
    `| cold \`/login\` in ≤ ${GOALS.loginRequests} requests | ${login.requests} | ${judge('browser', `cold \`/login\` in ≤ ${GOALS.loginRequests} requests`, String(login.requests), login.requests <= GOALS.loginRequests)} |`,
  );
  const over = login.fcp - floor.fcp;
  out(
    `| cold \`/login\` FCP within ${GOALS.loginFcpOverFloorMs} ms of the floor's | +${over} ms (${login.fcp} vs ${floor.fcp} ms) | ${judge('browser', `cold \`/login\` FCP within ${GOALS.loginFcpOverFloorMs} ms of the static floor page`, `+${over} ms`, over <= GOALS.loginFcpOverFloorMs)} |`,
  );
  out();
}

let interactionRun: {
  results: Awaited<ReturnType<typeof runInteractionsBench>>['results'];
  portfolioArtifacts: number;
  version: string;
  load: string;
} | null = null;
if (only.has('interactions') || only.has('portfolio')) {
  log(`Interactions in Chromium (${sizeName} data set)…`);
  const { results, portfolio, portfolioArtifacts, version } = await runInteractionsBench(size, reps, values.chromium, {
    portfolio: only.has('portfolio'),
    interactions: only.has('interactions'),
  });
  const load = os.loadavg()[0]!.toFixed(2);
  interactionRun = { results, portfolioArtifacts, version, load };
  if (portfolio) {
    out(`## My Portfolios on a portfolio of ${portfolioArtifacts} artifacts`);
    out();
    out(
      `${version}, headless, 1280 × 900, signed in as the teacher. *Loaded*: navigation to \`/my-portfolios/{id}\` (the scripts cached by an earlier visit) until the table shows the portfolio's rows (polled every frame), unthrottled; *switched*: choosing it in the portfolio selector (from another portfolio of hers) until its table is drawn, with the CPU slowed 4× and unthrottled. ${reps} runs each, medians. Load average (1 minute) at the end: ${load}.`,
    );
    out();
    out('| | Runs (ms) | Median | Goal | |');
    out('|---|---|---:|---:|---|');
    const loaded = Math.round(median(portfolio.load));
    const switched = Math.round(median(portfolio.switchThrottled));
    out(
      `| loaded, unthrottled | ${portfolio.load.join(', ')} | ${loaded} ms | ≤ ${GOALS.portfolioMs} ms | ${judge('portfolio', `My Portfolios on ${portfolioArtifacts} artifacts loaded (navigation to the table drawn) ≤ ${GOALS.portfolioMs} ms unthrottled`, `${loaded} ms`, loaded <= GOALS.portfolioMs)} |`,
    );
    out(
      `| switched in the selector, 4× slowdown | ${portfolio.switchThrottled.join(', ')} | ${switched} ms | ≤ ${GOALS.portfolioMs} ms | ${judge('portfolio', `switching to the ${portfolioArtifacts}-artifact portfolio in the selector ≤ ${GOALS.portfolioMs} ms at 4× slowdown`, `${switched} ms`, switched <= GOALS.portfolioMs)} |`,
    );
    out(
      `| switched in the selector, unthrottled | ${portfolio.switchUnthrottled.join(', ')} | ${Math.round(median(portfolio.switchUnthrottled))} ms | | |`,
    );
    out();
  }
}

if (only.has('interactions')) {
  const { results, portfolioArtifacts, version, load } = interactionRun!;
  out('## Interactions: Interaction to Next Paint');
  out();
  out(
    `${version}, headless; each interaction's latency from the Event Timing API (the longest event entry of its \`interactionId\`: from the input until the next paint after its handlers ran, what web-vitals reports as INP; Chromium reports nothing under 16 ms, counted as 16), ${reps} repetitions, median and p75, on the teacher's biggest portfolio (${portfolioArtifacts} artifacts) and a shared artifact with a video and a comment at a moment. *4×*: the CPU slowed four times (\`Emulation.setCPUThrottlingRate\`). Goals: at 4× every interaction ≤ 200 ms at p75, a keystroke in search and selecting an artifact ≤ 100 ms; unthrottled every interaction ≤ ${GOAL_UNTHROTTLED_MS} ms. Load average (1 minute) at the end: ${load}.`,
  );
  out();
  out('| Interaction | Width | CPU | Runs (ms) | Median | p75 | Goal (p75) | |');
  out('|---|---:|---:|---|---:|---:|---:|---|');
  for (const r of results) {
    const spec = INTERACTIONS.find((i) => i.id === r.id)!;
    const goal = r.throttle === 1 ? GOAL_UNTHROTTLED_MS : spec.goalThrottled;
    const verdict = judge(
      'interactions',
      `${spec.name}, ${r.width} px, ${r.throttle === 1 ? 'unthrottled' : `${r.throttle}× CPU slowdown`}: p75 ≤ ${goal} ms`,
      `${r.p75} ms (median ${r.median})`,
      r.p75 <= goal,
    );
    out(
      `| ${spec.name} | ${r.width} px | ${r.throttle === 1 ? '1×' : `${r.throttle}×`} | ${r.runs.join(', ')} | ${r.median} ms | ${r.p75} ms | ≤ ${goal} ms | ${verdict} |`,
    );
  }
  out();
}

if (only.has('startup')) {
  log('Start and restart as `npm start`…');
  const s = await runStartupBench(boots);
  out('## Start and restart');
  out();
  out(
    `From spawning \`npm start\` (the SPA and the compiled server already built) to its first healthy \`GET /api/v1/health\` (polled every 5 ms); median of ${boots} runs. *First boot*: an empty \`DATA_DIR\` (the embedded database is created and migrated, the demo data added); *restart*: the same \`DATA_DIR\` again. The phases are the medians of the marks the start script and the server write with \`STARTUP_TIMING=1\`. *Stop*: SIGTERM to the \`npm start\` process (as a process manager sends it) until npm, the server and every PostgreSQL process have ended; *clean*: PostgreSQL removed its \`postmaster.pid\` (a clean shutdown) and nothing was left running.`,
  );
  out();
  out('| | Median | Runs | Goal | |');
  out('|---|---:|---|---:|---|');
  out(
    `| first boot | ${s.first.totalMs} ms | ${s.first.runs.join(', ')} | ≤ ${GOALS.firstBootMs} ms | ${judge('startup', `\`npm start\` first boot ≤ ${GOALS.firstBootMs / 1000} s`, `${s.first.totalMs} ms`, s.first.totalMs <= GOALS.firstBootMs)} |`,
  );
  out(
    `| restart | ${s.restart.totalMs} ms | ${s.restart.runs.join(', ')} | ≤ ${GOALS.restartMs} ms | ${judge('startup', `\`npm start\` restart ≤ ${GOALS.restartMs / 1000} s`, `${s.restart.totalMs} ms`, s.restart.totalMs <= GOALS.restartMs)} |`,
  );
  const stopMs = Math.max(s.first.maxStopMs, s.restart.maxStopMs);
  const clean = s.first.allClean && s.restart.allClean;
  out(
    `| stop (SIGTERM to \`npm start\`) | ${s.restart.stopMs} ms | slowest ${stopMs} ms, ${clean ? 'all clean' : 'NOT clean'} | ≤ ${GOALS.stopMs} ms | ${judge('startup', `SIGTERM to \`npm start\` stops the server and PostgreSQL cleanly ≤ ${GOALS.stopMs / 1000} s`, `${stopMs} ms${clean ? '' : ', not clean'}`, clean && stopMs <= GOALS.stopMs)} |`,
  );
  out();
  out('| Phase | first boot | restart |');
  out('|---|---:|---:|');
  PHASES.forEach((phase, i) => out(`| ${phase.name} | ${s.first.phases[i]} ms | ${s.restart.phases[i]} ms |`));
  out();
}

if (only.has('memory')) {
  out('## Memory: every server process, idle after a warm-up load');
  out();
  const warm = Math.max(1, Math.min(seconds, 3));
  out(
    `The server's processes (the node process and its descendants: the database guard, the postmaster and its processes) 3 s after ${warm} s of load on each main read route (10 connections, so the pool holds its connections). RSS counts the pages a process shares (PostgreSQL's shared buffers, the postgres binary) once in every process that maps them; PSS divides each shared page among them, so the sum of PSS is what the server takes in all. MB: 10⁶ bytes.`,
  );
  out();
  const results: [string, MemoryResult][] = [];
  for (const [name, dataset] of sizes) {
    log(`Memory of every server process (${name} data set)…`);
    results.push([name, await runMemoryBench(dataset, warm)]);
  }
  out(`| Process | ${results.map(([name]) => `${name}: count | RSS each (largest) | PSS (sum)`).join(' | ')} |`);
  out(`|---|${results.map(() => '---:|---:|---:').join('|')}|`);
  const names = [...new Set(results.flatMap(([, m]) => m.processes.map((p) => p.name)))];
  for (const name of names) {
    const cells = results.map(([, m]) => {
      const group = m.processes.filter((p) => p.name === name);
      if (group.length === 0) return '– | – | –';
      return `${group.length} | ${MB(Math.max(...group.map((p) => p.rss)))} MB | ${MB(group.reduce((n, p) => n + p.pss, 0))} MB`;
    });
    out(`| ${name} | ${cells.join(' | ')} |`);
  }
  out(
    `| **all** | ${results.map(([, m]) => `${m.processes.length} | ${MB(m.rssTotal)} MB (sum) | **${MB(m.pssTotal)} MB**`).join(' | ')} |`,
  );
  out();
  out('| Goal | Data set | Figure | |');
  out('|---|---|---:|---|');
  for (const [name, m] of results) {
    const largest = `${m.largest.name}: ${MB(m.largest.rss)} MB RSS`;
    out(
      `| largest process ≤ ${GOALS.largestProcessMb} MB | ${name} | ${largest} | ${judge('memory', `largest process ≤ ${GOALS.largestProcessMb} MB (${name} data set)`, largest, m.largest.rss <= GOALS.largestProcessMb * 1e6)} |`,
    );
    const all = `${MB(m.pssTotal)} MB PSS`;
    out(
      `| all together ≤ ${GOALS.allProcessesMb} MB | ${name} | ${all} | ${judge('memory', `all processes together ≤ ${GOALS.allProcessesMb} MB (${name} data set)`, all, m.pssTotal <= GOALS.allProcessesMb * 1e6)} |`,
    );
  }
  out();
}

if (only.has('lighthouse')) {
  log('Lighthouse, mobile preset…');
  const lh = await runLighthouseBench(size, Number(values['lighthouse-runs']), values.chromium);
  out('## Lighthouse (mobile preset)');
  out();
  out(
    `Lighthouse 12's mobile preset (a mid-range phone on a slow 4G link, simulated throttling) in ${lh.version} (Debian's Chromium, headless), ${values['lighthouse-runs']} runs per page, the median of each score. Signed-in pages: the session cookies of one sign-in, set in the browser before each run (its cache emptied). Goals: performance ≥ ${GOALS.lighthouseLogin} on \`/login\`, ≥ ${GOALS.lighthouseSignedIn} on the signed-in pages; accessibility, best practices and SEO 100 on every page.`,
  );
  out();
  out('| Page | Performance (runs) | Goal | | Accessibility | Best practices | SEO | | Below 100 |');
  out('|---|---:|---:|---|---:|---:|---:|---|---|');
  for (const r of lh.results) {
    const login = r.path === '/login';
    const goal = login ? GOALS.lighthouseLogin : GOALS.lighthouseSignedIn;
    const perf = judge(
      'lighthouse',
      `Lighthouse mobile performance on ${r.name} ≥ ${goal}`,
      String(r.scores.performance),
      r.scores.performance >= goal,
    );
    const rest = CATEGORIES.filter((c) => c !== 'performance');
    const others = judge(
      'lighthouse',
      `Lighthouse ${rest.join(', ')} 100 on ${r.name}`,
      rest.map((c) => r.scores[c]).join(' / '),
      rest.every((c) => r.scores[c] === 100),
    );
    const below = r.failing.map((f) => `${f.category}: ${f.title}`);
    out(
      `| ${r.name} (\`${r.path}\`) | ${r.scores.performance} (${r.performanceRuns.join(', ')}) | ≥ ${goal} | ${perf} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.scores.seo} | ${others} | ${below.join('; ') || '—'} |`,
    );
  }
  out();
}

if (only.has('bundle')) {
  log('SPA bundle sizes…');
  const b = runBundleBench();
  out('## SPA bundle (gzipped JavaScript and CSS a route loads)');
  out();
  out(
    "From the Vite build manifest, each file gzipped at level 9: what a route needs, whatever the server sends. A route: what the shell loads on demand for a page, without the parts within the page that load when it shows them (the video players, notes and caption editor; a shared artifact's comments and reactions); *with its parts*: also every part it may load.",
  );
  out();
  out('| Route | kB gz | Goal | |');
  out('|---|---:|---:|---|');
  out(
    `| \`/login\` (the entry and the sign-in pages) | ${b.loginKb} | ≤ ${GOALS.bundleLoginKb} | ${judge('bundle', `\`/login\` bundle ≤ ${GOALS.bundleLoginKb} kB gz`, `${b.loginKb} kB`, b.loginKb <= GOALS.bundleLoginKb)} |`,
  );
  if (b.largest)
    out(
      `| largest route (\`${b.largest.route}\`) | ${b.largest.kb} | ≤ ${GOALS.bundleLargestKb} | ${judge('bundle', `largest route's bundle ≤ ${GOALS.bundleLargestKb} kB gz`, `${b.largest.kb} kB`, b.largest.kb <= GOALS.bundleLargestKb)} |`,
    );
  const heaviest = [...b.routes].sort((x, y) => y.withPartsKb - x.withPartsKb)[0];
  if (heaviest)
    out(
      `| the heaviest route with every part within its pages (\`${heaviest.route}\`), for comparison | ${heaviest.withPartsKb} | | |`,
    );
  out();
  out('<details><summary>Every lazily loaded route and part</summary>');
  out();
  out('| Chunk | kB gz (with the entry) | with its parts |');
  out('|---|---:|---:|');
  for (const r of b.routes) out(`| \`${r.route}\` | ${r.kb} | ${r.withPartsKb} |`);
  out();
  out('| Part within a page | adds kB gz |');
  out('|---|---:|');
  for (const p of b.parts) out(`| \`${p.part}\` | ${p.addsKb} |`);
  out();
  out('</details>');
  out();
}

if (only.has('upload')) {
  log(`Server memory during a ${values['upload-mib']} MiB upload…`);
  const u = await runUploadBench(SMALL, uploadBytes);
  out('## Memory during a large upload');
  out();
  out('RSS of the node process while the file streams to disk.');
  out();
  out('| Upload | Time | Throughput | RSS idle | RSS peak | Growth | Goal | |');
  out('|---:|---:|---:|---:|---:|---:|---:|---|');
  out(
    `| ${Math.round(u.bytes / 1024 / 1024)} MiB | ${u.seconds.toFixed(1)} s | ${Math.round(u.bytes / 1024 / 1024 / u.seconds)} MiB/s | ${u.idleMiB} MiB | ${u.peakMiB} MiB | ${u.growthMiB} MiB | < ${GOALS.uploadGrowthMiB} MiB | ${judge('upload', `memory growth during a ${Math.round(u.bytes / 1024 / 1024)} MiB upload < ${GOALS.uploadGrowthMiB} MiB`, `${u.growthMiB} MiB`, u.growthMiB < GOALS.uploadGrowthMiB)} |`,
  );
  out();
}

if (only.has('exports')) {
  log(`CSV exports (${sizeName} data set)…`);
  const e = await runExportBench(size);
  counts ??= e.counts;
  out('## CSV exports');
  out();
  out(`RSS of the node process when idle, with this data set: **${e.idleMiB} MiB**; while each export streams:`);
  out();
  out('| Export | Status | Rows | Size | Time | RSS before | RSS peak | Goal (growth) | |');
  out('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const x of e.exports) {
    const growth = x.peakMiB - x.beforeMiB;
    const ok = x.status === 200 && growth < GOALS.exportGrowthMiB;
    out(
      `| \`GET ${x.url}\` | ${x.status} | ${x.rows} | ${(x.bytes / 1024 / 1024).toFixed(1)} MiB | ${x.seconds.toFixed(1)} s | ${x.beforeMiB} MiB | ${x.peakMiB} MiB | < ${GOALS.exportGrowthMiB} MiB | ${judge('exports', `\`GET ${x.url}\`: memory growth < ${GOALS.exportGrowthMiB} MiB (${sizeName} data set)`, `${growth} MiB`, ok)} |`,
    );
  }
  out();
}

if (only.has('research')) {
  log(`Research export package (${sizeName} data set)…`);
  const r = await runResearchBench(size);
  counts ??= r.counts;
  out('## Research export package');
  out();
  out(
    `\`GET /api/v1/research/export\` of the whole installation (no filter), read by the client as it arrives, on a fresh server: after a warm-up package that selects no artifact, comment or reaction (\`from=2100-01-01\`), the two packages below one after the other. Twice: the server as \`npm start\` runs it (the goal), and the same server with V8's young generation capped by \`NODE_OPTIONS=--max-semi-space-size=2\` (for comparison: how much of the growth is the young generation V8 grows under any sustained allocation). *Rows*: the sum of the package's CSV rows (the audit log's counts), of which comments and responses.`,
  );
  out();
  out(
    '| Server | Package | Status | Logged | Rows | Comments | Responses | Size | Time | RSS before | RSS peak | Growth | Goal | |',
  );
  out('|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const srv of r.servers) {
    const judged = srv.label === 'default';
    out(
      `| ${srv.label} | idle; warm-up \`from=2100-01-01\` | ${srv.warmUp.status} | ${srv.warmUp.logged} | | | | ${MB(srv.warmUp.bytes)} MB | ${srv.warmUp.seconds.toFixed(1)} s | ${srv.idleMiB} MiB | ${srv.warmUp.peakMiB} MiB | | | |`,
    );
    for (const x of srv.runs) {
      const growth = x.peakMiB - x.beforeMiB;
      const ok = x.status === 200 && x.logged === 'completed' && growth <= GOALS.researchGrowthMiB;
      const rows = Object.values(x.rowCounts).reduce((a, b) => a + b, 0);
      const verdict = judged
        ? judge(
            'research',
            `research package (\`${x.query}\`, ${srv.runs.indexOf(x) === 0 ? 'first' : 'second'} full export of the server): memory growth ≤ ${GOALS.researchGrowthMiB} MiB (${sizeName} data set)`,
            `${growth} MiB`,
            ok,
          )
        : `${mark(ok)} (comparison)`;
      out(
        `| ${srv.label} | \`${x.query}\` | ${x.status} | ${x.logged} | ${rows.toLocaleString('en-US')} | ${(x.rowCounts['comments'] ?? 0).toLocaleString('en-US')} | ${(x.rowCounts['responses'] ?? 0).toLocaleString('en-US')} | ${MB(x.bytes)} MB | ${x.seconds.toFixed(1)} s | ${x.beforeMiB} MiB | ${x.peakMiB} MiB | ${growth} MiB | ≤ ${GOALS.researchGrowthMiB} MiB | ${verdict} |`,
      );
    }
  }
  out();
}

if (only.has('login')) {
  log('Logins at 4 concurrent clients (argon2id, OWASP parameters)…');
  const l = await runLoginBench(SMALL, seconds);
  out('## Login at OWASP-strength hashing');
  out();
  out(
    `argon2id, 19 MiB, 2 passes: one hash takes ${l.hashMs} ms on this machine. Every answer is the whole login bundle.`,
  );
  out();
  out('| Clients | Logins | Refused | Per second | p50 | p99 | Goal (p99) | |');
  out('|---:|---:|---:|---:|---:|---:|---:|---|');
  out(
    `| ${l.concurrency} | ${l.logins} | ${l.failures} | ${l.perSecond} | ${l.p50} ms | ${l.p99} ms | < ${GOALS.loginP99Ms} ms | ${judge('login', `login p99 < ${GOALS.loginP99Ms} ms (4 clients)`, `${l.p99} ms`, l.p99 < GOALS.loginP99Ms)} |`,
  );
  out();
}

if (only.has('filter')) {
  log('Client filter…');
  const f = runFilterBench(10_000);
  out('## Filter By and keyword search in the browser code (10,000 artifacts)');
  out();
  out('| Rows built once | Keystrokes | p50 per keystroke | p95 | max | Goal (p95) | |');
  out('|---:|---:|---:|---:|---:|---:|---|');
  out(
    `| ${f.rowsMs} ms | ${f.keystrokes} | ${f.p50} ms | ${f.p95} ms | ${f.max} ms | < ${GOALS.filterP95Ms} ms | ${judge('filter', `filter p95 per keystroke < ${GOALS.filterP95Ms} ms (a frame)`, `${f.p95} ms`, f.p95 < GOALS.filterP95Ms)} |`,
  );
  out();
}

if (only.has('notify')) {
  log('Notification fan-out of a comment…');
  const rows = await runNotifyBench();
  const [few, many] = rows;
  out('## Notification fan-out of a comment');
  out();
  out(
    '`POST /comments` by the lead in a shared portfolio where every member hears it (each commented before and is mentioned): the items written per comment, the SQL statements of the request (`QUERY_COUNT_HEADER`) and its time, after 5 warm-up comments.',
  );
  out();
  out('| Members | Items per comment | SQL statements | p50 | p95 | Goal | |');
  out('|---:|---:|---:|---:|---:|---|---|');
  for (const r of rows) {
    const met = !few || !many || few.statements === many.statements;
    out(
      `| ${r.members} | ${r.recipients} | ${r.statements} | ${r.p50} ms | ${r.p95} ms | as many statements with 50 members as with 5 | ${r === many ? judge('notify', 'fan-out: as many SQL statements for 50 members as for 5', `${few?.statements} / ${many?.statements}`, met) : ''} |`,
    );
  }
  out();
}

if (counts) {
  out(`## Data set (${sizeName})`);
  out();
  out('| Table | Rows |');
  out('|---|---:|');
  for (const [table, n] of Object.entries(counts)) out(`| ${table} | ${n.toLocaleString('en-US')} |`);
  out();
}

const m = machine();
const head: string[] = [
  '# Benchmark results',
  '',
  'Written by `npm run bench` (bench/run.ts); never edited by hand. What each part measures: [README.md](README.md).',
  '',
  '| | |',
  '|---|---|',
  `| Date | ${m.date} UTC |`,
  `| Commit | ${m.commit} |`,
  `| Machine | ${m.cpu}, ${m.cores} cores, ${m.memory} RAM |`,
  `| Node | ${m.node} |`,
  `| Data set | ${sizeName}${sizeName === 'large' ? ' (API and memory: the small one too)' : ''} |`,
  `| Parts run | ${[...only].join(', ')}${only.size < PARTS.length ? ' (the others carried over from earlier runs, each marked)' : ''} |`,
  '',
];
if (goals.length > 0) {
  head.push(
    '## Goals',
    '',
    "Each figure with the machine's load average (1 minute) when it was taken: figures taken under load are noisy.",
    '',
    '| Part | Goal | Figure | | Load |',
    '|---|---|---:|---|---:|',
  );
  for (const g of goals) head.push(`| ${g.part} | ${g.goal} | ${g.figure} | ${mark(g.met)} | ${g.load.toFixed(2)} |`);
  head.push('', `${goals.filter((g) => g.met).length} of ${goals.length} met.`, '');
}
// A run of some parts keeps the other parts' figures from the file as it was (marked with their run).
const previous = existsSync(values.out) ? readFileSync(values.out, 'utf8') : null;
writeFileSync(values.out, mergeResults(previous, `${[...head, ...lines].join('\n')}\n`, only));
log(`Written: ${path.relative(process.cwd(), values.out)}`);
