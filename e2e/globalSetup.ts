import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, waitForHealth } from '../server/test/processes.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/**
 * Starts the real server the way `npm start` does (`scripts/start.mjs`), on a free port with an
 * empty DATA_DIR (so demo data is seeded and e-mail goes to the outbox), for the whole e2e run.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const child = spawn(process.execPath, [path.resolve('scripts/start.mjs')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      FEEDBACK_URL: 'https://feedback.example.org/form',
      // The public pages as an operator configures them (each hides when unset; see the README).
      CONTACT_EMAIL: 'support@school.example.org',
      RESEARCH_CONTACT_EMAIL: 'research@university.example.org',
      ABOUT_VIDEO_ID: 'aqz-KE-bpKQ',
      LEARN_MORE_URL: 'https://project.example.org/',
      IOS_APP_URL: 'https://apps.apple.com/us/app/practicefolio/id1234567890',
      ANDROID_APP_URL: 'https://play.google.com/store/apps/details?id=org.example.practicefolio',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SMTP_URL: '',
      // A separately built SPA (E2E_STATIC_DIR) lets e2e runs and builds proceed side by side.
      ...(process.env['E2E_STATIC_DIR'] ? { STATIC_DIR: process.env['E2E_STATIC_DIR'], SKIP_BUILD: '1' } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  await waitForHealth(baseUrl, { child, output: () => log, everyMs: 250 });
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
