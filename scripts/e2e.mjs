#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end journeys in headless Chromium against the real server
// (started by e2e/globalSetup.ts as `npm start` does). Finds (or installs) Chromium first;
// arguments pass through to vitest, e.g. `npm run test:e2e -- e2e/auth.spec.ts`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromium = ensureChromium();
if (!chromium.path) {
  process.stderr.write(`${chromium.message}\n`);
  process.exit(1);
}
const result = spawnSync(
  path.join(root, 'node_modules', '.bin', 'vitest'),
  ['run', '--project', 'e2e', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHROMIUM_PATH: chromium.path },
  },
);
process.exit(result.status ?? 1);
