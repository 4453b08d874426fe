/** Both CSV exports at scale: time, rows, and the server's memory while streaming. */
import { rmSync } from 'node:fs';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { prepareDataDir, rssMiB, startServer, token } from './support.ts';

export async function runExportBench(size: DatasetSize) {
  const { dataDir, counts } = await prepareDataDir(size);
  const server = await startServer(dataDir);
  const pid = server.child.pid!;
  try {
    const jwt = await token(server.url, 'researcher@bench.example', BENCH_PASSWORD);
    await new Promise((r) => setTimeout(r, 2000));
    const idle = rssMiB(pid);
    const out = [];
    for (const url of ['/api/v1/portfolios/export', '/api/v1/shared-portfolios/export']) {
      let peak = rssMiB(pid);
      const before = peak;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMiB(pid));
      }, 50);
      const started = Date.now();
      const res = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${jwt}` } });
      const text = await res.text();
      clearInterval(sampler);
      out.push({
        url,
        status: res.status,
        rows: text.trimEnd().split('\n').length - 1,
        bytes: Buffer.byteLength(text),
        seconds: (Date.now() - started) / 1000,
        beforeMiB: Math.round(before),
        peakMiB: Math.round(peak),
      });
    }
    return { counts, idleMiB: Math.round(idle), exports: out };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
