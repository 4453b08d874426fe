// A real Redis on loopback for the tests: Debian's redis-server, with nothing kept on disk (no
// snapshots, no append-only file), on a free port, ended with the process that started it.
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, onPath } from './localServers.mjs';

const BINARY = 'redis-server';
const ADVICE = 'sudo apt-get update && sudo apt-get install -y redis-server';

/**
 * `{ ok: true }` when redis-server is installed, else `{ ok: false, message }` with the command
 * that installs it: the tests that need Redis then fail with it, never skip.
 */
export function ensureRedis() {
  if (onPath(BINARY)) return { ok: true };
  return { ok: false, message: `The server tests need Redis (redis-server is missing). Install it with:\n  ${ADVICE}` };
}

/**
 * The guard the server runs under: the server is the guard's child, and the guard's standard
 * input a pipe from this process (handed on as descriptor 3). When this process closes the pipe —
 * `stop()`, or because it ended in any way, even SIGKILL — `cat` returns and the server gets
 * SIGKILL (it keeps nothing). The guard exits with the server, so waiting for one waits for both.
 */
const GUARD = `exec 3<&0 </dev/null
"$@" 3<&- &
server=$!
{ cat <&3; kill -KILL "$server"; } >/dev/null 2>&1 &
exec 3<&-
wait "$server"`;

/** Whether a Redis answers PING on `port`. */
function answers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/** Starts redis-server on `port`; resolves once it answers, rejects when it ends first or takes too long. */
async function startOn(port, { databases, timeoutMs }) {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--databases',
    String(databases),
    // Nothing is written; were anything, it would go to the temporary folder, not the working copy.
    '--dir',
    os.tmpdir(),
    '--logfile',
    '',
  ];
  const child = spawn('/bin/sh', ['-c', GUARD, 'redis-guard', BINARY, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so a Ctrl-C meant for the test run does not reach it before the run's teardown.
    detached: true,
  });
  child.stdin.on('error', () => undefined);
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const stop = () => {
    child.ref();
    child.stdin.end();
    return exited.then(() => undefined);
  };
  let ended = null;
  void exited.then((code) => (ended = code));
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(port))) {
    if (ended !== null) throw Object.assign(new Error(`redis-server ended (${ended}):\n${output.trim()}`), { port });
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer within ${timeoutMs / 1000} s:\n${output.trim()}`);
    }
    await sleep(50);
  }
  // Neither the guard nor its pipes keep this process alive; the pipe closes with it.
  child.unref();
  child.stdin.unref?.();
  child.stdout.unref?.();
  child.stderr.unref?.();
  return { stop };
}

/**
 * Starts redis-server on a free loopback port (or on `port`) with `databases` numbered databases
 * and no persistence. Resolves with its `redis://` URL, its port and `stop()`, which ends it and
 * waits for it. A free port taken meanwhile by another process is tried again on another one.
 */
export async function startRedisServer({ databases = 16, timeoutMs = 15_000, port: chosen } = {}) {
  const check = ensureRedis();
  if (!check.ok) throw new Error(check.message);
  for (let attempt = 1; ; attempt += 1) {
    const port = chosen ?? (await freePort());
    try {
      const { stop } = await startOn(port, { databases, timeoutMs });
      let stopping = null;
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop() {
          stopping ??= stop();
          return stopping;
        },
      };
    } catch (error) {
      if (attempt >= 3 || chosen !== undefined || !('port' in error)) throw error;
    }
  }
}
