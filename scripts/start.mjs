#!/usr/bin/env node
// `npm start`: builds the SPA and compiles the server when either is missing or older than its
// sources, then runs the compiled server with plain Node.js (migrations, demo data on an empty
// embedded database, SPA + API on PORT).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, SERVER_OUT, serverIsCurrent } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

function spaIsCurrent() {
  const built = path.join(root, 'dist', 'index.html');
  if (!existsSync(built)) return false;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts'].map((p) => path.join(root, p)).filter(existsSync);
  return statSync(built).mtimeMs >= Math.max(...sources.map(newestMtime));
}

if (process.env.SKIP_BUILD !== '1' && !spaIsCurrent()) {
  process.stdout.write('Building the web app…\n');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
    // Always the production build (React's development build is several times larger), also when
    // started from a test runner that sets NODE_ENV=test.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Compiling the server takes well under a second; it is never skipped when out of date.
if (!serverIsCurrent()) await buildServer();

const server = spawn(process.execPath, [path.join(SERVER_OUT, 'main.js')], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
