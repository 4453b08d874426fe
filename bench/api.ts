/**
 * API throughput: the real server against a bare Fastify route serving the same JSON from memory,
 * in the same run, with the number of SQL statements per request at each data size.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { freePort, prepareDataDir, ROOT, startServer, token } from './support.ts';

export interface EndpointResult {
  name: string;
  url: string;
  bytes: number;
  queries: number;
  api: { rps: number; p99: number };
  bare: { rps: number; p99: number };
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<{ rps: number; p99: number }> {
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: Math.round(result.requests.average), p99: result.latency.p99 };
}

/**
 * Runs the API benchmark on a generated data set (`seconds` 0: only the query counts and sizes),
 * with or without the server's response cache.
 */
export async function runApiBench(size: DatasetSize, seconds: number, cache = false) {
  const { dataDir, counts, emails } = await prepareDataDir(size);
  // Without the response cache every request runs its queries, and the query count is that of a miss.
  const server = await startServer(dataDir, { RESPONSE_CACHE: String(cache) });
  try {
    const teacher = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const auth = { authorization: `Bearer ${teacher}` };
    const api = (p: string) => `${server.url}/api/v1${p}`;
    const portfolios = (await (await fetch(api('/portfolios'), { headers: auth })).json()) as { id: number }[];
    const shared = (await (await fetch(api('/shared-portfolios'), { headers: auth })).json()) as { id: number }[];
    const endpoints = [
      { name: 'GET /users/me', path: '/api/v1/users/me' },
      { name: 'GET /portfolios', path: '/api/v1/portfolios' },
      { name: 'GET /portfolios/{id}', path: `/api/v1/portfolios/${portfolios[0]!.id}` },
      { name: 'GET /shared-portfolios/{id}', path: `/api/v1/shared-portfolios/${shared[0]!.id}` },
    ];
    const bodies: Record<string, string> = {};
    const facts = [];
    for (const e of endpoints) {
      const res = await fetch(`${server.url}${e.path}`, { headers: auth });
      const text = await res.text();
      if (!res.ok) throw new Error(`${e.name}: ${res.status} ${text.slice(0, 200)}`);
      bodies[e.path] = text;
      facts.push({ ...e, bytes: Buffer.byteLength(text), queries: Number(res.headers.get('x-query-count')) });
    }
    const bodiesFile = path.join(os.tmpdir(), `pf-bench-bodies-${process.pid}.json`);
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const barePort = await freePort();
    const bare = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'bare-server.ts')], {
      env: { ...process.env, PORT: String(barePort), BODIES: bodiesFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => bare.stdout!.once('data', () => resolve()));
    const results: EndpointResult[] = [];
    try {
      for (const f of facts) {
        if (seconds === 0) {
          results.push({ name: f.name, url: f.path, bytes: f.bytes, queries: f.queries, api: { rps: 0, p99: 0 }, bare: { rps: 0, p99: 0 } });
          continue;
        }
        const apiResult = await load(`${server.url}${f.path}`, auth, seconds);
        const bareResult = await load(`http://127.0.0.1:${barePort}${f.path}`, {}, seconds);
        results.push({ name: f.name, url: f.path, bytes: f.bytes, queries: f.queries, api: apiResult, bare: bareResult });
        process.stdout.write(`  ${f.name}: ${apiResult.rps} req/s (bare ${bareResult.rps}), p99 ${apiResult.p99} ms, ${f.queries} queries, ${f.bytes} bytes\n`);
      }
    } finally {
      bare.kill('SIGTERM');
      rmSync(bodiesFile, { force: true });
    }
    return { counts, results };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
