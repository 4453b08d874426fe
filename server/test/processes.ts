import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Child processes of the end-to-end tests and the benchmarks: a free port, the real server's
 * process tree (Linux `/proc`), its health, and a clean stop.
 */

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A process's command line, its arguments joined by spaces. */
export function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replaceAll('\0', ' ');
}

/** Every process whose command line names `marker`, every descendant of those and of `roots`. */
export function processTree(roots: readonly number[], marker: string): number[] {
  const children = new Map<number, number[]>();
  const found = new Set<number>(roots);
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
      if (commandLine(pid).includes(marker)) found.add(pid);
    } catch {
      // ended meanwhile
    }
  }
  const queue = [...found];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (!found.has(child)) {
        found.add(child);
        queue.push(child);
      }
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** Whether a process still runs (a zombie, ended and not yet reaped, has stopped). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Whether a child process has ended. */
export const ended = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** Sends `signal` to a child (SIGTERM: the server closes HTTP, then stops its database) and waits for it to end. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (ended(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** Waits for `/api/v1/health` to answer (looking every `everyMs`); fails early, with `output()`, when `child` ends first. */
export async function waitForHealth(
  url: string,
  options: { child?: ChildProcess; output?: () => string; everyMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  const { child, output = () => '', everyMs = 200, timeoutMs = 120_000 } = options;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && ended(child))
      throw new Error(
        `The server ended (${child.exitCode ?? child.signalCode}) before ${url} became healthy:\n${output()}`,
      );
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(everyMs);
  }
  throw new Error(`${url} did not become healthy:\n${output()}`);
}
