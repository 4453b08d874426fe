// A real S3 server on loopback for the tests: Ceph's RADOS Gateway (radosgw) in front of a
// one-monitor, one-OSD Ceph cluster that keeps its objects in memory (memstore). Everything the
// cluster has (configuration, monitor store, logs, admin sockets, pid files) lives in one folder
// that `stop()` removes; nothing is read from or written to /etc/ceph or /var/lib/ceph, and no
// system service is involved. See docs/decisions/036-s3-test-server.md.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, onPath } from './localServers.mjs';

const BINARIES = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool', 'ceph'];
const PACKAGES = 'ceph-mon ceph-osd radosgw';
const INSTALL = `apt-get update && apt-get install -y ${PACKAGES}`;
const ADVICE = `sudo apt-get update && sudo apt-get install -y ${PACKAGES}`;

/** The tests' account: fixed keys, so a failing test's requests can be replayed by hand. */
const USER = {
  uid: 'tests',
  accessKeyId: 'PFTESTACCESSKEY00001',
  secretAccessKey: 'pf-test-secret-key-0000000000000000000000',
};
/** Ceph's commands read extra arguments from CEPH_ARGS; a developer's must not reach the tests' cluster. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'CEPH_ARGS'));
/** Any region signs; radosgw's single zone group answers to it. */
const REGION = 'us-east-1';

const missing = () => BINARIES.filter((name) => !onPath(name));

/**
 * `{ ok: true }` when Ceph's monitor, OSD and gateway are installed; installs Debian's packages
 * when they are missing and this process may (root with apt-get). Otherwise `{ ok: false, message }`
 * with the command to run: the tests that need S3 then fail with it, never skip.
 */
export function ensureCeph() {
  if (missing().length === 0) return { ok: true };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = onPath('apt-get');
  if (isRoot && hasApt) {
    process.stdout.write(`Ceph (the tests' S3 server) is missing; installing it: ${INSTALL}\n`);
    spawnSync('sh', ['-c', `apt-get update -qq && apt-get install -y -qq ${PACKAGES} >/dev/null`], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (missing().length === 0) return { ok: true };
  }
  return {
    ok: false,
    message: `The server tests need Ceph's S3 gateway (missing: ${missing().join(', ')}). Install it with:\n  ${ADVICE}`,
  };
}

function configuration(dir, fsid, monPort, rgwPort, memoryBytes) {
  return `[global]
fsid = ${fsid}
mon host = [v2:127.0.0.1:${monPort}]
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
# radosgw asks for a secure monitor connection by default, which needs authentication.
ms mon client mode = crc
keyring = ${dir}/keyring
run dir = ${dir}/run
log file = ${dir}/log/$name.log
crash dir = ${dir}/crash
# One copy of everything on the one OSD.
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd crush chooseleaf type = 0
osd pool default pg num = 8
osd pool default pgp num = 8
# The monitor's store is tiny: never stop it, or warn, because the disk is fuller than a production host allows.
mon data avail crit = 0
mon data avail warn = 0
mon warn on insecure global id reclaim allowed = false
mon warn on pool no redundancy = false

[mon]
# Each pool radosgw creates is a new map; the monitor batches changes for a second by default.
paxos propose interval = 0.05
mon data = ${dir}/mon/$name
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid

[osd]
osd data = ${dir}/osd/$name
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
# Objects in memory: nothing to format, fast, and gone when the OSD ends. It takes memory only for what is stored.
osd objectstore = memstore
memstore device bytes = ${memoryBytes}

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
rgw thread pool size = 64
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
`;
}

/** The last lines of a file, or '' when it does not exist yet. */
function tail(file, lines = 15) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * The guard each daemon runs under. The daemon stays in the foreground (`-f`) as the guard's child;
 * the guard's standard input is a pipe from this process, handed on as descriptor 3 (POSIX gives
 * background jobs /dev/null as input). When this process closes the pipe — `stop()`, or because it
 * ended in any way, even SIGKILL, as the kernel closes its descriptors — `cat` returns and the
 * daemon gets SIGKILL (its memory store is thrown away anyway, so there is nothing to shut down
 * cleanly). The guard exits with the daemon, so waiting for the guard waits for the daemon.
 */
const GUARD = `exec 3<&0 </dev/null
"$@" 3<&- &
daemon=$!
{ cat <&3; kill -KILL "$daemon"; } >/dev/null 2>&1 &
exec 3<&-
wait "$daemon"`;

/**
 * Runs a one-shot Ceph command to its end under the same guard, so it too ends with this process;
 * resolves with its standard output. It is ended after `timeoutMs`, or when `signal` gives up.
 */
function run(file, args, { timeoutMs = 30_000, signal } = {}) {
  if (signal?.aborted) return Promise.reject(new Error(`${file}: given up`));
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', GUARD, `${file}-guard`, file, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: ENV,
    });
    child.stdin.on('error', () => undefined);
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let ended = null;
    const end = (why) => {
      ended ??= why;
      child.stdin.end();
    };
    const timer = setTimeout(() => end(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
    const abort = () => end('given up');
    signal?.addEventListener('abort', abort, { once: true });
    child.once('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      child.stdin.end();
      if (code === 0 && !ended) resolve(stdout);
      else
        reject(
          new Error(`${file} ${args.join(' ')} failed (${ended ?? `exit ${code}`}):\n${(output || stdout).trim()}`),
        );
    });
  });
}

/** Starts `command` under the guard, its output appended to `out`. */
function daemon(name, command, out, log) {
  const fd = openSync(out, 'a');
  // Its own process group, so a Ctrl-C meant for the test run does not reach it before the run's teardown.
  const child = spawn('/bin/sh', ['-c', GUARD, `${name}-guard`, ...command], {
    stdio: ['pipe', fd, fd],
    detached: true,
    env: ENV,
  });
  closeSync(fd);
  child.stdin.on('error', () => undefined);
  // Neither the guard nor its pipe keeps this process alive; the pipe closes with it.
  child.unref();
  child.stdin.unref?.();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return {
    name,
    exited,
    describe: () => `── ${name} (${log}) ──\n${tail(log) || '(empty)'}\n${tail(out, 5)}`.trimEnd(),
    stop() {
      // Held again while it stops, so the caller's process waits for the daemon to be gone.
      child.ref();
      child.stdin.end();
      return exited;
    },
  };
}

/** Rejects as soon as one of the daemons ends (they should run until `stop()`), naming it with its log's tail. */
function anyExit(daemons) {
  return Promise.race(
    daemons.map((d) =>
      d.exited.then((code) => {
        throw new Error(`Ceph's ${d.name} ended (${code}) while the S3 server was starting:\n${d.describe()}`);
      }),
    ),
  );
}

/** Waits until radosgw answers HTTP at `endpoint`, or `signal` gives up. */
async function untilAnswering(endpoint, signal) {
  for (;;) {
    signal.throwIfAborted();
    try {
      await fetch(`${endpoint}/`, { signal: AbortSignal.any([signal, AbortSignal.timeout(2000)]) });
      return;
    } catch {
      await sleep(200);
    }
  }
}

/**
 * Starts a monitor, an OSD and radosgw in `dir` (created if needed), waits until S3 answers and
 * creates the tests' user. Resolves with the endpoint, region and keys, and `stop()`, which ends
 * the three daemons, waits for them, and removes `dir`. Fails after `timeoutMs` with the tails of
 * the daemons' logs; `dir` is then kept for a look at the whole logs.
 */
export async function startS3Server({ dir, timeoutMs = 90_000, memoryBytes = 1024 * 1024 * 1024 }) {
  const absent = missing();
  if (absent.length > 0)
    throw new Error(
      `Ceph's S3 gateway is not installed (missing: ${absent.join(', ')}). Install it with:\n  ${ADVICE}`,
    );
  const [monPort, rgwPort] = await Promise.all([freePort(), freePort()]);
  const endpoint = `http://127.0.0.1:${rgwPort}`;
  const fsid = randomUUID();
  for (const sub of ['run', 'log', 'crash', 'mon', 'osd/osd.0', 'rgw'])
    mkdirSync(path.join(dir, sub), { recursive: true });
  const conf = path.join(dir, 'ceph.conf');
  writeFileSync(conf, configuration(dir, fsid, monPort, rgwPort, memoryBytes));
  const c = ['-c', conf];
  const logOf = (name) => path.join(dir, 'log', `${name}.log`);
  const outOf = (name) => path.join(dir, 'log', `${name}.out`);

  const daemons = [];
  // Ends the waiting when starting fails or takes too long.
  const giveUp = new AbortController();
  let stage = 'creating the monitor';
  const stopAll = () => Promise.all(daemons.map((d) => d.stop()));
  /** Starts a daemon in the foreground under its guard (`name` names its log), unless starting was given up meanwhile. */
  const launch = (binary, name, args) => {
    if (giveUp.signal.aborted) throw new Error('given up');
    daemons.push(daemon(binary, [binary, ...c, '-f', ...args], outOf(name), logOf(name)));
  };
  const start = async () => {
    const monmap = path.join(dir, 'monmap');
    const stop = { signal: giveUp.signal };
    await run('monmaptool', [...c, '--create', '--fsid', fsid, '--add', 'a', `127.0.0.1:${monPort}`, monmap], stop);
    await run('ceph-mon', [...c, '--mkfs', '-i', 'a', '--monmap', monmap], stop);
    stage = 'starting the monitor';
    launch('ceph-mon', 'mon.a', ['-i', 'a']);
    // The OSD's store is made while the monitor starts; `ceph osd create` waits for the monitor.
    await Promise.race([
      Promise.all([
        run('ceph-osd', [...c, '--mkfs', '-i', '0'], stop),
        run('ceph', [...c, '--connect-timeout', '30', 'osd', 'create'], { ...stop, timeoutMs: 40_000 }),
      ]),
      anyExit(daemons),
    ]);
    stage = 'starting the OSD and radosgw';
    launch('ceph-osd', 'osd.0', ['-i', '0']);
    // radosgw creates its pools once the OSD is up, then listens.
    launch('radosgw', 'client.rgw.a', ['-n', 'client.rgw.a']);
    stage = `waiting for radosgw to answer at ${endpoint}`;
    await Promise.race([untilAnswering(endpoint, giveUp.signal), anyExit(daemons)]);
    stage = 'creating the test user';
    await run(
      'radosgw-admin',
      [
        ...c,
        'user',
        'create',
        `--uid=${USER.uid}`,
        '--display-name=Tests',
        `--access-key=${USER.accessKeyId}`,
        `--secret-key=${USER.secretAccessKey}`,
      ],
      stop,
    );
  };

  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `Ceph's S3 server did not start within ${timeoutMs / 1000} s (${stage}):\n${daemons.map((d) => d.describe()).join('\n')}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    await Promise.race([start(), timeout]);
  } catch (error) {
    giveUp.abort();
    await stopAll();
    throw new Error(`${error.message}\n(The cluster's folder is kept: ${dir})`, { cause: error });
  } finally {
    clearTimeout(timer);
    giveUp.abort();
  }

  let stopping = null;
  return {
    endpoint,
    region: REGION,
    accessKeyId: USER.accessKeyId,
    secretAccessKey: USER.secretAccessKey,
    stop() {
      stopping ??= stopAll().then(() => rmSync(dir, { recursive: true, force: true }));
      return stopping;
    },
  };
}

/**
 * The settings of a portal whose media are in `bucket` of this S3 server (`MEDIA_STORE=s3` and
 * its `S3_*` variables), for the journeys and benchmarks that start one.
 */
export function portalEnvironment(server, bucket) {
  return {
    MEDIA_STORE: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: server.endpoint,
    S3_REGION: server.region,
    S3_ACCESS_KEY_ID: server.accessKeyId,
    S3_SECRET_ACCESS_KEY: server.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}
