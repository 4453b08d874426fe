import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, waitForHealth } from '../server/test/processes.ts';

/**
 * The compiled server (`dist-server/main.js`, as `npm start` runs it) on a data folder of its own
 * (its own embedded database), in its own process group: a journey may kill it, unlike the shared
 * e2e server.
 */
export class OwnServer {
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);
  /** What the server wrote since it was last started. */
  output = '';

  constructor(
    readonly url: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  get running(): boolean {
    return this.child !== null;
  }

  /** The server's process id while it runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Starts the server (migrations and the start-up sweep run) and waits until it answers. */
  async start(): Promise<void> {
    if (this.child) throw new Error('The server is already running');
    this.output = '';
    const child = spawn(process.execPath, [path.resolve('dist-server/main.js')], {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    try {
      await waitForHealth(this.url, { child, output: () => this.output, everyMs: 100, timeoutMs: 90_000 });
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  /** A crash: SIGKILL to the server and every process of its group (ffmpeg), nothing flushed, closed or handed back. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await this.exited;
    this.child = null;
  }

  /** A clean stop (SIGTERM); resolves with the exit code and what the server wrote. */
  async stop(): Promise<{ code: number | null; output: string }> {
    const child = this.child;
    if (!child) throw new Error('The server is not running');
    child.kill('SIGTERM');
    const code = await this.exited;
    this.child = null;
    return { code, output: this.output };
  }
}

/**
 * A server of its own on `dataDir` (demo data seeded, e-mail to the outbox), on a free port,
 * serving a stand-in page from `staticDir`; `env` adds to or overrides its settings. Not started.
 */
export async function ownServer(dataDir: string, staticDir: string, env: NodeJS.ProcessEnv = {}): Promise<OwnServer> {
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>PracticeFolio</title><!--app-config-->\n');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return new OwnServer(url, {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SMTP_URL: '',
    JWT_SECRET: '',
    DEMO_DATA: 'true',
    LOG_LEVEL: 'warn',
    STATIC_DIR: staticDir,
    ...env,
  });
}
