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
    spawnSync('sh', ['-c', `${INSTALL} >/dev/null`], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    path = found();
    if (path) return { path };
  }
  return {
    path: null,
    message: `The end-to-end tests need Chromium. Install it with:\n  sudo ${INSTALL}\nor point CHROMIUM_PATH at a Chromium or Chrome binary.`,
  };
}

/**
 * Makes sure Debian's ffmpeg (video poster frames) is there: installs it when it is missing and
 * this process may; otherwise says how. The suite's poster test then fails with the same advice.
 */
export function ensureFfmpeg() {
  const has = () =>
    spawnSync('sh', ['-c', `command -v ${process.env.FFMPEG_PATH || 'ffmpeg'}`], { stdio: 'ignore' }).status === 0;
  if (has()) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    process.stdout.write('ffmpeg is missing; installing it: apt-get install -y ffmpeg\n');
    spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (has()) return true;
  }
  process.stdout.write(
    'ffmpeg is missing: video posters cannot be made and their test will fail. Install it with:\n  sudo apt-get install -y ffmpeg\n',
  );
  return false;
}
