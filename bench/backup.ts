/**
 * Backup and restore of an installation with its media files, as an operator runs them: the
 * portal started as `npm start` runs it, a steady load of signed-in reads without a backup and
 * during `npm run admin -- backup <file>` (its own process), the memory of the server and of the
 * command; then the portal stopped, `npm run admin -- restore <file>` into a new `DATA_DIR`, and
 * the portal started on it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { commandLine, processTree } from '../server/test/processes.ts';
import { mainReadEndpoints } from './api.ts';
import { writeMediaFiles, type MediaFacts } from './backupMedia.ts';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { prepareDataDir, processesOf, ROOT, serverEnv, serverProcesses, startServer, token } from './support.ts';

/** The steady load: requests per second from all connections together, `LOAD_ROUTES` in turn. */
export const LOAD_RATE = 20;
/**
 * The reads of the steady load: the main read routes of the `api` part but the two whole-portfolio
 * reads (about 1 MB of JSON each on the large data set, read once when such a page opens), which
 * at a steady rate would take most of the CPU of this load by themselves.
 */
export const LOAD_ROUTES = ['GET /users/me', 'GET /portfolios', 'GET /shared-portfolios', 'GET /shared-artifacts/{id}'];
const CONNECTIONS = 10;
/** The load before the one measured without a backup (the server's code and the database's caches warm). */
export const WARM_UP_SECONDS = 5;
/** Memory is read this often. */
const SAMPLE_MS = 100;
const MiB = 1024 * 1024;

/** The figures of a load. */
export interface LoadFigures {
  requests: number;
  /** Answers other than 2xx, and errors (refused, timed out). */
  failed: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
}

/** One admin command: its wall time (from spawning `npm run admin` to its end) and its memory at peak (MiB). */
export interface AdminRun {
  seconds: number;
  output: string;
  /** The node process that runs the command (`dist-server/admin.js`). */
  peakRssMiB: number;
  /** The PostgreSQL processes the command started (the restore's embedded database): sum of PSS. */
  postgresPeakPssMiB: number;
}

/**
 * The main read routes in turn at `LOAD_RATE` requests per second (autocannon, 10 connections;
 * latencies corrected for coordinated omission), for `seconds` or until stopped.
 */
function steadyLoad(url: string, headers: Record<string, string>, paths: readonly string[], seconds = 3600) {
  let resolve!: (figures: LoadFigures) => void;
  let reject!: (error: Error) => void;
  const done = new Promise<LoadFigures>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const instance = autocannon(
    {
      url,
      headers,
      connections: CONNECTIONS,
      overallRate: LOAD_RATE,
      duration: seconds,
      requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
    },
    (error: Error | null, result) => {
      if (error) reject(error);
      else
        resolve({
          requests: result.requests.total,
          failed: result.non2xx + result.errors + result.timeouts,
          seconds: result.duration,
          p50: result.latency.p50,
          p99: result.latency.p99,
          max: result.latency.max,
        });
    },
  );
  return { done, stop: () => (instance.stop(), done) };
}

/** The server's node process's RSS, and the sum of PSS of its other processes (the database guard, PostgreSQL), in MiB. */
interface ServerMemory {
  node: number;
  postgres: number;
}

/** Reads the server's memory every `SAMPLE_MS` until stopped; `stop` gives the largest of each. */
function sampleServer(pid: number, dataDir: string): { stop: () => ServerMemory } {
  const peak: ServerMemory = { node: 0, postgres: 0 };
  const read = () => {
    const all = serverProcesses(pid, dataDir);
    peak.node = Math.max(peak.node, (all.find((p) => p.pid === pid)?.rss ?? 0) / MiB);
    peak.postgres = Math.max(peak.postgres, all.filter((p) => p.pid !== pid).reduce((n, p) => n + p.pss, 0) / MiB);
  };
  read();
  const timer = setInterval(read, SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

/**
 * Runs `npm run admin -- <args>` as the operator does (its own process, in `env`), reading the
 * memory of its node process and of the PostgreSQL it starts (on `dataDir`, if any) meanwhile.
 * @throws when the command fails.
 */
async function adminCommand(args: string[], env: NodeJS.ProcessEnv, dataDir: string | null): Promise<AdminRun> {
  const started = performance.now();
  const child = spawn('npm', ['run', 'admin', '--', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const marker = args.at(-1)!;
  const postgres = dataDir ? path.join(dataDir, 'db', 'pgdata') : null;
  let adminPid: number | null = null;
  let peakRss = 0;
  let peakPostgres = 0;
  const timer = setInterval(() => {
    const tree = processTree([child.pid!], marker);
    adminPid ??=
      tree.find((pid) => {
        try {
          return commandLine(pid).includes(path.join('dist-server', 'admin.js'));
        } catch {
          return false;
        }
      }) ?? null;
    const pids = postgres ? [...new Set([...tree, ...processTree([], postgres)])] : tree;
    const memory = processesOf(pids);
    peakRss = Math.max(peakRss, memory.find((p) => p.pid === adminPid)?.rss ?? 0);
    const database = memory.filter((p) => p.name.startsWith('postgres'));
    peakPostgres = Math.max(
      peakPostgres,
      database.reduce((n, p) => n + p.pss, 0),
    );
  }, SAMPLE_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`npm run admin -- ${args.join(' ')} ended with ${code}:\n${output}`);
  return {
    seconds: (performance.now() - started) / 1000,
    output: output.trim(),
    peakRssMiB: peakRss / MiB,
    postgresPeakPssMiB: peakPostgres / MiB,
  };
}

/** What `runBackupBench` measured. */
export interface BackupBenchResult {
  counts: Record<string, number>;
  media: MediaFacts;
  /** The steady load without a backup, and while the backup ran. */
  quiet: LoadFigures;
  during: LoadFigures;
  /** The server's memory at peak (MiB) during the load without a backup, and during the backup. */
  quietMemory: ServerMemory;
  duringMemory: ServerMemory;
  backup: AdminRun & { bytes: number; files: number };
  restore: AdminRun & { files: number };
  /** Files in the restored uploads folder. */
  restoredFiles: number;
  /** The status of `GET /api/v1/portfolios`, signed in, on the portal started on the restored `DATA_DIR`. */
  restoredStatus: number;
}

function mediaFilesOf(output: string): number {
  const found = /(\d+) media files/.exec(output);
  if (!found) throw new Error(`the admin command did not say how many media files it copied:\n${output}`);
  return Number(found[1]);
}

export async function runBackupBench(size: DatasetSize, seconds: number): Promise<BackupBenchResult> {
  const { dataDir, counts, emails } = await prepareDataDir(size);
  const work = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-backup-'));
  const file = path.join(work, 'practicefolio.backup');
  const restoredDir = path.join(work, 'restored');
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const media = await writeMediaFiles(dataDir);
    process.stdout.write(
      `  media: ${media.files} files, ${(media.bytes / MiB).toFixed(0)} MiB written in ${media.seconds.toFixed(1)} s\n`,
    );
    server = await startServer(dataDir);
    const pid = server.child.pid!;
    const env = serverEnv(dataDir, Number(new URL(server.url).port));
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const auth = { authorization: `Bearer ${jwt}` };
    const paths = (await mainReadEndpoints(server.url, auth))
      .filter((e) => LOAD_ROUTES.includes(e.name))
      .map((e) => e.path);
    await steadyLoad(server.url, auth, paths, WARM_UP_SECONDS).done;

    let memory = sampleServer(pid, dataDir);
    const quiet = await steadyLoad(server.url, auth, paths, seconds).done;
    const quietMemory = memory.stop();
    process.stdout.write(`  without a backup: p50 ${quiet.p50} ms, p99 ${quiet.p99} ms, ${quiet.requests} requests\n`);

    memory = sampleServer(pid, dataDir);
    const load = steadyLoad(server.url, auth, paths);
    let backupRun!: AdminRun;
    let during!: LoadFigures;
    try {
      backupRun = await adminCommand(['backup', file], env, null);
    } finally {
      during = await load.stop();
    }
    const duringMemory = memory.stop();
    const backup = { ...backupRun, bytes: statSync(file).size, files: mediaFilesOf(backupRun.output) };
    process.stdout.write(
      `  backup: ${backup.seconds.toFixed(1)} s, ${(backup.bytes / MiB).toFixed(0)} MiB, ${backup.files} media files; during it p50 ${during.p50} ms, p99 ${during.p99} ms\n`,
    );
    await server.stop();
    server = null;

    mkdirSync(restoredDir);
    const restoreRun = await adminCommand(['restore', file], { ...env, DATA_DIR: restoredDir }, restoredDir);
    const restore = { ...restoreRun, files: mediaFilesOf(restoreRun.output) };
    const restoredFiles = readdirSync(path.join(restoredDir, 'uploads')).filter((n) => !n.startsWith('.')).length;
    process.stdout.write(`  restore: ${restore.seconds.toFixed(1)} s, ${restoredFiles} files in the uploads folder\n`);
    server = await startServer(restoredDir);
    const again = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const res = await fetch(`${server.url}/api/v1/portfolios`, { headers: { authorization: `Bearer ${again}` } });
    await res.arrayBuffer();
    return {
      counts,
      media,
      quiet,
      during,
      quietMemory,
      duringMemory,
      backup,
      restore,
      restoredFiles,
      restoredStatus: res.status,
    };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}
