/** Shared pieces of the benchmarks: servers in child processes, memory readings, results. */
import { execFileSync, execSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openPostgres } from '../server/src/db/client.ts';
import { commandLine, freePort, processTree, stopChild, waitForHealth } from '../server/test/processes.ts';
import { startEmbedded } from '../server/src/db/embedded.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { ensureTemplate } from '../server/src/db/seed.ts';
import { datasetCounts, generateDataset, type DatasetSize } from './generate.ts';

export { freePort, waitForHealth };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Resident memory of a process in MiB (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** One process of a running server and its memory (bytes). */
export interface ServerProcess {
  pid: number;
  /** What it is, from its command line (PostgreSQL names its processes by their role). */
  name: string;
  rss: number;
  pss: number;
}

function procField(file: string, field: string): number {
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
  return kb * 1024;
}

function describeProcess(command: string): string {
  if (command.includes('dist-server/main.js')) return 'node (the API server)';
  if (/^\/bin\/sh -c [\s\S]*pg-guard/.test(command) || command === 'cat')
    return `${command.split(' ')[0]!.split('/').at(-1)} (the database guard)`;
  if (/^\S*postgres -D /.test(command)) return 'postgres (postmaster)';
  const title = /^postgres: (.*)$/.exec(command)?.[1]?.trim();
  if (title)
    return /\[local\]/.test(title) ? `postgres: connection (${title.split(' ').at(-1)})` : `postgres: ${title}`;
  return command.split(' ')[0]!.split('/').at(-1) ?? command;
}

/**
 * Every process of the server started as `rootPid`: the node process and all its descendants
 * (the database guard, the postmaster and its processes), plus any process whose command line
 * names `DATA_DIR/db/pgdata`; with their RSS and PSS (Linux `/proc`).
 */
export function serverProcesses(rootPid: number, dataDir: string): ServerProcess[] {
  return processesOf(processTree([rootPid], path.join(dataDir, 'db', 'pgdata')));
}

/** Some processes with their RSS and PSS (Linux `/proc`); those that ended meanwhile are left out. */
export function processesOf(pids: readonly number[]): ServerProcess[] {
  const out: ServerProcess[] = [];
  for (const pid of pids) {
    try {
      out.push({
        pid,
        name: describeProcess(commandLine(pid)),
        rss: procField(`/proc/${pid}/status`, 'VmRSS'),
        pss: procField(`/proc/${pid}/smaps_rollup`, 'Pss'),
      });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const MIGRATIONS = path.join(ROOT, 'server', 'src', 'db', 'migrations');
const CACHE = path.join(ROOT, 'bench', '.data');

/** A fingerprint of what a generated data set depends on: its size, the generator and the migrations. */
function datasetKey(size: DatasetSize): string {
  const hash = createHash('sha256').update(JSON.stringify(size));
  for (const file of [
    path.join(ROOT, 'bench', 'generate.ts'),
    ...readdirSync(MIGRATIONS).map((f) => path.join(MIGRATIONS, f)),
  ])
    hash.update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * A data directory for one benchmark: a copy of an embedded database holding the generated data
 * set. Generating the large set takes minutes, so it is generated once into `bench/.data/` and
 * copied for every run (each benchmark may change its copy).
 */
export async function prepareDataDir(
  size: DatasetSize,
): Promise<{ dataDir: string; counts: Record<string, number>; emails: Awaited<ReturnType<typeof generateDataset>> }> {
  const cached = path.join(CACHE, datasetKey(size));
  const factsFile = path.join(cached, 'facts.json');
  if (!existsSync(factsFile)) {
    rmSync(cached, { recursive: true, force: true });
    mkdirSync(cached, { recursive: true });
    const started = Date.now();
    const server = await startEmbedded(path.join(cached, 'db'));
    const db = openPostgres(server.connection, { onClose: () => server.stop() });
    await migrate(db);
    await ensureTemplate(db);
    const emails = await generateDataset(db, size);
    const counts = await datasetCounts(db);
    await db.close();
    writeFileSync(factsFile, JSON.stringify({ emails, counts, seconds: Math.round((Date.now() - started) / 1000) }));
  }
  const facts = JSON.parse(readFileSync(factsFile, 'utf8')) as {
    emails: Awaited<ReturnType<typeof generateDataset>>;
    counts: Record<string, number>;
  };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-'));
  // The stopped server's folder, without its socket folder and log.
  cpSync(path.join(cached, 'db'), path.join(dataDir, 'db'), {
    recursive: true,
    filter: (src) => !/[/\\](run|postgres\.log)$/.test(src),
  });
  return { dataDir, counts: facts.counts, emails: facts.emails };
}

const SERVER_MAIN = path.join(ROOT, 'dist-server', 'main.js');
let serverBuilt: Promise<void> | null = null;

/** Compiles the server to `dist-server/` (as `npm start` does) when it is missing or older than its sources. */
export function ensureServerBuilt(): Promise<void> {
  serverBuilt ??= (async () => {
    const script = pathToFileURL(path.join(ROOT, 'scripts', 'build-server.mjs')).href;
    const { buildServer, serverIsCurrent } = (await import(script)) as {
      buildServer: () => Promise<void>;
      serverIsCurrent: () => boolean;
    };
    if (!serverIsCurrent()) await buildServer();
  })();
  return serverBuilt;
}

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Builds the SPA into `dist/` (as `npm start` does) when it is missing or older than its sources. */
export function ensureSpaBuilt(): void {
  const built = path.join(ROOT, 'dist', 'index.html');
  const sources = ['src', 'public', 'index.html', 'vite.config.ts'].map((p) => path.join(ROOT, p)).filter(existsSync);
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
}

/** The environment `npm start` gives the server, for one benchmark run. */
export function serverEnv(dataDir: string, port: number, extraEnv: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: process.env['NODE_ENV'] ?? 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
}

/** Spawns the compiled server exactly as `npm start` runs it (`node dist-server/main.js`). */
export function spawnServer(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [SERVER_MAIN], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * The real server in a child process, as `npm start` runs it (the compiled `dist-server/main.js`;
 * it and the SPA built first when out of date), on `dataDir`.
 */
export async function startServer(
  dataDir: string,
  extraEnv: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  await ensureServerBuilt();
  ensureSpaBuilt();
  const port = await freePort();
  const child = spawnServer(serverEnv(dataDir, port, extraEnv));
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, { child });
  return { url, child, stop: () => stopChild(child) };
}

/** Logs in through the API. */
export async function token(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: email, password }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return ((await res.json()) as { jwt: string }).jwt;
}

/** What the benchmark ran on. */
export function machine(): { cpu: string; cores: number; memory: string; node: string; commit: string; date: string } {
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
    if (execSync('git status --porcelain', { cwd: ROOT }).toString().trim()) commit += ' (with local changes)';
  } catch {
    // not a checkout
  }
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
    node: process.version,
    commit,
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
  };
}

/** The p-th percentile (nearest rank, `p` from 0 to 100) of some numbers. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}
