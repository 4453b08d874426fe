#!/usr/bin/env node
// `npm run bench`: the benchmarks of bench/ (TypeScript, run with tsx); options pass through,
// e.g. `npm run bench -- --size small --only api,bundle`. Results go to bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'bench', 'run.ts'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
