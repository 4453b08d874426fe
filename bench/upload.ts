/** Memory of the server while it receives a large upload, and when idle. */
import http from 'node:http';
import { Readable } from 'node:stream';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { prepareDataDir, rssMiB, startServer, token } from './support.ts';
import { rmSync } from 'node:fs';

/** Uploads `bytes` of text as a document and samples the server's resident memory meanwhile. */
export async function runUploadBench(size: DatasetSize, bytes: number) {
  const { dataDir, emails } = await prepareDataDir(size);
  const server = await startServer(dataDir, { UPLOAD_LIMIT_BYTES: String(bytes + 1024 * 1024) });
  const pid = server.child.pid!;
  try {
    const jwt = await token(server.url, emails.teacherEmail, BENCH_PASSWORD);
    const auth = { authorization: `Bearer ${jwt}` };
    const portfolios = (await (await fetch(`${server.url}/api/v1/portfolios`, { headers: auth })).json()) as {
      id: number;
    }[];
    const portfolioId = portfolios[0]!.id;
    const created = (await (
      await fetch(`${server.url}/api/v1/portfolios/${portfolioId}/artifacts/responses`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { id: number };
    await new Promise((r) => setTimeout(r, 3000));
    const idle = rssMiB(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
    }, 50);
    const boundary = '----pfbench';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 'practicefolio benchmark line of text\n');
    let sent = 0;
    const body = Readable.from(
      (function* () {
        yield head;
        while (sent < bytes) {
          const n = Math.min(chunk.length, bytes - sent);
          sent += n;
          yield n === chunk.length ? chunk : chunk.subarray(0, n);
        }
        yield tail;
      })(),
    );
    const started = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}/api/v1/portfolios/${portfolioId}/artifacts/${created.id}/documents`,
        {
          method: 'POST',
          headers: {
            ...auth,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': head.length + bytes + tail.length,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      body.pipe(req);
    });
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    if (status !== 200) throw new Error(`upload answered ${status}`);
    return { bytes, seconds, idleMiB: Math.round(idle), peakMiB: Math.round(peak), growthMiB: Math.round(peak - idle) };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
