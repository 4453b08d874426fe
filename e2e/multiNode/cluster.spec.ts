import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegVideo, pngImage } from '../../server/test/files.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { uploadAcrossNodes } from './resumableAcrossNodes.ts';

/**
 * Several machines, proven on one: PostgreSQL, radosgw, two server nodes (`MEDIA_STORE=s3`) and
 * HAProxy with the shipped configuration (`docs/deploy/haproxy.cfg`), round robin, on loopback.
 */
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster(path.resolve(process.env['E2E_STATIC_DIR'] ?? 'dist'));
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
});

const TEACHER = 'teacher@example.org';
const PASSWORD = 'spiral-demo';

async function call<T = unknown>(
  base: string,
  method: string,
  url: string,
  init: { token?: string; json?: unknown; body?: FormData; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : (init.body ?? null),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

async function signIn(base: string, email = TEACHER): Promise<string> {
  const res = await call<{ jwt: string }>(base, 'POST', '/auth/local', {
    json: { identifier: email, password: PASSWORD },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.jwt;
}

/** The teacher's first portfolio and a new artifact in it. */
async function newArtifact(base: string, token: string): Promise<{ portfolioId: number; id: number }> {
  const portfolios = await call<{ id: number }[]>(base, 'GET', '/portfolios', { token });
  const portfolioId = portfolios.body[0]!.id;
  const created = await call<{ id: number }>(base, 'POST', `/portfolios/${portfolioId}/artifacts/responses`, {
    token,
    json: { responses: { artifactName: 'Cluster evidence' }, parkingLot: true },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { portfolioId, id: created.body.id };
}

function form(name: string, bytes: Buffer, type: string): FormData {
  const data = new FormData();
  data.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return data;
}

describe('two nodes behind HAProxy', () => {
  it('an image and a video uploaded through the balancer are served by either node, the video by byte ranges', async () => {
    const token = await signIn(cluster.url);
    const artifact = await newArtifact(cluster.url, token);
    const base = `/portfolios/${artifact.portfolioId}/artifacts/${artifact.id}`;
    const png = await pngImage(800, 600);
    const image = await call<{ url: string; formats: Record<string, { url: string }> }>(
      cluster.url,
      'POST',
      `${base}/images`,
      { token, body: form('board.png', png, 'image/png') },
    );
    expect(image.status, JSON.stringify(image.body)).toBe(200);
    const video = ffmpegVideo();
    const clip = await call<{ id: number; url: string; formats: Record<string, { url: string }> | null }>(
      cluster.url,
      'POST',
      `${base}/videos`,
      { token, body: form('lesson.mp4', video, 'video/mp4') },
    );
    expect(clip.status, JSON.stringify(clip.body)).toBe(200);
    // Its poster is a job, made from the stored video by whichever node takes it.
    let poster: Record<string, { url: string }> | null = null;
    for (let i = 0; !poster; i += 1) {
      expect(i, 'the poster was not made in time').toBeLessThan(300);
      await sleep(100);
      const artifactNow = await call<{ videos: { id: number; formats: Record<string, { url: string }> | null }[] }>(
        cluster.url,
        'GET',
        `/artifacts/${artifact.id}`,
        { token },
      );
      poster = artifactNow.body.videos.find((v) => v.id === clip.body.id)?.formats ?? null;
    }

    for (const node of cluster.nodes) {
      const original = await fetch(`${node.url}/api/v1${image.body.url}`);
      expect(original.status).toBe(200);
      expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);
      for (const format of Object.values(image.body.formats))
        expect((await fetch(`${node.url}/api/v1${format.url}`)).status).toBe(200);
      const seek = await fetch(`${node.url}/api/v1${clip.body.url}`, { headers: { range: 'bytes=100-1123' } });
      expect(seek.status).toBe(206);
      expect(seek.headers.get('content-range')).toBe(`bytes 100-1123/${video.length}`);
      expect(Buffer.from(await seek.arrayBuffer()).equals(video.subarray(100, 1124))).toBe(true);
      expect((await fetch(`${node.url}/api/v1${poster['thumbnail']!.url}`)).status).toBe(200);
    }
  });

  it('a resumable upload from the browser: its chunks land on both nodes in turn, the stored video is the file', async () => {
    const token = await signIn(cluster.url);
    const artifact = await newArtifact(cluster.url, token);
    const { nodes, sha256, stored } = await uploadAcrossNodes(
      cluster,
      { email: TEACHER, password: PASSWORD },
      { portfolioId: artifact.portfolioId, artifactId: artifact.id, token },
    );
    expect(nodes, 'one PATCH a chunk: six of 8 MiB and the rest').toHaveLength(7);
    expect(new Set(nodes), `the chunks went to ${nodes.join(', ')}`).toEqual(new Set(['node1', 'node2']));
    // Round robin: another request of the page may come between two chunks, so not every chunk switches.
    const switches = nodes.slice(1).filter((node, i) => node !== nodes[i]).length;
    expect(switches, `the chunks went to ${nodes.join(', ')}`).toBeGreaterThanOrEqual(3);
    expect(stored).toBe(sha256);
  });

  it("a teacher's archive built by one node downloads from either", async () => {
    const token = await signIn(cluster.url, 'teacher2@example.org');
    const asked = await call<{ id: number }>(cluster.url, 'POST', '/archives', { token, json: {} });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    for (let i = 0; ; i += 1) {
      const list = await call<{ id: number; status: string }[]>(cluster.url, 'GET', '/archives', { token });
      if (list.body.find((a) => a.id === asked.body.id)?.status === 'ready') break;
      expect(i, 'the archive was not built in time').toBeLessThan(300);
      await sleep(100);
    }
    const zips = await Promise.all(
      cluster.nodes.map(async (node) => {
        const res = await fetch(`${node.url}/api/v1/archives/${asked.body.id}/download`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    expect(zips[0]!.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zips[0]!.equals(zips[1]!)).toBe(true);
  });

  it('a node killed in the middle of an archive build: the other node finishes it, and the teacher gets one e-mail', async () => {
    const lead = 'lead@example.org';
    const token = await signIn(cluster.url, lead);
    // A large file, so that the build takes a while.
    const artifact = await newArtifact(cluster.url, token);
    const big = randomBytes(64 * 1024 * 1024);
    const stored = await call(
      cluster.url,
      'POST',
      `/portfolios/${artifact.portfolioId}/artifacts/${artifact.id}/documents`,
      { token, body: form('recordings.bin', big, 'application/octet-stream') },
    );
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const asked = await call<{ id: number }>(cluster.url, 'POST', '/archives', { token, json: {} });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);

    // The row names the node building it (`<job>@<host>:<pid>`): that node is killed mid-build.
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    let victim: (typeof cluster.nodes)[number] | undefined;
    try {
      for (let i = 0; !victim; i += 1) {
        expect(i, 'the build did not start in time').toBeLessThan(2_000);
        const { rows } = await db.query<{ status: string; claimed_by: string | null }>(
          'SELECT status, claimed_by FROM archive_jobs WHERE id = $1',
          [asked.body.id],
        );
        const pid = Number(/:(\d+)$/.exec(rows[0]?.claimed_by ?? '')?.[1]);
        if (rows[0]?.status === 'building') victim = cluster.nodes.find((n) => n.pid === pid);
        if (!victim) await sleep(10);
      }
    } finally {
      await db.end();
    }
    await victim.kill();
    const survivor = cluster.nodes.find((n) => n !== victim)!;

    // The other node takes the build over once the killed one's heartbeat is missed.
    for (let i = 0; ; i += 1) {
      const list = await call<{ id: number; status: string }[]>(survivor.url, 'GET', '/archives', { token });
      const status = list.body.find((a) => a.id === asked.body.id)?.status;
      if (status === 'ready') break;
      expect(status).not.toBe('failed');
      expect(i, 'the archive was not finished in time').toBeLessThan(900);
      await sleep(100);
    }
    const zip = await fetch(`${survivor.url}/api/v1/archives/${asked.body.id}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(zip.status).toBe(200);
    expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(big.length);
    const mails = cluster
      .outboxes()
      .filter((m) => m.to === lead && m.subject === 'Your PracticeFolio archive is ready');
    expect(mails).toHaveLength(1);

    await victim.start();
    // Back in the balancer's eyes before the next test.
    await sleep(3_000);
  }, 180_000);

  it("a comment made on either node raises the teacher's bell live, whichever node her stream is on", async () => {
    const tess = await signIn(cluster.url);
    const shared = (await call<{ id: number }[]>(cluster.url, 'GET', '/shared-portfolios', { token: tess })).body[0]!;
    const plc = await call<{ sharedArtifacts: { id: number; responses: Record<string, unknown> }[] }>(
      cluster.url,
      'GET',
      `/shared-portfolios/${shared.id}`,
      { token: tess },
    );
    const ramp = plc.body.sharedArtifacts.find((a) => String(a.responses['artifactName']).startsWith('Ramp races'))!;
    const theo = await signIn(cluster.url, 'teacher2@example.org');

    const browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox'],
    });
    try {
      const page = await (await browser.newContext({ baseURL: cluster.url })).newPage();
      await page.goto('/login');
      await page.getByLabel('Email').fill(TEACHER);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'LOGIN' }).click();
      await page.waitForURL('**/dashboard');
      const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
      await bell.waitFor();
      const unread = async () => Number(/(\d+) unread/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1] ?? 0);
      // The stream is open once the bell shows the count it got from it.
      await sleep(1_000);
      const before = await unread();
      for (const [n, node] of cluster.nodes.entries()) {
        const posted = await call(node.url, 'POST', '/comments', {
          token: theo,
          json: { sharedArtifact: ramp.id, text: `Seen from node ${n + 1}` },
        });
        expect(posted.status, JSON.stringify(posted.body)).toBe(200);
        await expect.poll(unread, { timeout: 15_000 }).toBe(before + n + 1);
      }
    } finally {
      await browser.close();
    }
  });

  it('a per-person limit and the login throttle hold across the nodes: N for the installation, not N per node', async () => {
    const token = await signIn(cluster.url, 'teacher2@example.org');
    const [one, two] = cluster.nodes;
    for (let n = 0; n < 30; n += 1) {
      const res = await call(n % 2 ? one!.url : two!.url, 'POST', '/messages/register-token', {
        token,
        json: { platform: 'android', osVersion: '14', fcmToken: `cluster-${n}`, devMode: false },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (const node of [one!, two!]) {
      const refused = await call(node.url, 'POST', '/messages/register-token', {
        token,
        json: { platform: 'android', osVersion: '14', fcmToken: 'cluster-more', devMode: false },
      });
      expect(refused.status).toBe(429);
    }

    // Five wrong passwords, alternating nodes: then even the right one waits, on either node.
    for (let n = 0; n < 5; n += 1) {
      const res = await call(n % 2 ? one!.url : two!.url, 'POST', '/auth/local', {
        json: { identifier: 'lead@example.org', password: 'not-the-password' },
      });
      expect(res.status).toBe(400);
    }
    for (const node of [one!, two!]) {
      const res = await call<{ message: unknown }>(node.url, 'POST', '/auth/local', {
        json: { identifier: 'lead@example.org', password: PASSWORD },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(429);
    }
  });

  it('a rolling restart under load: 16 teachers read, save and upload the whole time, no request fails, no write is lost', async () => {
    const accounts = ['teacher@example.org', 'teacher2@example.org', 'lead@example.org', 'researcher@example.org'];
    const tokens = await Promise.all(accounts.slice(0, 2).map((email) => signIn(cluster.url, email)));
    const png = await pngImage(120, 90);
    const clients = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const token = tokens[i % tokens.length]!;
        return { token, artifact: await newArtifact(cluster.url, token), saved: 0, uploads: [] as string[] };
      }),
    );
    const failures: string[] = [];
    let requests = 0;
    const load = { running: true };
    const work = clients.map(async (client, i) => {
      for (let round = 1; load.running; round += 1) {
        const check = (what: string, status: number, expected = 200) => {
          requests += 1;
          if (status !== expected) failures.push(`client ${i} ${what}: ${status}`);
          return status === expected;
        };
        const read = await call(cluster.url, 'GET', '/portfolios', { token: client.token }).catch(() => ({
          status: 0,
        }));
        check('read', read.status);
        const save = await call(cluster.url, 'PUT', `/artifacts/${client.artifact.id}`, {
          token: client.token,
          json: { responses: { artifactName: `Cluster evidence ${i} save ${round}` }, parkingLot: true },
        }).catch(() => ({ status: 0 }));
        if (check('save', save.status)) client.saved = round;
        if (round % 4 === 0) {
          const base = `/portfolios/${client.artifact.portfolioId}/artifacts/${client.artifact.id}`;
          const uploaded = await call<{ url: string }>(cluster.url, 'POST', `${base}/images`, {
            token: client.token,
            body: form(`photo-${round}.png`, png, 'image/png'),
          }).catch(() => ({ status: 0, body: { url: '' } }));
          if (check('upload', uploaded.status)) client.uploads.push(uploaded.body.url);
        }
        await sleep(20);
      }
    });

    // Each node in turn: SIGTERM (it drains while the balancer takes it out), started again, back in.
    await sleep(1_000);
    for (const node of cluster.nodes) {
      const { code, output } = await node.stop();
      expect(code, output).toBe(0);
      await node.start();
      // Back in the balancer's eyes (`rise 2` checks a second apart) before the other goes.
      await sleep(3_000);
    }
    await sleep(1_000);
    load.running = false;
    await Promise.all(work);

    expect(failures, `${failures.length} of ${requests} requests failed`).toEqual([]);
    expect(requests).toBeGreaterThan(200);
    // Every acknowledged save and upload is there afterwards, whichever node took it.
    for (const [i, client] of clients.entries()) {
      const artifact = await call<{ responses: { artifactName: string }; images: { url: string }[] }>(
        cluster.url,
        'GET',
        `/artifacts/${client.artifact.id}`,
        { token: client.token },
      );
      expect(artifact.body.responses.artifactName).toBe(`Cluster evidence ${i} save ${client.saved}`);
      const names = artifact.body.images.map((m) => m.url.split('/').pop());
      for (const url of client.uploads) expect(names).toContain(url.split('/').pop());
    }
  });
});
