import { runApiBench, type EndpointResult } from '../api.ts';
import { SMALL } from '../generate.ts';
import { runLoginBench } from '../login.ts';
import { runMemoryBench, type MemoryResult } from '../memory.ts';
import { runNotifyBench } from '../notify.ts';
import { runVersionsBench } from '../versions.ts';
import { PHASES, runStartupBench } from '../startup.ts';
import type { Report } from './report.ts';

/** The server's parts of the results: the API, start and stop, memory, logins and notification fan-out. */

/** `api`: throughput and p99 latency of the main read routes next to their floors. */
export async function reportApi(report: Report): Promise<void> {
  const { out, log, judge, mark, kB, pct, atLeast, GOALS, sizes, sizeName, seconds } = report;
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
    if (name === sizeName) report.counts = run.counts;
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

/** `startup`: first boot, restart and stop of `npm start`. */
export async function reportStartup(report: Report): Promise<void> {
  const { out, log, judge, GOALS, boots } = report;
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

/** `memory`: every server process, idle after a warm-up load. */
export async function reportMemory(report: Report): Promise<void> {
  const { out, log, judge, MB, GOALS, sizes, seconds } = report;
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

/** `login`: logins per second and their latency. */
export async function reportLogin(report: Report): Promise<void> {
  const { out, log, judge, GOALS, seconds } = report;
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

/** `notify`: the statements and time of a comment that notifies a whole shared portfolio. */
export async function reportNotify(report: Report): Promise<void> {
  const { out, log, judge } = report;
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

export async function reportVersions(report: Report): Promise<void> {
  const { out, log, judge, GOALS } = report;
  log('History of an artifact at 1,000 versions…');
  const r = await runVersionsBench();
  const mb = r.historyBytes / 1e6;
  const answers = `${(r.answersBytes / 1e3).toFixed(1)} kB`;
  out('## History of an artifact');
  out();
  out(
    `${r.saves} saves (\`PUT /artifacts/{id}\`) of one artifact of 15 answers of 2,500 characters (${answers} of answers), each changing one answer, on the small data set; then 200 reads of the newest page of its history and of version ${r.saves - 1} whole (rebuilt from the full copy before it and 49 changes), after 20 warm-up reads each. Storage: the growth of \`pg_total_relation_size('artifact_versions')\` (rows, compressed values, indexes).`,
  );
  out();
  out('| Measure | Figure | Goal | |');
  out('|---|---:|---|---|');
  const stored = judge(
    'versions',
    `storage of ${r.saves} one-answer saves ≤ ${GOALS.versionsMb} MB`,
    `${mb.toFixed(2)} MB`,
    mb <= GOALS.versionsMb,
  );
  out(`| history of ${r.saves} saves | ${mb.toFixed(2)} MB | ≤ ${GOALS.versionsMb} MB | ${stored} |`);
  const listed = judge(
    'versions',
    `GET …/versions at ${r.saves} versions p99 ≤ ${GOALS.versionsListP99Ms} ms`,
    `${r.listP99} ms`,
    r.listP99 <= GOALS.versionsListP99Ms,
  );
  out(
    `| \`GET …/versions\` at ${r.saves} versions, p50 / p99 | ${r.listP50} / ${r.listP99} ms | p99 ≤ ${GOALS.versionsListP99Ms} ms | ${listed} |`,
  );
  out(`| \`GET …/versions/${r.saves - 1}\`, p50 / p99 | ${r.versionP50} / ${r.versionP99} ms | | |`);
  out(`| a save (\`PUT /artifacts/{id}\`, ${answers}), p50 / p99 | ${r.saveP50} / ${r.saveP99} ms | | |`);
  out();
}
