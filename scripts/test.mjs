#!/usr/bin/env node
// `npm test`: the whole suite — typecheck, lint, unit + component + model-based + API
// integration tests (embedded Postgres, and PostgreSQL too when TEST_DATABASE_URL is set),
// the SPA build, and end-to-end journeys in headless Chromium against the real server.
// Ends with one line: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium, ensureFfmpeg } from './chromium.mjs';
import { ensureCeph } from './s3server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'pf-test-run-'));
let passed = 0;
let failed = 0;
const summary = [];
/** The names of failed tests, printed again at the end so the last lines of a log say what broke. */
const failures = [];

function step(title) {
  process.stdout.write(`\n━━ ${title} ━━\n`);
}

function check(title, command, args, env = {}) {
  step(title);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  if (ok) passed += 1;
  else failed += 1;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${title}`);
  return ok;
}

/**
 * Test files run in as many workers as the machine has cores: vitest's default keeps one core for
 * its main process, which here mostly waits (on 2 cores the default is a single worker).
 */
const workers = Math.max(1, os.availableParallelism());

function vitest(title, projects, env = {}, { parallel = true } = {}) {
  step(title);
  const out = path.join(tmp, `${title.replace(/\W+/g, '-')}.json`);
  const args = [
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    ...(parallel ? [`--maxWorkers=${workers}`] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ];
  const result = spawnSync(bin('vitest'), args, { stdio: 'inherit', env: { ...process.env, ...env } });
  let p = 0;
  let f = 0;
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    p = report.numPassedTests ?? 0;
    f = (report.numFailedTests ?? 0) + (report.numRuntimeErrors ?? 0);
    // A file that failed without a failed test (it did not load, or a hook failed and its tests
    // were skipped) counts as a failure too.
    for (const file of report.testResults ?? []) {
      const where = path.relative(root, file.name ?? '');
      const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const test of failedTests) failures.push(`${where} › ${test.fullName ?? test.title}`);
      if (file.status === 'failed' && failedTests.length === 0) {
        f += 1;
        failures.push(`${where} (${(file.message ?? 'the file failed').split('\n')[0]})`);
      }
    }
  } else {
    f += 1;
  }
  if (result.status !== 0 && f === 0) f = 1;
  passed += p;
  failed += f;
  summary.push(`${f === 0 ? 'ok  ' : 'FAIL'} ${title}: ${p} passed, ${f} failed`);
  return f === 0;
}

ensureFfmpeg();
ensureCeph(); // the server tests' S3 server; without it their global setup fails with the install command
check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
check('lint (dependency direction and code rules)', 'npm', ['run', '--silent', 'lint']);
check('format (Prettier, width 120)', 'npm', ['run', '--silent', 'format:check']);
check('unused files, exports and dependencies (knip)', 'npm', ['run', '--silent', 'knip']);
// The embedded server even when TEST_DATABASE_URL is set (an undefined variable is not passed on):
// the API tests then run on both, as a user's `npm start` and a deployment meet them.
vitest(
  'unit, component, model-based and API tests (embedded Postgres)',
  ['server', 'server-s3', 'server-restored', 'client', 'model'],
  {
    TEST_DATABASE_URL: undefined,
  },
);
if (process.env.TEST_DATABASE_URL) {
  vitest('API tests against PostgreSQL (TEST_DATABASE_URL)', ['server']);
}
const built = check(
  'build the web app',
  process.execPath,
  [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
  { NODE_ENV: 'production' },
);
const chromium = ensureChromium();
if (!chromium.path) {
  step('end-to-end tests in Chromium');
  process.stdout.write(`${chromium.message}\n`);
  failed += 1;
  summary.push('FAIL end-to-end tests: Chromium is missing');
} else if (built) {
  vitest('end-to-end journeys in Chromium', ['e2e'], { CHROMIUM_PATH: chromium.path }, { parallel: false });
} else {
  failed += 1;
  summary.push('FAIL end-to-end tests: the web app did not build');
}

rmSync(tmp, { recursive: true, force: true });
step('summary');
const failureList = failures.length > 0 ? `\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}\n` : '';
process.stdout.write(`${summary.join('\n')}\n${failureList}\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
