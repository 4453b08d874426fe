/**
 * API throughput: the real server next to two floors in the same run, on the same data:
 * - a bare Fastify + pg server running the same repository functions on the same database
 *   (`bare-pg-server.ts`): what a request that must read the database cannot go below;
 * - a bare Fastify server answering the same JSON from memory (`bare-server.ts`): HTTP alone.
 * The SQL statements each request runs are counted in a first pass (the server's
 * `QUERY_COUNT_HEADER` diagnostic), then the servers are started again without it for the load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { runningEmbedded } from '../server/src/db/embedded.ts';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { freePort, prepareDataDir, ROOT, startServer, token } from './support.ts';

/** Requests per second (mean over the run) and p99 latency in ms. */
export interface Load {
  rps: number;
  p99: number;
}

export interface EndpointResult {
  name: string;
  path: string;
  /** Size of the API's answer. */
  bytes: number;
  /** SQL statements per request: the real server's, and the Fastify + pg floor's. */
  queries: number;
  floorQueries: number;
  /** Whether the floor answers the same data (same JSON values, any key order). */
  sameData: boolean;
  api: Load;
  /** Bare Fastify + pg running the same SQL. */
  pg: Load;
  /** Bare Fastify answering the same JSON from memory. */
  bare: Load;
}

const CONNECTIONS = 10;

export async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Load> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: Math.round(result.requests.average), p99: result.latency.p99 };
}

/** Starts a bench server script with tsx; resolves once it prints its first line. */
async function startScript(
  script: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', script)], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`${script} ended (${code}) before it was ready`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ text: string; queries: number }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return { text, queries: Number(res.headers.get('x-query-count')) };
}

/** The main read routes of the API, with ids from the data set as the caller sees it. */
export async function mainReadEndpoints(
  url: string,
  auth: Record<string, string>,
): Promise<{ name: string; path: string }[]> {
  const api = (p: string) => `${url}/api/v1${p}`;
  const portfolios = JSON.parse((await get(api('/portfolios'), auth)).text) as { id: number }[];
  const shared = JSON.parse((await get(api('/shared-portfolios'), auth)).text) as { id: number }[];
  const sharedDetail = JSON.parse((await get(api(`/shared-portfolios/${shared[0]!.id}`), auth)).text) as {
    sharedArtifacts: { id: number }[];
  };
  return [
    { name: 'GET /users/me', path: '/api/v1/users/me' },
    { name: 'GET /portfolios', path: '/api/v1/portfolios' },
    { name: 'GET /portfolios/{id}', path: `/api/v1/portfolios/${portfolios[0]!.id}` },
    { name: 'GET /shared-portfolios', path: '/api/v1/shared-portfolios' },
    { name: 'GET /shared-portfolios/{id}', path: `/api/v1/shared-portfolios/${shared[0]!.id}` },
    { name: 'GET /shared-artifacts/{id}', path: `/api/v1/shared-artifacts/${sharedDetail.sharedArtifacts[0]!.id}` },
  ];
}

/** The claims of a session token (read, not verified: the bench made it). */
function claimsOf(jwt: string): { id: number; sid?: string } {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { id: number; sid?: string };
}

/**
 * Runs the API benchmark on a generated data set: every endpoint on the real server (each request
 * authenticated, its SQL run), on the bare Fastify + pg floor and on the bare Fastify route, one
 * after the other for `seconds` each (`seconds` 0: only the statement counts and sizes).
 */
export async function runApiBench(size: DatasetSize, seconds: number) {
  const { dataDir, counts, emails } = await prepareDataDir(size);
  const stops: (() => Promise<void>)[] = [];
  try {
    // First pass: the statements each request runs, and the answers.
    let server = await startServer(dataDir, { QUERY_COUNT_HEADER: 'true' });
    stops.push(server.stop);
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const auth = { authorization: `Bearer ${jwt}` };
    const endpoints = await mainReadEndpoints(server.url, auth);
    const claims = claimsOf(jwt);
    const connection = runningEmbedded(path.join(dataDir, 'db'));
    if (!connection) throw new Error('the embedded database of the running server cannot be reached');
    const floorEnv = { DB: JSON.stringify(connection), USER_ID: String(claims.id), SESSION_ID: claims.sid ?? '' };
    let floor = await startScript('bare-pg-server.ts', { ...floorEnv, QUERY_COUNT_HEADER: 'true' });
    stops.push(floor.stop);
    const bodies: Record<string, string> = {};
    const facts = [];
    for (const e of endpoints) {
      const real = await get(`${server.url}${e.path}`, auth);
      const bare = await get(`${floor.url}${e.path}`);
      bodies[e.path] = real.text;
      const sameData = isDeepStrictEqual(JSON.parse(real.text), JSON.parse(bare.text));
      if (!sameData)
        process.stdout.write(`  note: the Fastify + pg floor of ${e.name} answers other data than the API\n`);
      facts.push({
        ...e,
        bytes: Buffer.byteLength(real.text),
        queries: real.queries,
        floorQueries: bare.queries,
        sameData,
      });
    }
    await floor.stop();
    await server.stop();
    stops.length = 0;

    // Second pass: the load, on servers without the diagnostic.
    server = await startServer(dataDir);
    stops.push(server.stop);
    floor = await startScript('bare-pg-server.ts', floorEnv);
    stops.push(floor.stop);
    const bodiesFile = path.join(os.tmpdir(), `pf-bench-bodies-${process.pid}.json`);
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const bare = await startScript('bare-server.ts', { BODIES: bodiesFile });
    stops.push(bare.stop);
    rmSync(bodiesFile, { force: true });

    const results: EndpointResult[] = [];
    const none = { rps: 0, p99: 0 };
    for (const f of facts) {
      if (seconds === 0) {
        results.push({ ...f, api: none, pg: none, bare: none });
        continue;
      }
      const targets: [string, Record<string, string>][] = [
        [`${server.url}${f.path}`, auth],
        [`${floor.url}${f.path}`, {}],
        [`${bare.url}${f.path}`, {}],
      ];
      // A short warm-up of each (JIT, connections, the database's caches), not recorded.
      for (const [url, headers] of targets) await load(url, headers, 1);
      const [apiResult, pgResult, bareResult] = [
        await load(...targets[0]!, seconds),
        await load(...targets[1]!, seconds),
        await load(...targets[2]!, seconds),
      ];
      results.push({ ...f, api: apiResult, pg: pgResult, bare: bareResult });
      process.stdout.write(
        `  ${f.name}: ${apiResult.rps} req/s p99 ${apiResult.p99} ms (Fastify + pg ${pgResult.rps}, Fastify ${bareResult.rps}), ${f.queries} statements, ${f.bytes} bytes\n`,
      );
    }
    return { counts, results };
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
