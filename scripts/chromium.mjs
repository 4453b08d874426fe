// Finds Chromium for the end-to-end tests; installs Debian's package when it is missing and
// this process may (root with apt-get). Never skips silently: without Chromium the caller fails
// with the exact command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const INSTALL = 'apt-get update && apt-get install -y chromium';

function found() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** `{ path }` of a usable Chromium, or `{ path: null, message }` saying how to install it. */
export function ensureChromium() {
  let path = found();
  if (path) return { path };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    process.stdout.write(`Chromium is missing; installing it: ${INSTALL}\n`);
    spawnSync('sh', ['-c', `${INSTALL} >/dev/null`], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    path = found();
    if (path) return { path };
  }
  return {
    path: null,
    message: `The end-to-end tests need Chromium. Install it with:\n  sudo ${INSTALL}\nor point CHROMIUM_PATH at a Chromium or Chrome binary.`,
  };
}
