/**
 * Login throughput and latency at OWASP-strength password hashing: 4 clients sign in over and
 * over (each request from its own address, as 4 teachers in different places would), for
 * `seconds`; every answer is the full login bundle a client gets.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { prepareDataDir, startServer } from './support.ts';

export interface LoginResult {
  concurrency: number;
  logins: number;
  failures: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  hashMs: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function runLoginBench(size: DatasetSize, seconds: number, concurrency = 4): Promise<LoginResult> {
  const { dataDir } = await prepareDataDir(size);
  const server = await startServer(dataDir, { TRUST_PROXY: 'true' });
  const latencies: number[] = [];
  let failures = 0;
  let address = 0;
  try {
    const { hashPassword } = await import('../server/src/security/passwords.ts');
    const hashStarted = performance.now();
    for (let i = 0; i < 5; i += 1) await hashPassword(BENCH_PASSWORD);
    const hashMs = (performance.now() - hashStarted) / 5;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, worker) => {
        while (performance.now() < until) {
          address += 1;
          const started = performance.now();
          const res = await fetch(`${server.url}/api/v1/auth/local`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
            },
            body: JSON.stringify({ identifier: `teacher${(worker % 10) + 1}@bench.example`, password: BENCH_PASSWORD }),
          });
          await res.arrayBuffer();
          if (res.status === 200) latencies.push(performance.now() - started);
          else failures += 1;
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    return {
      concurrency,
      logins: latencies.length,
      failures,
      seconds,
      perSecond: Math.round((latencies.length / seconds) * 10) / 10,
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      hashMs: Math.round(hashMs),
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
