/**
 * Idle memory of every process of the server after a warm-up load: the node process, the
 * database guard and each PostgreSQL process. RSS counts the pages a process shares with others
 * (PostgreSQL's shared buffers, the postgres binary) once per process, so the total is the sum of
 * PSS (proportional set size: each shared page divided among the processes that map it).
 */
import { rmSync } from 'node:fs';
import { load, mainReadEndpoints } from './api.ts';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { prepareDataDir, serverProcesses, startServer, token, type ServerProcess } from './support.ts';

/** After the load, the server is left alone this long before the reading. */
const IDLE_MS = 3000;

export interface MemoryResult {
  processes: ServerProcess[];
  largest: ServerProcess;
  rssTotal: number;
  pssTotal: number;
}

/** Starts the server on `size`, loads each main read route for `warmSeconds`, waits, reads `/proc`. */
export async function runMemoryBench(size: DatasetSize, warmSeconds: number): Promise<MemoryResult> {
  const { dataDir, emails } = await prepareDataDir(size);
  const server = await startServer(dataDir);
  try {
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const auth = { authorization: `Bearer ${jwt}` };
    await fetch(`${server.url}/login`).then((r) => r.arrayBuffer());
    for (const e of await mainReadEndpoints(server.url, auth)) await load(`${server.url}${e.path}`, auth, warmSeconds);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const processes = serverProcesses(server.child.pid!, dataDir);
    const largest = processes.reduce((a, b) => (b.rss > a.rss ? b : a));
    const result = {
      processes,
      largest,
      rssTotal: processes.reduce((n, p) => n + p.rss, 0),
      pssTotal: processes.reduce((n, p) => n + p.pss, 0),
    };
    process.stdout.write(
      `  ${processes.length} processes; largest ${largest.name} ${(largest.rss / 1e6).toFixed(1)} MB RSS; all: ${(result.rssTotal / 1e6).toFixed(1)} MB RSS, ${(result.pssTotal / 1e6).toFixed(1)} MB PSS\n`,
    );
    return result;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
