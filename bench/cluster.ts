import path from 'node:path';
import pg from 'pg';
import { startCluster, type Cluster } from '../e2e/multiNode/cluster.ts';
import { ffmpegVideo, pngImage } from '../server/test/files.ts';
import { percentile, ROOT, token } from './support.ts';

/**
 * Several nodes on one machine: the soak mix through HAProxy with one node and with two, and the
 * latency of a background job (an uploaded video's poster) with one node and with two.
 */

const TEACHERS = ['teacher@example.org', 'teacher2@example.org'];
const PASSWORD = 'spiral-demo';

interface Soak {
  requests: number;
  failed: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function timed(url: string, init: RequestInit): Promise<{ ms: number; ok: boolean; body: unknown }> {
  const start = performance.now();
  try {
    const res = await fetch(url, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { ms: performance.now() - start, ok: res.ok, body };
  } catch {
    return { ms: performance.now() - start, ok: false, body: null };
  }
}

/**
 * 16 clients for `seconds`, each in a loop: its portfolios, its own record, a save of its artifact,
 * and every fourth round a small image upload (what teachers do most).
 */
async function soak(base: string, seconds: number): Promise<Soak> {
  const tokens = await Promise.all(TEACHERS.map((email) => token(base, email, PASSWORD)));
  const png = await pngImage(120, 90);
  const clients = await Promise.all(
    Array.from({ length: 16 }, async (_, i) => {
      const jwt = tokens[i % tokens.length]!;
      const auth = { authorization: `Bearer ${jwt}` };
      const portfolios = (await (await fetch(`${base}/api/v1/portfolios`, { headers: auth })).json()) as {
        id: number;
      }[];
      const created = (await (
        await fetch(`${base}/api/v1/portfolios/${portfolios[0]!.id}/artifacts/responses`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ responses: { artifactName: `Soak ${i}` }, parkingLot: true }),
        })
      ).json()) as { id: number };
      return { auth, portfolioId: portfolios[0]!.id, artifactId: created.id };
    }),
  );
  const times: number[] = [];
  let failed = 0;
  const record = (r: { ms: number; ok: boolean }) => {
    times.push(r.ms);
    if (!r.ok) failed += 1;
  };
  const end = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    clients.map(async (c, i) => {
      for (let round = 1; Date.now() < end; round += 1) {
        record(await timed(`${base}/api/v1/portfolios`, { headers: c.auth }));
        record(await timed(`${base}/api/v1/users/me`, { headers: c.auth }));
        record(
          await timed(`${base}/api/v1/artifacts/${c.artifactId}`, {
            method: 'PUT',
            headers: { ...c.auth, 'content-type': 'application/json' },
            body: JSON.stringify({ responses: { artifactName: `Soak ${i} round ${round}` }, parkingLot: true }),
          }),
        );
        if (round % 4 === 0) {
          const form = new FormData();
          form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `soak-${round}.png`);
          record(
            await timed(`${base}/api/v1/portfolios/${c.portfolioId}/artifacts/${c.artifactId}/images`, {
              method: 'POST',
              headers: c.auth,
              body: form,
            }),
          );
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    requests: times.length,
    failed,
    perSecond: Math.round(times.length / elapsed),
    p50: Math.round(percentile(times, 50)),
    p99: Math.round(percentile(times, 99)),
  };
}

/**
 * `count` video uploads one after the other; for each, the time from the upload's answer to its
 * poster stored (its row has formats), read from the database every 5 ms.
 */
async function posterLatency(cluster: Cluster, count: number): Promise<{ p50: number; p99: number; max: number }> {
  const jwt = await token(cluster.url, TEACHERS[0]!, PASSWORD);
  const auth = { authorization: `Bearer ${jwt}` };
  const portfolios = (await (await fetch(`${cluster.url}/api/v1/portfolios`, { headers: auth })).json()) as {
    id: number;
  }[];
  const created = (await (
    await fetch(`${cluster.url}/api/v1/portfolios/${portfolios[0]!.id}/artifacts/responses`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ responses: { artifactName: 'Poster latency' }, parkingLot: true }),
    })
  ).json()) as { id: number };
  const video = ffmpegVideo();
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  const latencies: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), `clip-${i}.mp4`);
      const res = await fetch(`${cluster.url}/api/v1/portfolios/${portfolios[0]!.id}/artifacts/${created.id}/videos`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      const { id } = (await res.json()) as { id: number };
      const answered = performance.now();
      for (;;) {
        const { rows } = await db.query<{ done: boolean }>(
          'SELECT formats IS NOT NULL AS done FROM media_files WHERE id = $1',
          [id],
        );
        if (rows[0]?.done) break;
        if (performance.now() - answered > 60_000) throw new Error(`no poster for video ${id} after 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      latencies.push(performance.now() - answered);
    }
  } finally {
    await db.end();
  }
  return {
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    max: Math.round(Math.max(...latencies)),
  };
}

export interface ClusterRow {
  nodes: number;
  soak: Soak;
  poster: { p50: number; p99: number; max: number };
}

/** One cluster per row (1 node, then 2), each behind HAProxy with the shipped configuration. */
export async function runClusterBench(seconds: number, posters = 30): Promise<ClusterRow[]> {
  const staticDir = path.join(ROOT, 'dist');
  const rows: ClusterRow[] = [];
  for (const nodes of [1, 2]) {
    const cluster = await startCluster(staticDir, nodes);
    try {
      const soaked = await soak(cluster.url, seconds);
      const poster = await posterLatency(cluster, posters);
      rows.push({ nodes, soak: soaked, poster });
    } finally {
      await cluster.stop();
    }
  }
  return rows;
}
