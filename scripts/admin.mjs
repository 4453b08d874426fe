#!/usr/bin/env node
// `npm run admin -- <command>`: the account administration command (server/src/admin.ts),
// compiled like the server when its build is missing or out of date.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildServer, SERVER_OUT, serverIsCurrent } from './build-server.mjs';

if (!serverIsCurrent()) await buildServer();
const child = spawn(process.execPath, [path.join(SERVER_OUT, 'admin.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
