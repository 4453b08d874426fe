import os from 'node:os';
import { runBrowserBench, type PageResult } from '../browser.ts';
import { runBundleBench } from '../bundle.ts';
import { runFilterBench } from '../filter.ts';
import { runHistoryDiffBench, summarise } from '../historyDiff.ts';
import { GOAL_UNTHROTTLED_MS, INTERACTIONS } from '../inp.ts';
import { runInteractionsBench } from '../interactions.ts';
import { CATEGORIES, runLighthouseBench } from '../lighthouse.ts';
import { median } from '../support.ts';
import type { Report } from './report.ts';

/** The browser's parts of the results: cold loads, interactions, Lighthouse, the bundle and the filter. */

/** `browser`: cold loads in Chromium. */
export async function reportBrowser(report: Report): Promise<void> {
  const { out, log, judge, kB, GOALS, sizeName, size, loads, values } = report;
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

/** `portfolio` and `interactions`: My Portfolios on the biggest portfolio, and Interaction to Next Paint. */
export async function reportInteractions(report: Report): Promise<void> {
  const { only, out, log, judge, GOALS, sizeName, size, reps, values } = report;
  let interactionRun: {
    results: Awaited<ReturnType<typeof runInteractionsBench>>['results'];
    portfolioArtifacts: number;
    version: string;
    load: string;
  } | null = null;
  if (only.has('interactions') || only.has('portfolio')) {
    log(`Interactions in Chromium (${sizeName} data set)…`);
    const { results, portfolio, portfolioArtifacts, version } = await runInteractionsBench(
      size,
      reps,
      values.chromium,
      {
        portfolio: only.has('portfolio'),
        interactions: only.has('interactions'),
      },
    );
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
      const parts = portfolio.loadParts;
      const mid = (pick: (p: (typeof parts)[number]) => number) => Math.round(median(parts.map(pick)));
      out(
        `Where each load's time went, from the Resource Timing entries of the page's two reads (\`GET /portfolios\` for the selector and \`GET /portfolios/{id}/summary\` for the table): navigation until the first was sent, until the last was answered, and until the table was drawn.`,
      );
      out();
      out('| | Runs (ms) | Median |');
      out('|---|---|---:|');
      out(`| the reads sent | ${parts.map((p) => p.asked).join(', ')} | ${mid((p) => p.asked)} ms |`);
      out(`| both answered | ${parts.map((p) => p.answered).join(', ')} | ${mid((p) => p.answered)} ms |`);
      out(`| the table drawn | ${parts.map((p) => p.drawn).join(', ')} | ${mid((p) => p.drawn)} ms |`);
      out(
        `| their bytes, on the wire / decoded | ${(mid((p) => p.wireBytes) / 1000).toFixed(1)} kB / ${(mid((p) => p.bodyBytes) / 1000).toFixed(1)} kB | |`,
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
}

/** `lighthouse`: Lighthouse scores of the main pages. */
export async function reportLighthouse(report: Report): Promise<void> {
  const { out, log, judge, GOALS, size, values } = report;
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
  out(
    "The metrics of each page's median run (simulated; the simulation multiplies the main-thread tasks it observed by the CPU slowdown of 4, so total blocking time, and through it first and largest contentful paint, rise with the machine's load: the load average as the run ended; *CPU index*: Lighthouse's benchmark of the host's CPU in that run, higher is faster, which differs between machines of one kind and between runs on one).",
  );
  out();
  out('| Page | FCP | LCP | TBT | Speed Index | CLS | Load | CPU index |');
  out('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { name, metrics: m } of lh.results)
    out(
      `| ${name} | ${m.fcp} ms | ${m.lcp} ms | ${m.tbt} ms | ${m.si} ms | ${m.cls} | ${m.load.toFixed(2)} | ${m.cpu} |`,
    );
  out();
}

/** `bundle`: the JavaScript and CSS each route loads. */
export async function reportBundle(report: Report): Promise<void> {
  const { out, log, judge, GOALS } = report;
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

/** `filter`: Filter By and search over many artifacts, per keystroke. */
export async function reportFilter(report: Report): Promise<void> {
  const { out, log, judge, GOALS } = report;
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

/** `history`: a click until the differences of two versions are drawn, in Chromium. */
export async function reportHistory(report: Report): Promise<void> {
  const { out, log, judge, GOALS, reps, values } = report;
  log('History differences in Chromium…');
  const r = await runHistoryDiffBench(reps, values.chromium);
  out('## History: differences of two versions in the browser');
  out();
  out(
    `${r.version}, headless, 1280 × 900, signed in as the web app signs in; an artifact of 15 answers of 2,500 characters saved three times (each save changes about ${r.wordsChanged} words of every answer). *Open*: a click on Show history until the newest version's differences from the one before are drawn (the panel's chunk from the cache, the list and both versions read, the word diff of 15 answers computed and drawn). *Compare*: a click on Show changes of version 2 until its differences from version 1 are drawn (one version read). *Again*: then a click on Show changes of version 3, both versions already read: the diff computed and drawn without a request. Time from the click to the frame with the first \`<ins>\` of that pair (with, for *compare*, the time its request for the version took, request to last byte, from Resource Timing), ${reps} clicks each after an unrecorded round; the CPU as it is (1×) and slowed 4× (\`Emulation.setCPUThrottlingRate\`).`,
  );
  out();
  out(
    '| CPU | Compare: median / max | its version read: median | Again (no request): median / max | Open: median / max | Goal (compare, 1×) | |',
  );
  out('|---|---:|---:|---:|---:|---|---|');
  for (const t of r.timings) {
    const open = summarise(t.open);
    const compare = summarise(t.compare);
    // The goal is the click that asks for a comparison in the open history; opening it reads the list first.
    const met =
      t.rate === 1
        ? judge(
            'history',
            `diff of two versions drawn ≤ ${GOALS.historyDiffMs} ms after the click (median, 1×)`,
            `${compare.median} ms`,
            compare.median <= GOALS.historyDiffMs,
          )
        : '';
    out(
      `| ${t.rate}× | ${compare.median} / ${compare.max} ms | ${summarise(t.compareRead).median} ms | ${summarise(t.again).median} / ${summarise(t.again).max} ms | ${open.median} / ${open.max} ms | ${t.rate === 1 ? `≤ ${GOALS.historyDiffMs} ms` : ''} | ${met} |`,
    );
  }
  out();
}
