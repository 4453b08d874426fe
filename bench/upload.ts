/** Memory of the server while it receives a large upload, and when idle. */
import http from 'node:http';
import { Readable } from 'node:stream';
import { BENCH_PASSWORD, type DatasetSize } from './generate.ts';
import { prepareDataDir, rssMiB, startServer, token } from './support.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { portalEnvironment, startS3Server } from '../scripts/s3server.mjs';
import { s3Client } from '../server/src/media/s3ObjectStore.ts';

/** A stream of `bytes` of text, as a multipart body of one file (`head`, the bytes, `tail`), or bare. */
function textBody(bytes: number, parts?: { head: Buffer; tail: Buffer }): Readable {
  const chunk = Buffer.alloc(1024 * 1024, 'practicefolio benchmark line of text\n');
  return Readable.from(
    (function* () {
      if (parts) yield parts.head;
      for (let sent = 0; sent < bytes;) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        yield n === chunk.length ? chunk : chunk.subarray(0, n);
      }
      if (parts) yield parts.tail;
    })(),
  );
}

/** Uploads `bytes` of text as a document to a new artifact and samples the server's resident memory meanwhile. */
async function uploadInto(url: string, pid: number, jwt: string, bytes: number) {
  const auth = { authorization: `Bearer ${jwt}` };
  const portfolios = (await (await fetch(`${url}/api/v1/portfolios`, { headers: auth })).json()) as { id: number }[];
  const portfolioId = portfolios[0]!.id;
  const created = (await (
    await fetch(`${url}/api/v1/portfolios/${portfolioId}/artifacts/responses`, {
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
  const started = Date.now();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${url}/api/v1/portfolios/${portfolioId}/artifacts/${created.id}/documents`,
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
    textBody(bytes, { head, tail }).pipe(req);
  });
  clearInterval(sampler);
  const seconds = (Date.now() - started) / 1000;
  if (status !== 200) throw new Error(`upload answered ${status}`);
  return { bytes, seconds, idleMiB: Math.round(idle), peakMiB: Math.round(peak), growthMiB: Math.round(peak - idle) };
}

/** The upload with the files in `DATA_DIR/uploads` (the data set's teacher). */
export async function runUploadBench(size: DatasetSize, bytes: number) {
  const { dataDir, emails } = await prepareDataDir(size);
  const server = await startServer(dataDir, { UPLOAD_LIMIT_BYTES: String(bytes + 1024 * 1024) });
  try {
    return await uploadInto(
      server.url,
      server.child.pid!,
      await token(server.url, emails.teacherEmail, BENCH_PASSWORD),
      bytes,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The same upload with `MEDIA_STORE=s3` into Ceph's radosgw on loopback (a new installation with
 * the demo data), and next to it, in the same run, the same bytes uploaded straight to the bucket
 * with `@aws-sdk/lib-storage` (the floor of any upload into that store).
 */
export async function runS3UploadBench(bytes: number) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-s3-'));
  const s3 = await startS3Server({ dir: path.join(root, 's3'), memoryBytes: 3 * bytes + 512 * 1024 * 1024 });
  try {
    const client = s3Client({
      bucket: 'bench-media',
      endpoint: s3.endpoint,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
    await client.send(new CreateBucketCommand({ Bucket: 'bench-media' }));
    const direct = Date.now();
    await new Upload({
      client,
      params: { Bucket: 'bench-media', Key: 'direct.txt', Body: textBody(bytes), ContentType: 'text/plain' },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    }).done();
    const directSeconds = (Date.now() - direct) / 1000;
    client.destroy();
    const server = await startServer(path.join(root, 'data'), {
      DEMO_DATA: 'true',
      UPLOAD_LIMIT_BYTES: String(bytes + 1024 * 1024),
      ...portalEnvironment(s3, 'bench-media'),
    });
    try {
      const through = await uploadInto(
        server.url,
        server.child.pid!,
        await token(server.url, 'teacher@example.org', 'spiral-demo'),
        bytes,
      );
      return { ...through, directSeconds };
    } finally {
      await server.stop();
    }
  } finally {
    await s3.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
