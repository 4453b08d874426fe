/**
 * Start and restart: the time from spawning the server as `npm start` runs it (the compiled
 * `dist-server/main.js`, the SPA already built) to its first healthy `/api/v1/health`, on an empty
 * `DATA_DIR` (the database is created, migrated and given the demo data) and on the same
 * `DATA_DIR` again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureServerBuilt, ensureSpaBuilt, freePort, median, serverEnv, spawnServer, stopServer, waitForHealth } from './support.ts';

/** Spawns the server and returns the milliseconds until it answers `/api/v1/health`, then stops it. */
async function boot(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnServer(serverEnv(dataDir, port, { DEMO_DATA: 'true' }));
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, child, 5);
    return performance.now() - started;
  } finally {
    await stopServer(child);
  }
}

/** Medians of `runs` first boots (each on a new `DATA_DIR`) and of `runs` restarts on an existing one. */
export async function runStartupBench(runs: number) {
  await ensureServerBuilt();
  ensureSpaBuilt();
  const firstBoots: number[] = [];
  const restarts: number[] = [];
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
  const result = { runs, firstBootMs: Math.round(median(firstBoots)), restartMs: Math.round(median(restarts)), firstBoots: firstBoots.map(Math.round), restarts: restarts.map(Math.round) };
  process.stdout.write(`  first boot ${result.firstBoots.join(', ')} ms; restart ${result.restarts.join(', ')} ms\n`);
  return result;
}
