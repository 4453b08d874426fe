/**
 * Runs the benchmarks and writes `bench/RESULTS.md`: API throughput and p99 next to a bare
 * Fastify route, SQL statements per request at two data sizes, SPA bundle sizes, memory during a
 * 1 GiB upload, both CSV exports at scale, idle memory, and the client filter.
 *
 *   npm run bench                       # everything, large data set (about 15 minutes)
 *   npm run bench -- --size small       # a quick run on the small data set
 *   npm run bench -- --only api,bundle  # some of them (api, queries, bundle, upload, exports, filter, login)
 *   npm run bench -- --seconds 5        # load duration per endpoint
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runApiBench, type EndpointResult } from './api.ts';
import { runBundleBench } from './bundle.ts';
import { runExportBench } from './exports.ts';
import { runFilterBench } from './filter.ts';
import { runLoginBench } from './login.ts';
import { LARGE, SMALL } from './generate.ts';
import { machine, ROOT } from './support.ts';
import { runUploadBench } from './upload.ts';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: 'large' },
    only: { type: 'string', default: 'api,queries,bundle,upload,exports,filter,login' },
    seconds: { type: 'string', default: '10' },
    'upload-mib': { type: 'string', default: '1024' },
    out: { type: 'string', default: path.join(ROOT, 'bench', 'RESULTS.md') },
  },
});
const size = values.size === 'small' ? SMALL : LARGE;
const only = new Set(values.only.split(','));
const seconds = Number(values.seconds);
const uploadBytes = Number(values['upload-mib']) * 1024 * 1024;

const GOALS = {
  loginKiB: 100,
  largestRouteKiB: 200,
  uploadGrowthMiB: 64,
  loginP99Ms: 150,
};

const lines: string[] = [];
const out = (line = '') => lines.push(line);
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const log = (message: string) => process.stdout.write(`${message}\n`);

const m = machine();
out('# Benchmark results');
out();
out(`Written by \`npm run bench\` (bench/run.ts); never edited by hand.`);
out();
out('| | |');
out('|---|---|');
out(`| Date | ${m.date} UTC |`);
out(`| Commit | ${m.commit} |`);
out(`| Machine | ${m.cpu}, ${m.cores} cores, ${m.memory} RAM |`);
out(`| Node | ${m.node} |`);
out(`| Data set | ${values.size === 'small' ? 'small' : 'large'} (see below) |`);
out(`| Load per endpoint | ${seconds} s, 10 connections (autocannon) |`);
out();

let counts: Record<string, number> | null = null;

if (only.has('api')) {
  log(`API throughput without the response cache (${values.size} data set)…`);
  const large = await runApiBench(size, seconds, false);
  log(`API throughput with the response cache (${values.size} data set)…`);
  const cached = await runApiBench(size, seconds, true);
  counts = large.counts;
  const cachedBy = new Map(cached.results.map((r: EndpointResult) => [r.name, r]));
  out('## API throughput and p99 latency');
  out();
  out('The real server (authentication, authorization, database, security headers) next to a bare Fastify route answering the same URL with the same JSON from memory, in the same run. *Uncached*: every request authenticates and runs its SQL. *Cached*: the embedded server keeps the answers of its main read routes in memory per session until the next write (`RESPONSE_CACHE`, on by default with the embedded database), as under a steady read load.');
  out();
  out('| Endpoint | Body | SQL statements | uncached req/s | p99 ms | cached req/s | p99 ms | bare req/s | p99 ms | cached share of bare |');
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of large.results) {
    const c = cachedBy.get(r.name)!;
    out(`| \`${r.name}\` | ${(r.bytes / 1024).toFixed(1)} KiB | ${r.queries} | ${r.api.rps} | ${r.api.p99} | ${c.api.rps} | ${c.api.p99} | ${c.bare.rps} | ${c.bare.p99} | ${Math.round((c.api.rps / c.bare.rps) * 100)}% |`);
  }
  out();
  if (only.has('queries')) {
    log('The same on the small data set (20 teachers × 1 portfolio × 5 artifacts)…');
    const small = await runApiBench(SMALL, seconds, false);
    const smallCached = new Map((await runApiBench(SMALL, seconds, true)).results.map((r: EndpointResult) => [r.name, r]));
    out('### The small data set (20 portfolios × 5 artifacts)');
    out();
    out('| Endpoint | Body | uncached req/s | p99 ms | cached req/s | p99 ms | bare req/s | p99 ms | uncached share | cached share |');
    out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of small.results) {
      const c = smallCached.get(r.name)!;
      out(`| \`${r.name}\` | ${(r.bytes / 1024).toFixed(1)} KiB | ${r.api.rps} | ${r.api.p99} | ${c.api.rps} | ${c.api.p99} | ${c.bare.rps} | ${c.bare.p99} | ${Math.round((r.api.rps / r.bare.rps) * 100)}% | ${Math.round((c.api.rps / c.bare.rps) * 100)}% |`);
    }
    out();
    const bySmall = new Map(small.results.map((r: EndpointResult) => [r.name, r.queries]));
    out('### SQL statements per request do not grow with the data');
    out();
    out(`| Endpoint | small data set (${small.counts['artifacts']} artifacts) | this data set (${large.counts['artifacts']} artifacts) | constant |`);
    out('|---|---:|---:|---|');
    for (const r of large.results) {
      const n = bySmall.get(r.name);
      out(`| \`${r.name}\` | ${n} | ${r.queries} | ${n === r.queries ? 'yes' : '**no**'} |`);
    }
    out();
  }
}

if (only.has('bundle')) {
  log('SPA bundle sizes…');
  const b = runBundleBench();
  out('## SPA bundle (gzipped JavaScript and CSS a route loads)');
  out();
  out('| Route | KiB gz | Goal | |');
  out('|---|---:|---:|---|');
  out(`| \`/login\` (the entry: React, React DOM, XState, styled-components, the shell and the login machine) | ${b.loginKiB} | ≤ ${GOALS.loginKiB} | ${verdict(b.loginKiB <= GOALS.loginKiB)} |`);
  if (b.largest) out(`| largest route (\`${b.largest.route}\`) | ${b.largest.kib} | ≤ ${GOALS.largestRouteKiB} | ${verdict(b.largest.kib <= GOALS.largestRouteKiB)} |`);
  out();
  out('<details><summary>Every lazily loaded route</summary>');
  out();
  out('| Chunk | KiB gz (with the entry) |');
  out('|---|---:|');
  for (const r of b.routes) out(`| \`${r.route}\` | ${r.kib} |`);
  out();
  out('</details>');
  out();
}

if (only.has('upload')) {
  log(`Server memory during a ${values['upload-mib']} MiB upload…`);
  const u = await runUploadBench(SMALL, uploadBytes);
  out('## Memory during a large upload');
  out();
  out('| Upload | Time | Throughput | RSS idle | RSS peak | Growth | Goal | |');
  out('|---:|---:|---:|---:|---:|---:|---:|---|');
  out(`| ${Math.round(u.bytes / 1024 / 1024)} MiB | ${u.seconds.toFixed(1)} s | ${Math.round(u.bytes / 1024 / 1024 / u.seconds)} MiB/s | ${u.idleMiB} MiB | ${u.peakMiB} MiB | ${u.growthMiB} MiB | < ${GOALS.uploadGrowthMiB} MiB | ${verdict(u.growthMiB < GOALS.uploadGrowthMiB)} |`);
  out();
}

if (only.has('exports')) {
  log(`CSV exports (${values.size} data set)…`);
  const e = await runExportBench(size);
  counts ??= e.counts;
  out('## CSV exports at scale, and idle memory');
  out();
  out(`Server RSS when idle, with this data set: **${e.idleMiB} MiB**.`);
  out();
  out('| Export | Status | Rows | Size | Time | RSS before | RSS peak |');
  out('|---|---:|---:|---:|---:|---:|---:|');
  for (const x of e.exports) {
    out(`| \`GET ${x.url}\` | ${x.status} | ${x.rows} | ${(x.bytes / 1024 / 1024).toFixed(1)} MiB | ${x.seconds.toFixed(1)} s | ${x.beforeMiB} MiB | ${x.peakMiB} MiB |`);
  }
  out();
}

if (only.has('login')) {
  log('Logins at 4 concurrent clients (argon2id, OWASP parameters)…');
  const l = await runLoginBench(SMALL, seconds);
  out('## Login at OWASP-strength hashing');
  out();
  out(`argon2id, 19 MiB, 2 passes: one hash takes ${l.hashMs} ms on this machine. Every answer is the whole login bundle.`);
  out();
  out('| Clients | Logins | Refused | Per second | p50 | p99 | Goal (p99) | |');
  out('|---:|---:|---:|---:|---:|---:|---:|---|');
  out(`| ${l.concurrency} | ${l.logins} | ${l.failures} | ${l.perSecond} | ${l.p50} ms | ${l.p99} ms | < ${GOALS.loginP99Ms} ms | ${verdict(l.p99 < GOALS.loginP99Ms)} |`);
  out();
}

if (only.has('filter')) {
  log('Client filter…');
  const f = runFilterBench(10_000);
  out('## Filter By and keyword search in the browser code (10,000 artifacts)');
  out();
  out('| Rows built once | Keystrokes | p50 per keystroke | p95 | max |');
  out('|---:|---:|---:|---:|---:|');
  out(`| ${f.rowsMs} ms | ${f.keystrokes} | ${f.p50} ms | ${f.p95} ms | ${f.max} ms |`);
  out();
}

if (counts) {
  out('## Data set');
  out();
  out('| Table | Rows |');
  out('|---|---:|');
  for (const [table, n] of Object.entries(counts)) out(`| ${table} | ${n.toLocaleString('en-US')} |`);
  out();
}

writeFileSync(values.out, `${lines.join('\n')}\n`);
log(`Written: ${path.relative(process.cwd(), values.out)}`);
