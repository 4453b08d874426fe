import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { s3Client } from '../../server/src/media/s3ObjectStore.ts';
import { ensureCeph, portalEnvironment, startS3Server } from '../../scripts/s3server.mjs';
import { startEmbedded, type EmbeddedServer } from '../../server/src/db/embedded.ts';
import { freePort } from '../../server/test/processes.ts';
import { OwnServer } from '../ownServer.ts';

/** Debian's HAProxy, installed when missing and this process may (as Chromium and Ceph are). */
function ensureHaproxy(): string {
  const found = () => ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => spawnSync(p, ['-v']).status === 0);
  let binary = found();
  if (!binary && process.getuid?.() === 0) {
    spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq haproxy >/dev/null'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    binary = found();
  }
  if (!binary)
    throw new Error('The multi-node tests need HAProxy. Install it with:\n  sudo apt-get install -y haproxy');
  return binary;
}

/**
 * The shipped configuration (`docs/deploy/haproxy.cfg`) with its listening address and servers
 * replaced by loopback ports, and its log (a line per request, naming the node) to stderr: the
 * test proves the file users deploy.
 */
function haproxyConfig(port: number, nodes: readonly string[]): string {
  const shipped = readFileSync(path.resolve('docs/deploy/haproxy.cfg'), 'utf8');
  const servers = nodes.map((url, i) => `    server node${i + 1} ${new URL(url).host} check`).join('\n');
  return shipped
    .replace(/^ {4}log \/dev\/log.*$/m, '    log stderr format raw local0 info')
    .replace(/^ {4}bind :80$/m, `    bind 127.0.0.1:${port}`)
    .replace(/(?:^ {4}server node\d .*\n?)+/m, `${servers}\n`);
}

/** Two server nodes of one installation behind HAProxy, as `docs/deploy` describes. */
export interface Cluster {
  /** The balancer's address: what browsers and clients use. */
  url: string;
  nodes: OwnServer[];
  /** The nodes' shared database, for checks the API does not offer. */
  databaseUrl: string;
  /** What HAProxy logged: a line per request with the node that answered it (`nodes/node1`). */
  balancerLog(): string;
  /** The e-mails every node has written to its outbox (no SMTP server): recipient and subject. */
  outboxes(): { to: string; subject: string }[];
  stop(): Promise<void>;
}

/**
 * PostgreSQL (embedded, on its own folder), radosgw with a bucket, two nodes (or `nodeCount`; the compiled server,
 * `MEDIA_STORE=s3`, the same secret, `TRUST_PROXY`, `DRAIN_SECONDS`) and HAProxy with the shipped
 * configuration, all on loopback. The first node seeds the demo data, then the second starts.
 */
export async function startCluster(staticDir: string, nodeCount = 2): Promise<Cluster> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pf-cluster-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(root, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const haproxy = ensureHaproxy();
    const ceph = ensureCeph();
    if (!ceph.ok) throw new Error(ceph.message);
    const [db, s3] = await Promise.all([
      startEmbedded(path.join(root, 'db')),
      startS3Server({ dir: path.join(root, 's3') }),
    ]);
    cleanups.push(() => (db as EmbeddedServer).stop());
    cleanups.push(() => s3.stop());
    const bucket = 'pf-cluster-media';
    const client = s3Client({
      bucket: bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
    const c = db.connection;
    const databaseUrl = `postgres://${c.user}:${encodeURIComponent(String(c.password))}@localhost:${c.port}/${c.database}?host=${encodeURIComponent(String(c.host))}`;

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const secret = randomBytes(32).toString('hex');
    const nodes = await Promise.all(
      Array.from({ length: nodeCount }, (_, i) => i + 1).map(async (n) => {
        const nodePort = await freePort();
        return new OwnServer(`http://127.0.0.1:${nodePort}`, {
          ...process.env,
          NODE_ENV: 'production',
          PORT: String(nodePort),
          HOST: '127.0.0.1',
          PUBLIC_URL: url,
          DATA_DIR: path.join(root, `node${n}`),
          DATABASE_URL: databaseUrl,
          DEMO_DATA: 'true',
          SMTP_URL: '',
          JWT_SECRET: secret,
          LOG_LEVEL: 'warn',
          STATIC_DIR: staticDir,
          ...portalEnvironment(s3, bucket),
          TRUST_PROXY: 'true',
          DRAIN_SECONDS: '3',
        });
      }),
    );
    for (const node of nodes) {
      await node.start();
      cleanups.push(() => node.kill());
    }

    const config = path.join(root, 'haproxy.cfg');
    writeFileSync(
      config,
      haproxyConfig(
        port,
        nodes.map((n) => n.url),
      ),
    );
    const balancer: ChildProcess = spawn(haproxy, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    balancer.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    const ended = new Promise<void>((resolve) => balancer.once('exit', () => resolve()));
    cleanups.push(async () => {
      balancer.kill('SIGTERM');
      await ended;
    });
    // Both nodes up in the balancer's eyes (its checks pass twice, `rise 2`).
    for (let i = 0; ; i += 1) {
      const answers = await Promise.all(
        [0, 1, 2, 3].map(() =>
          fetch(`${url}/api/v1/ready`).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      if (answers.every((s) => s === 200) && i >= 3) break;
      if (i > 100 || balancer.exitCode !== null) throw new Error(`HAProxy did not come up:\n${log}`);
      await sleep(200);
    }
    const outboxes = () =>
      nodes.flatMap((_, i) => {
        const dir = path.join(root, `node${i + 1}`, 'outbox');
        const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
        return files.map((file) => {
          const raw = readFileSync(path.join(dir, file), 'utf8');
          return {
            to: /^To: (?:.*<)?([^<>\s]+@[^<>\s]+?)>?$/m.exec(raw)?.[1]?.toLowerCase() ?? '',
            subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
          };
        });
      });
    return { url, nodes, databaseUrl, outboxes, balancerLog: () => log, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
