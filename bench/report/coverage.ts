import { INSIGHTS_READS, runCoverageBench } from '../coverage.ts';
import { percentile } from '../support.ts';
import type { Report } from './report.ts';

/** The coverage part's section: the map's API and its drawing in Chromium (decision 056). */
export async function reportCoverage(report: Report): Promise<void> {
  const { out, log, judge, GOALS, size, sizeName, reps, values } = report;
  log(`Coverage map on the ${sizeName} data set…`);
  const r = await runCoverageBench(size, reps, 200, values.chromium);
  out('## Coverage map');
  out();
  out(
    `The researchers' map of every teacher (\`GET ${'/coverage?scope=installation&rows=teachers'}\`: ${r.rows.toLocaleString('en-US')} rows × ${r.columns} practices, ${(r.bytes / 1000).toFixed(1)} kB, ${r.statements} SQL statement${r.statements === 1 ? '' : 's'} for the request) on the ${sizeName} data set, its tables vacuumed and analysed first as autovacuum leaves them; 200 sequential reads of each map after 20 unrecorded ones. Drawn: \`/coverage\` loaded ${reps} times at 1280 px after one unrecorded load, from the map's \`responseEnd\` (Resource Timing) until the table held its rows and a frame was painted (the answer's parsing and schema check included), ${r.version}.`,
  );
  out();
  out('| Measure | p50 | p99 | Goal | |');
  out('|---|---:|---:|---|---|');
  for (const [name, t] of Object.entries(r.api)) {
    const main = name.startsWith('installation, teachers');
    const verdict = main
      ? judge('coverage', `map API p99 ≤ ${GOALS.coverageApiP99Ms} ms`, `${t.p99} ms`, t.p99 <= GOALS.coverageApiP99Ms)
      : '';
    out(`| ${name} | ${t.p50} ms | ${t.p99} ms | ${main ? `p99 ≤ ${GOALS.coverageApiP99Ms} ms` : ''} | ${verdict} |`);
  }
  out();
  const i = r.insights;
  out(
    `The researcher's charts of the whole installation (\`GET /insights\`, decision 057: activity per week, discussion, levels per criterion, agreement; ${(i.bytes / 1000).toFixed(1)} kB, ${i.statements} SQL statements for the request), ${INSIGHTS_READS} sequential reads after 3 unrecorded ones. The issue sets no goal for it; the 100 ms of the map is ours, for comparison.`,
  );
  out();
  out('| Measure | p50 | p99 | Our reference |');
  out('|---|---:|---:|---|');
  out(
    `| insights, the installation | ${i.p50} ms | ${i.p99} ms | p99 ≤ ${GOALS.coverageApiP99Ms} ms: ${i.p99 <= GOALS.coverageApiP99Ms ? 'within' : 'over'} |`,
  );
  out();
  out('| Drawn after the data arrived | median | slowest | Goal | |');
  out('|---|---:|---:|---|---|');
  for (const { rate, times } of r.render) {
    const median = Math.round(percentile(times, 50));
    const slowest = Math.max(...times);
    const verdict =
      rate === 1
        ? judge(
            'coverage',
            `map drawn ≤ ${GOALS.coverageRenderMs} ms after its data`,
            `${median} ms`,
            median <= GOALS.coverageRenderMs,
          )
        : '';
    out(
      `| ${rate}× CPU | ${median} ms | ${slowest} ms | ${rate === 1 ? `≤ ${GOALS.coverageRenderMs} ms` : ''} | ${verdict} |`,
    );
  }
  out();
}
