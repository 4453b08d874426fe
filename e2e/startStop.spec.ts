import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, freePort, processTree, waitForHealth } from '../server/test/processes.ts';

/**
 * `npm start` under a process manager: a SIGTERM (or SIGINT) sent to the `npm start` process
 * alone — not to its process group, as systemd's `KillMode=process`, a container runtime or a
 * supervisor sends it — stops the server and its PostgreSQL cleanly within 5 s, leaving nothing
 * running. The server runs here on its own empty data folder, not the shared e2e server.
 */

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-start-'));
const started: ChildProcess[] = [];
const trees: number[][] = [];

/** The processes, other than `npm`, that `npm start` started: every process that names `dataDir` or descends from `root`. */
const startedBy = (root: number): number[] => processTree([root], dataDir).filter((pid) => pid !== root);

afterAll(() => {
  // After a failure: whatever is left (npm, the server, PostgreSQL and its guard).
  for (const child of started) if (child.pid && child.exitCode === null) child.kill('SIGKILL');
  for (const pid of trees.flat()) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function npmStart(
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; output: () => string; exited: Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn('npm', ['start'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SMTP_URL: '',
      ...(process.env['E2E_STATIC_DIR'] ? { STATIC_DIR: process.env['E2E_STATIC_DIR'], SKIP_BUILD: '1' } : {}),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await waitForHealth(url, { child, output: () => output, everyMs: 100, timeoutMs: 90_000 });
  return { child, url, output: () => output, exited };
}

describe('npm start under a process manager', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the npm start process stops the server and PostgreSQL cleanly within 5 s`, async () => {
      const { child, output, exited } = await npmStart();
      const tree = startedBy(child.pid!);
      trees.push(tree);
      expect(tree.some((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres'))).toBe(true);
      expect(existsSync(path.join(dataDir, 'db', 'pgdata', 'postmaster.pid'))).toBe(true);

      const sent = Date.now();
      process.kill(child.pid!, signal);
      await Promise.race([exited, sleep(5_000)]);
      while (tree.some(alive) && Date.now() - sent < 5_000) await sleep(20);

      expect(
        child.exitCode ?? child.signalCode,
        `npm start is still running 5 s after ${signal}:\n${output()}`,
      ).not.toBeNull();
      expect(tree.filter(alive), `still running 5 s after ${signal}:\n${output()}`).toEqual([]);
      // PostgreSQL removes its postmaster.pid only when it shuts down cleanly.
      expect(existsSync(path.join(dataDir, 'db', 'pgdata', 'postmaster.pid'))).toBe(false);
      expect(Date.now() - sent).toBeLessThan(5_000);
    });
  }

  it('with DRAIN_SECONDS, a SIGTERM first makes the node unready (503) while it still serves, then stops it cleanly', async () => {
    const { child, url, output, exited } = await npmStart({ DRAIN_SECONDS: '2' });
    const tree = startedBy(child.pid!);
    trees.push(tree);
    expect((await fetch(`${url}/api/v1/ready`)).status).toBe(200);

    const sent = Date.now();
    process.kill(child.pid!, 'SIGTERM');
    let ready = await fetch(`${url}/api/v1/ready`);
    while (ready.status === 200 && Date.now() - sent < 1_000) ready = await fetch(`${url}/api/v1/ready`);
    expect(ready.status, output()).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', draining: true });
    // Requests still get their answers while the load balancer takes the node out.
    expect((await fetch(`${url}/api/v1/config`)).status).toBe(200);
    expect(child.exitCode).toBeNull();

    await Promise.race([exited, sleep(7_000)]);
    while (tree.some(alive) && Date.now() - sent < 7_000) await sleep(20);
    expect(tree.filter(alive), `still running 7 s after SIGTERM:\n${output()}`).toEqual([]);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(2_000);
    expect(existsSync(path.join(dataDir, 'db', 'pgdata', 'postmaster.pid'))).toBe(false);
  });
});
