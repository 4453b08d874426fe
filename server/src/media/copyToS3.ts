import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Queryable } from '../db/client.ts';
import { mediaLocationRepository } from '../repositories/mediaFileRepository.ts';
import { LocalObjectStore, type S3Settings } from './objectStore.ts';
import { S3ObjectStore } from './s3ObjectStore.ts';

/** What one run of `media copy-to-s3` did. */
export interface CopyReport {
  /** Files copied (and verified) by this run. */
  copied: number;
  /** Files already in the bucket with the same size and SHA-256 (an earlier run copied them). */
  present: number;
  /** Files the media rows name that are not in the uploads folder (lost before this run). */
  missing: string[];
  /** Whether the database now says the media are in the bucket. */
  switched: boolean;
}

async function sha256Of(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(stream, async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      size += chunk.length;
      hash.update(chunk);
    }
  });
  return { sha256: hash.digest('hex'), size };
}

/**
 * Copies every file the media rows keep (originals and formats) from `DATA_DIR/uploads` into the
 * bucket of `s3`, resumably: a file already there with the same size and SHA-256 is not copied
 * again; each copied object is read back and checked by size and SHA-256. Files uploaded meanwhile
 * are taken by another pass; only when a pass copies nothing and every file is in does the
 * database switch to the bucket. The local files are left in place (delete them once the portal
 * runs from the bucket).
 * @throws when a copy cannot be verified (nothing is switched; run it again).
 */
export async function copyMediaToS3(
  db: Queryable,
  dataDir: string,
  s3: S3Settings,
  say: (line: string) => void,
): Promise<CopyReport> {
  const local = new LocalObjectStore(path.join(dataDir, 'uploads'));
  const bucket = new S3ObjectStore(s3);
  await bucket.check();
  const report: CopyReport = { copied: 0, present: 0, missing: [], switched: false };
  const done = new Set<string>();
  for (let pass = 1; ; pass += 1) {
    const files = (await mediaLocationRepository.storedNames(db)).filter((f) => !done.has(f.name));
    if (files.length === 0) break;
    say(`pass ${pass}: ${files.length} files to check`);
    for (const { name, mime } of files) {
      done.add(name);
      const file = path.join(local.dir, name);
      if ((await local.size(name)) === null) {
        report.missing.push(name);
        continue;
      }
      const { sha256, size } = await sha256Of(createReadStream(file));
      const there = await bucket.describe(name);
      if (there && there.size === size && there.sha256 === sha256) {
        report.present += 1;
        continue;
      }
      await bucket.upload(name, file, mime, { sha256 });
      const back = await sha256Of(await bucket.read(name));
      if (back.size !== size || back.sha256 !== sha256) {
        await bucket.remove([name]);
        throw new Error(
          `${name}: the copy in the bucket differs from the file (size or SHA-256); nothing was switched`,
        );
      }
      report.copied += 1;
      if (report.copied % 100 === 0) say(`  ${report.copied} copied`);
    }
  }
  await mediaLocationRepository.switchTo(db, { store: 's3', bucket: s3.bucket });
  report.switched = true;
  return report;
}
