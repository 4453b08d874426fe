/** The research export package at scale: time, size, rows, and the server's memory while it streams. */
import { rmSync } from 'node:fs';
import { ResearchExportListResponseSchema } from '../src/schemas/researchExport.ts';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { prepareDataDir, rssMiB, startServer, token } from './support.ts';

export interface ResearchPackageRun {
  /** The query of the download. */
  query: string;
  status: number;
  /** ZIP bytes received. */
  bytes: number;
  seconds: number;
  /** Rows per file, from the audit log. */
  rowCounts: Record<string, number>;
  /** The audit log's status of the export once the download ended. */
  logged: string;
  beforeMiB: number;
  peakMiB: number;
}

/** Downloads the package (reading the body as it comes, never holding it) while sampling the server's RSS every 50 ms. */
async function downloadPackage(url: string, jwt: string, pid: number, query: string): Promise<ResearchPackageRun> {
  let peak = rssMiB(pid);
  const before = peak;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 50);
  const started = Date.now();
  let bytes = 0;
  let status = 0;
  try {
    const res = await fetch(`${url}/api/v1/research/export${query ? `?${query}` : ''}`, {
      headers: { authorization: `Bearer ${jwt}` },
    });
    status = res.status;
    for await (const chunk of res.body ?? []) bytes += (chunk as Uint8Array).byteLength;
  } finally {
    clearInterval(sampler);
  }
  const seconds = (Date.now() - started) / 1000;
  const log = await fetch(`${url}/api/v1/research/exports`, { headers: { authorization: `Bearer ${jwt}` } });
  const latest = ResearchExportListResponseSchema.parse(await log.json())[0];
  return {
    query,
    status,
    bytes,
    seconds,
    rowCounts: latest?.rowCounts ?? {},
    logged: latest?.status ?? 'none',
    beforeMiB: Math.round(before),
    peakMiB: Math.round(peak),
  };
}

/** One server's figures: idle, the warm-up package, then the two full packages. */
export interface ResearchServerRun {
  /** How the server was started (its `NODE_OPTIONS`, or "default"). */
  label: string;
  idleMiB: number;
  warmUp: ResearchPackageRun;
  runs: ResearchPackageRun[];
}

/**
 * On a fresh server: a warm-up package that selects no artifact, comment or reaction (created
 * after 2100), so the server has run the export's code once; then the package of the whole
 * installation, pseudonymous (every text de-identified), then with identities included, one after
 * the other. Twice: the server as \`npm start\` runs it, and the same with V8's young generation
 * capped (\`--max-semi-space-size=2\`), which shows how much of the growth is the young generation
 * V8 grows for any sustained allocation (not data the export holds).
 */
export async function runResearchBench(size: DatasetSize) {
  const servers: ResearchServerRun[] = [];
  let counts: Record<string, number> = {};
  for (const [label, env] of [
    ['default', {}],
    ['--max-semi-space-size=2', { NODE_OPTIONS: '--max-semi-space-size=2' }],
  ] as const) {
    const prepared = await prepareDataDir(size);
    counts = prepared.counts;
    const server = await startServer(prepared.dataDir, env);
    const pid = server.child.pid!;
    try {
      const jwt = await token(server.url, 'researcher@bench.example', BENCH_PASSWORD);
      await new Promise((r) => setTimeout(r, 2000));
      const idleMiB = Math.round(rssMiB(pid));
      const warmUp = await downloadPackage(server.url, jwt, pid, 'from=2100-01-01');
      process.stdout.write(
        `  [${label}] warm-up: ${warmUp.seconds.toFixed(1)} s, RSS ${warmUp.beforeMiB} → ${warmUp.peakMiB} MiB\n`,
      );
      await new Promise((r) => setTimeout(r, 2000));
      const runs: ResearchPackageRun[] = [];
      for (const query of ['identities=pseudonymous', 'identities=included&consentConfirmed=true']) {
        const run = await downloadPackage(server.url, jwt, pid, query);
        runs.push(run);
        process.stdout.write(
          `  [${label}] ${query}: ${run.seconds.toFixed(1)} s, ${(run.bytes / 1e6).toFixed(1)} MB, RSS ${run.beforeMiB} → ${run.peakMiB} MiB\n`,
        );
      }
      servers.push({ label, idleMiB, warmUp, runs });
    } finally {
      await server.stop();
      rmSync(prepared.dataDir, { recursive: true, force: true });
    }
  }
  return { counts, servers };
}
