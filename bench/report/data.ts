import { LOAD_RATE, LOAD_ROUTES, runBackupBench, WARM_UP_SECONDS } from '../backup.ts';
import { runClusterBench } from '../cluster.ts';
import { runExportBench } from '../exports.ts';
import { SMALL } from '../generate.ts';
import { runResearchBench } from '../research.ts';
import { runS3UploadBench, runUploadBench } from '../upload.ts';
import type { Report } from './report.ts';

/** The streaming parts of the results: a large upload, the CSV exports, the research package, several nodes, backup and restore. */

/** `upload`: the server's memory while a large file is uploaded. */
export async function reportUpload(report: Report): Promise<void> {
  const { out, log, judge, GOALS, uploadBytes, values } = report;
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

  log(`The same upload into S3 (radosgw on loopback)…`);
  const s = await runS3UploadBench(uploadBytes);
  const mib = Math.round(s.bytes / 1024 / 1024);
  const share = Math.round((s.directSeconds / s.seconds) * 100);
  out('### Into an S3 bucket (`MEDIA_STORE=s3`)');
  out();
  out(
    "The same upload to a new installation whose media are in a bucket of Ceph's radosgw on loopback (objects in memory), and the same bytes uploaded straight to that bucket with `@aws-sdk/lib-storage` (8 MiB parts, two at a time) in the same run: the floor of any upload into that store. The server tells the file's type from its first 16 KiB, then streams it into the bucket as it arrives (decision 038), so the upload and the store overlap.",
  );
  out();
  out('| Upload | Time | Throughput | Direct to the bucket | Share of direct | RSS idle | RSS peak | Growth | |');
  out('|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  out(
    `| ${mib} MiB | ${s.seconds.toFixed(1)} s | ${Math.round(mib / s.seconds)} MiB/s | ${s.directSeconds.toFixed(1)} s (${Math.round(mib / s.directSeconds)} MiB/s) | ${share}% ${judge('upload', `${mib} MiB upload into S3: throughput ≥ 70% of a direct lib-storage upload`, `${share}%`, share >= 70)} | ${s.idleMiB} MiB | ${s.peakMiB} MiB | ${s.growthMiB} MiB | ${judge('upload', `memory growth during a ${mib} MiB upload into S3 ≤ ${GOALS.uploadGrowthMiB} MiB`, `${s.growthMiB} MiB`, s.growthMiB <= GOALS.uploadGrowthMiB)} |`,
  );
  out();
}

/** `cluster`: one node and two behind HAProxy: the soak mix, and an uploaded video's poster job. */
export async function reportCluster(report: Report): Promise<void> {
  const { out, log, judge, seconds } = report;
  log('One node, then two, behind HAProxy: the soak mix and the poster job…');
  const rows = await runClusterBench(seconds);
  const one = rows.find((r) => r.nodes === 1)!;
  const two = rows.find((r) => r.nodes === 2)!;
  out('## Several nodes on one machine');
  out();
  out(
    `PostgreSQL, radosgw and HAProxy with the shipped configuration (\`docs/deploy/haproxy.cfg\`) on loopback, and one or two nodes (\`MEDIA_STORE=s3\`). The soak mix: 16 clients for ${seconds} s, each in a loop reading its portfolios and its own record, saving its artifact, and every fourth round uploading a small image. On 2 cores a second node adds no CPU: the figures show what the balancer and the second process cost, not a speed-up. The poster job: 30 small videos uploaded one after another; the time from each upload's answer to its poster stored (the job sent by the upload, run by whichever node takes it).`,
  );
  out();
  out('| Nodes | Requests | Failed | Per second | p50 | p99 | Poster p50 | Poster p99 | Poster max |');
  out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    out(
      `| ${r.nodes} | ${r.soak.requests} | ${r.soak.failed} | ${r.soak.perSecond} | ${r.soak.p50} ms | ${r.soak.p99} ms | ${r.poster.p50} ms | ${r.poster.p99} ms | ${r.poster.max} ms |`,
    );
  out();
  const share = Math.round((two.soak.perSecond / one.soak.perSecond) * 100);
  out(
    `Goals: two nodes keep ≥ 80% of one node's throughput on this machine (${share}%) ${judge('cluster', 'two nodes behind HAProxy: ≥ 80% of one node’s soak throughput on 2 cores', `${share}%`, share >= 80)}; no failed request ${judge('cluster', 'soak mix through HAProxy: no failed request', `${one.soak.failed + two.soak.failed}`, one.soak.failed + two.soak.failed === 0)}; a poster stored within 2 s of the upload's answer at p99, with one node and with two ${judge('cluster', 'poster job: upload answer → poster stored p99 ≤ 2 s (1 and 2 nodes)', `${one.poster.p99} / ${two.poster.p99} ms`, Math.max(one.poster.p99, two.poster.p99) <= 2000)}.`,
  );
  out();
}

/** `exports`: both CSV exports on the data set. */
export async function reportExports(report: Report): Promise<void> {
  const { out, log, judge, GOALS, sizeName, size } = report;
  log(`CSV exports (${sizeName} data set)…`);
  const e = await runExportBench(size);
  report.counts ??= e.counts;
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

/** `research`: the research export package. */
export async function reportResearch(report: Report): Promise<void> {
  const { out, log, judge, mark, MB, GOALS, sizeName, size } = report;
  log(`Research export package (${sizeName} data set)…`);
  const r = await runResearchBench(size);
  report.counts ??= r.counts;
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

/** `backup`: a backup while the portal serves, and its restore into a new `DATA_DIR`. */
export async function reportBackup(report: Report): Promise<void> {
  const { out, log, judge, mark, GOALS, sizeName, size, seconds } = report;
  log(`Backup and restore with media files (${sizeName} data set)…`);
  const b = await runBackupBench(size, seconds);
  report.counts ??= b.counts;
  const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const m = b.media;
  out('## Backup and restore of an installation with its media files');
  out();
  out(
    `The ${sizeName} data set with a file for every media row in the uploads folder (random bytes): each image row's original (2–6 KiB) and its four formats (1–4 KiB each, named in its \`formats\` as the server names them), and ${m.videos} videos of ${MiB(m.videoBytes / m.videos)} MiB: **${m.rows.toLocaleString('en-US')} media rows, ${m.files.toLocaleString('en-US')} files, ${MiB(m.bytes)} MiB** (written in ${m.seconds.toFixed(0)} s, 16 files at a time). The portal runs as \`npm start\` runs it (embedded PostgreSQL). The steady load: ${LOAD_ROUTES.map((r) => `\`${r}\``).join(', ')} in turn (the main read routes of the \`api\` part but the two whole-portfolio reads of about 1 MB each, which a page reads once when it opens and which at a steady rate would take most of the load's CPU by themselves), signed in as the benchmarks' teacher, ${LOAD_RATE} requests per second from 10 connections (autocannon, latencies corrected for coordinated omission), for ${seconds} s without a backup (after ${WARM_UP_SECONDS} s of warm-up), then from spawning \`npm run admin -- backup <file>\` (the operator's command, its own process) until it ends. The server's memory is read every 100 ms: the node process's RSS, and the sum of PSS of its other processes (the database guard, PostgreSQL; during the backup this includes the backup's own connection, a PostgreSQL process that reads every table). Its growth is the peak during the backup less the peak under the same load without one. Then the portal is stopped, \`npm run admin -- restore <file>\` restores into a new empty \`DATA_DIR\`, and the portal is started on it and signed in to. Wall times include npm and the start of the command's node process.`,
  );
  out();
  out(
    'The goal for the API during a backup is the one of a task that shares the machine: p99 at most twice the p99 without it. The backup runs beside the server on the same 2 cores (its node process hashes and writes every byte, PostgreSQL copies every table), so a bound relative to the same load without a backup, not an absolute one, says what users feel of it.',
  );
  out();
  out('| Load | Requests | Failed | p50 | p99 | max |');
  out('|---|---:|---:|---:|---:|---:|');
  for (const [label, l] of [
    ['without a backup', b.quiet],
    ['during the backup', b.during],
  ] as const)
    out(
      `| ${label} (${l.seconds} s) | ${l.requests.toLocaleString('en-US')} | ${l.failed} | ${l.p50} ms | ${l.p99} ms | ${l.max} ms |`,
    );
  out();
  const factor = b.quiet.p99 > 0 ? b.during.p99 / b.quiet.p99 : Infinity;
  const p99Met = b.during.failed === 0 && factor <= GOALS.backupP99Factor;
  const growth = Math.round(b.duringMemory.node - b.quietMemory.node);
  const growthMet = growth <= GOALS.backupGrowthMiB;
  const restoredMet = b.restoredStatus === 200 && b.restore.files === b.backup.files && b.restoredFiles === m.files;
  out('| Backup | |');
  out('|---|---:|');
  out(`| wall time | ${b.backup.seconds.toFixed(1)} s |`);
  out(`| file | ${MiB(b.backup.bytes)} MiB (${MiB(b.backup.bytes / b.backup.seconds)} MiB/s) |`);
  out(`| media files in it | ${b.backup.files.toLocaleString('en-US')} of ${m.files.toLocaleString('en-US')} |`);
  out(`| the admin command's node process: peak RSS | ${Math.round(b.backup.peakRssMiB)} MiB |`);
  out(
    `| the server's node process: peak RSS without a backup → during it | ${Math.round(b.quietMemory.node)} → ${Math.round(b.duringMemory.node)} MiB |`,
  );
  out(
    `| its growth (goal ≤ ${GOALS.backupGrowthMiB} MiB) | ${growth} MiB ${judge('backup', `server memory growth during a backup under load ≤ ${GOALS.backupGrowthMiB} MiB (${sizeName} data set)`, `${growth} MiB`, growthMet)} |`,
  );
  out(
    `| the server's PostgreSQL (sum of PSS): peak without a backup → during it | ${Math.round(b.quietMemory.postgres)} → ${Math.round(b.duringMemory.postgres)} MiB |`,
  );
  out(
    `| API p99 during the backup (goal ≤ ${GOALS.backupP99Factor}× the ${b.quiet.p99} ms without) | ${b.during.p99} ms, ${factor.toFixed(1)}× ${judge('backup', `API p99 during a backup ≤ ${GOALS.backupP99Factor}× the p99 without (${LOAD_RATE} req/s, ${sizeName} data set)`, `${b.during.p99} ms against ${b.quiet.p99} ms (${factor.toFixed(1)}×)`, p99Met)} |`,
  );
  out();
  out('| Restore into a new `DATA_DIR` | |');
  out('|---|---:|');
  out(`| wall time | ${b.restore.seconds.toFixed(1)} s |`);
  out(`| the admin command's node process: peak RSS | ${Math.round(b.restore.peakRssMiB)} MiB |`);
  out(`| the PostgreSQL it starts (sum of PSS): peak | ${Math.round(b.restore.postgresPeakPssMiB)} MiB |`);
  out(
    `| media files restored / in the new uploads folder | ${b.restore.files.toLocaleString('en-US')} / ${b.restoredFiles.toLocaleString('en-US')} |`,
  );
  out(
    `| the portal started on it: signed-in \`GET /api/v1/portfolios\` | ${b.restoredStatus} ${judge('backup', `restore into a new DATA_DIR: every media file back, the portal started on it answers a signed-in read (${sizeName} data set)`, `${b.restoredStatus}, ${b.restoredFiles} of ${m.files} files`, restoredMet)} |`,
  );
  out();
  if (b.during.failed > 0 || b.quiet.failed > 0) {
    out(`Failed requests under load: ${b.quiet.failed} without a backup, ${b.during.failed} during it ${mark(false)}.`);
    out();
  }
}
