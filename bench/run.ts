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
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LARGE, SMALL, type DatasetSize } from './generate.ts';
import {
  reportBrowser,
  reportBundle,
  reportFilter,
  reportHistory,
  reportInteractions,
  reportLighthouse,
} from './report/browser.ts';
import { reportBackup, reportCluster, reportExports, reportResearch, reportUpload } from './report/data.ts';
import { reportCoverage } from './report/coverage.ts';
import { reportResumable } from './report/resumable.ts';
import { openReport } from './report/report.ts';
import { reportApi, reportLogin, reportMemory, reportNotify, reportStartup, reportVersions } from './report/server.ts';
import { mergeResults } from './results.ts';
import { machine, ROOT } from './support.ts';

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
  'resumable',
  'exports',
  'research',
  'login',
  'filter',
  'notify',
  'versions',
  'history',
  'cluster',
  'backup',
  'coverage',
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
    'resumable-mib': { type: 'string', default: '4096' },
    chromium: { type: 'string', default: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' },
    out: { type: 'string', default: path.join(ROOT, 'bench', 'RESULTS.md') },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(
    [
      'npm run bench [-- options]: runs the benchmarks and writes bench/RESULTS.md (what each part measures: bench/README.md)',
      '  --only <parts>          some parts, comma-separated (default all): ' + PARTS.join(', '),
      '  --size small|large      the data set (default large; api and memory measure the small one too)',
      '  --seconds <n>           seconds per route in api, of the soak in cluster, of the load without a backup in backup (default 10)',
      '  --loads <n>             cold page loads in browser (default 5)',
      '  --boots <n>             server starts in startup (default 5)',
      '  --reps <n>              repetitions in portfolio, interactions and history (default 5)',
      '  --lighthouse-runs <n>   Lighthouse runs per page (default 3)',
      '  --upload-mib <n>        the size of the upload in upload (default 1024)',
      '  --resumable-mib <n>     the size of the video in resumable (default 4096)',
      '  --chromium <path>       the browser (default CHROMIUM_PATH or /usr/bin/chromium)',
      '  --out <file>            where the results go (default bench/RESULTS.md; parts not run are carried over)',
      '',
    ].join('\n'),
  );
  process.exit(0);
}
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

const report = openReport({ only, sizeName, size, sizes, seconds, loads, boots, reps, uploadBytes, values });
const { out, log, mark, lines, goals } = report;

// The parts in the order of the results.
if (only.has('api')) await reportApi(report);
if (only.has('browser')) await reportBrowser(report);
if (only.has('interactions') || only.has('portfolio')) await reportInteractions(report);
if (only.has('startup')) await reportStartup(report);
if (only.has('memory')) await reportMemory(report);
if (only.has('lighthouse')) await reportLighthouse(report);
if (only.has('bundle')) await reportBundle(report);
if (only.has('upload')) await reportUpload(report);
if (only.has('resumable')) await reportResumable(report);
if (only.has('exports')) await reportExports(report);
if (only.has('research')) await reportResearch(report);
if (only.has('login')) await reportLogin(report);
if (only.has('filter')) await reportFilter(report);
if (only.has('notify')) await reportNotify(report);
if (only.has('versions')) await reportVersions(report);
if (only.has('history')) await reportHistory(report);
if (only.has('cluster')) await reportCluster(report);
if (only.has('backup')) await reportBackup(report);
if (only.has('coverage')) await reportCoverage(report);

const counts = report.counts;
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
