import { runResumableBench } from '../resumable.ts';
import type { Report } from './report.ts';

/** `resumable`: a large video through tus from Chromium, without and with three drops. */
export async function reportResumable(report: Report): Promise<void> {
  const { out, log, judge, GOALS, values } = report;
  const mib = Number(values['resumable-mib']);
  log(`A ${mib} MiB video uploaded from Chromium with tus, without and with three drops…`);
  const [whole, dropped] = await runResumableBench(mib * 1024 * 1024, values.chromium);
  const factor = dropped!.seconds / whole!.seconds;
  out('## Resumable upload with drops');
  out();
  out(
    `A ${mib} MiB video (a real MP4 grown by random bytes) chosen in the edit page of a new installation and sent by the web app (tus-js-client, 8 MiB chunks; decision 054) through a loopback TCP proxy, once without a break and once with every connection reset at 25%, 50% and 75% and new ones refused for 1 s. Time from choosing the file to "Uploaded" (the server's copy into the media store, its type and video checks included); the node process's RSS and the sum of the tab's renderer processes' RSS, sampled every 250 ms, growth over the page at rest; each resume's delay from the proxy accepting again to the browser's HEAD or PATCH.`,
  );
  out();
  out('| Run | Time | Throughput | Resumes after | Server RSS idle | Server growth | Tab RSS idle | Tab growth |');
  out('|---|---:|---:|---|---:|---:|---:|---:|');
  for (const run of [whole!, dropped!]) {
    out(
      `| ${run.drops === 0 ? 'no drop' : `${run.drops} drops`} | ${run.seconds.toFixed(1)} s | ${Math.round(mib / run.seconds)} MiB/s | ${run.resumesMs.length ? run.resumesMs.map((ms) => `${ms} ms`).join(', ') : '—'} | ${run.serverIdleMiB} MiB | ${run.serverGrowthMiB} MiB | ${run.tabIdleMiB} MiB | ${run.tabGrowthMiB} MiB |`,
    );
  }
  out();
  const serverGrowth = Math.max(whole!.serverGrowthMiB, dropped!.serverGrowthMiB);
  const tabGrowth = Math.max(whole!.tabGrowthMiB, dropped!.tabGrowthMiB);
  out('| Goal | Figure | |');
  out('|---|---:|---|');
  out(
    `| with three drops ≤ ${GOALS.resumableDropFactor}× the time without | ${factor.toFixed(2)}× | ${judge('resumable', `${mib} MiB with three drops ≤ ${GOALS.resumableDropFactor}× the uninterrupted time`, `${factor.toFixed(2)}×`, factor <= GOALS.resumableDropFactor)} |`,
  );
  out(
    `| server RSS growth ≤ ${GOALS.resumableServerGrowthMiB} MiB | ${serverGrowth} MiB | ${judge('resumable', `server memory growth during a ${mib} MiB resumable upload ≤ ${GOALS.resumableServerGrowthMiB} MiB`, `${serverGrowth} MiB`, serverGrowth <= GOALS.resumableServerGrowthMiB)} |`,
  );
  out(
    `| tab RSS growth ≤ ${GOALS.resumableTabGrowthMiB} MiB | ${tabGrowth} MiB | ${judge('resumable', `tab memory growth during a ${mib} MiB resumable upload ≤ ${GOALS.resumableTabGrowthMiB} MiB`, `${tabGrowth} MiB`, tabGrowth <= GOALS.resumableTabGrowthMiB)} |`,
  );
  out();
}
