#!/usr/bin/env node
// `npm start`: builds the SPA and compiles the server when either is missing or older than its
// sources, then runs the compiled server in this process (migrations, demo data on an empty
// embedded database, SPA + API on PORT). `npm start` runs this script with `exec`, so a process
// manager's SIGTERM (or SIGINT) reaches the server itself, which closes HTTP and stops its
// PostgreSQL before it exits. STARTUP_TIMING=1 writes when each start-up phase ended to stderr.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVER_OUT, serverIsCurrent } from './build-server.mjs';

const timing = process.env.STARTUP_TIMING === '1';
const mark = (phase) =>
  timing &&
  process.stderr.write(`startup-timing ${phase} ${(performance.timeOrigin + performance.now()).toFixed(1)}\n`);
if (timing) process.stderr.write(`startup-timing start-script ${performance.timeOrigin.toFixed(1)}\n`);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

/** The newest modification time under `entry`, stopping as soon as one is newer than `than`. */
function newerThan(entry, than) {
  const stat = statSync(entry);
  if (stat.mtimeMs > than) return true;
  if (!stat.isDirectory()) return false;
  return readdirSync(entry).some((name) => newerThan(path.join(entry, name), than));
}

function spaIsCurrent() {
  const built = path.join(root, 'dist', 'index.html');
  if (!existsSync(built)) return false;
  const builtAt = statSync(built).mtimeMs;
  return !['src', 'public', 'index.html', 'vite.config.ts']
    .map((p) => path.join(root, p))
    .filter(existsSync)
    .some((p) => newerThan(p, builtAt));
}

/** Runs a build step in a child process; a SIGINT / SIGTERM meanwhile stops it and this script. */
function runStep(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      if (code !== 0) process.exit(code ?? (signal === 'SIGINT' ? 130 : 143));
      resolve();
    });
  });
}

if (process.env.SKIP_BUILD !== '1' && !spaIsCurrent()) {
  process.stdout.write('Building the web app…\n');
  // Always the production build (React's development build is several times larger), also when
  // started from a test runner that sets NODE_ENV=test.
  await runStep([path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    ...process.env,
    NODE_ENV: 'production',
  });
}

// Compiling the server takes well under a second; it is never skipped when out of date.
if (!serverIsCurrent()) await runStep([path.join(root, 'scripts', 'build-server.mjs')], process.env);
mark('freshness-checked');

process.env.NODE_ENV ??= 'production';
await import(pathToFileURL(path.join(SERVER_OUT, 'main.js')).href);
