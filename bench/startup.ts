/**
 * Start and restart as users run the portal: the time from spawning `npm start` (the SPA and the
 * compiled server already built, so the build freshness check finds nothing to do) to its first
 * healthy `/api/v1/health`, on an empty `DATA_DIR` (the database is created, migrated and given the
 * demo data) and on the same `DATA_DIR` again; where the time goes (the phases `STARTUP_TIMING=1`
 * reports); and the stop: SIGTERM to the `npm start` process, as a process manager sends it, until
 * npm, the server and every PostgreSQL process have ended.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuilt, ensureSpaBuilt, freePort, median, ROOT, serverEnv, waitForHealth } from './support.ts';

/**
 * Where the time goes, from the marks (`spawn`: the benchmark spawned `npm start`; `ready`: the
 * database and the HTTP application both ready). The server builds the application while
 * PostgreSQL starts, so the lines marked "in parallel" overlap; the others add up to the total.
 */
export const PHASES = [
  { from: 'spawn', to: 'start-script', name: 'npm itself (until `scripts/start.mjs` runs)' },
  { from: 'start-script', to: 'freshness-checked', name: 'build freshness check (SPA and server)' },
  { from: 'freshness-checked', to: 'server-loaded', name: 'loading the compiled server' },
  {
    from: 'server-loaded',
    to: 'database-started',
    name: 'in parallel: PostgreSQL start (first boot: initdb; restart: recovery)',
  },
  {
    from: 'database-started',
    to: 'database-checked',
    name: 'in parallel: then migrations check, template, demo data (first boot)',
  },
  { from: 'app-build-started', to: 'app-built', name: 'in parallel: HTTP application loaded and built' },
  { from: 'server-loaded', to: 'ready', name: 'database and application ready (the longer of the two)' },
  { from: 'ready', to: 'healthy', name: 'listening, first `GET /api/v1/health` answered' },
] as const;

export interface Boot {
  totalMs: number;
  /** Milliseconds of each phase, in the order of PHASES. */
  phases: number[];
  /** From SIGTERM to `npm start` until npm and every server process had ended. */
  stopMs: number;
  /** Whether PostgreSQL stopped cleanly (its `postmaster.pid` removed) and nothing was left running. */
  clean: boolean;
}

/** Every process whose command line names `dataDir` (the server's PostgreSQL and its guard). */
function processesOf(dataDir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir)) found.push(pid);
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function boot(dataDir: string): Promise<Boot> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: ROOT,
    env: serverEnv(dataDir, port, { DEMO_DATA: 'true', STARTUP_TIMING: '1' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const marks = new Map<string, number>();
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const m of stderr.matchAll(/^startup-timing (\S+) ([\d.]+)$/gm)) marks.set(m[1]!, Number(m[2]));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await waitForHealth(`http://127.0.0.1:${port}`, { child, everyMs: 5 });
  marks.set('healthy', Date.now());
  const totalMs = Date.now() - spawnedAt;
  marks.set('spawn', spawnedAt);
  marks.set('ready', Math.max(marks.get('database-checked') ?? 0, marks.get('app-built') ?? 0));
  const phases = PHASES.map(({ from, to }) => {
    const start = marks.get(from);
    const end = marks.get(to);
    return start === undefined || end === undefined ? 0 : Math.round(Math.max(0, end - start));
  });
  const serverPids = processesOf(dataDir);
  const stopping = Date.now();
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000).unref());
  const ended = await Promise.race([exited.then(() => 'exited' as const), timeout]);
  while (serverPids.some(alive) && Date.now() - stopping < 10_000) await new Promise((r) => setTimeout(r, 5));
  const stopMs = Date.now() - stopping;
  const leftover = serverPids.filter(alive);
  for (const pid of leftover) process.kill(pid, 'SIGKILL');
  if (ended === 'timeout') child.kill('SIGKILL');
  const clean =
    ended === 'exited' && leftover.length === 0 && !existsSync(path.join(dataDir, 'db', 'pgdata', 'postmaster.pid'));
  return { totalMs, phases, stopMs, clean };
}

function medianBoot(boots: Boot[]) {
  return {
    totalMs: Math.round(median(boots.map((b) => b.totalMs))),
    phases: PHASES.map((_, i) => Math.round(median(boots.map((b) => b.phases[i]!)))),
    stopMs: Math.round(median(boots.map((b) => b.stopMs))),
    maxStopMs: Math.max(...boots.map((b) => b.stopMs)),
    allClean: boots.every((b) => b.clean),
    runs: boots.map((b) => b.totalMs),
  };
}

/** Medians of `runs` first boots (each on a new `DATA_DIR`) and of `runs` restarts on an existing one, with their phases. */
export async function runStartupBench(runs: number) {
  await ensureServerBuilt();
  ensureSpaBuilt();
  const firstBoots: Boot[] = [];
  const restarts: Boot[] = [];
  const dirs: string[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-boot-'));
      dirs.push(dataDir);
      firstBoots.push(await boot(dataDir));
    }
    for (let i = 0; i < runs; i++) restarts.push(await boot(dirs[0]!));
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  const result = { runs, first: medianBoot(firstBoots), restart: medianBoot(restarts) };
  process.stdout.write(
    `  first boot ${result.first.runs.join(', ')} ms; restart ${result.restart.runs.join(', ')} ms; stop ≤ ${Math.max(result.first.maxStopMs, result.restart.maxStopMs)} ms\n`,
  );
  return result;
}
