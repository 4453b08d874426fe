/**
 * Media files for the backup benchmark. The data set's image rows have no files (`generate.ts`);
 * here every image row gets its four formats (as the server makes them: `<format>_<key>.jpg`) and
 * a small file of random bytes for the original and each format, and a few large videos are added
 * (rows and files), so that a backup copies many files and many bytes.
 */
import { randomBytes, randomFillSync } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openPostgres, type Db } from '../server/src/db/client.ts';
import { startEmbedded } from '../server/src/db/embedded.ts';

/** The formats of an image and the size of each one's file (bytes). */
const FORMAT_BYTES = { thumbnail: 1024, small: 2048, medium: 3072, large: 4096 } as const;
/** An original's size: from 2 KiB to 6 KiB, by its row's id. */
const ORIGINAL_SQL = '2048 + (id % 4096)';
/** The large files: videos of 32 MiB each. */
const VIDEOS = 8;
const VIDEO_BYTES = 32 * 1024 * 1024;
/** Files written at once. */
const CONCURRENCY = 16;
/** Rows read at a time. */
const PAGE = 2000;

/** What was written into the uploads folder. */
export interface MediaFacts {
  /** Media rows (images and videos). */
  rows: number;
  files: number;
  bytes: number;
  videos: number;
  videoBytes: number;
  seconds: number;
}

/** Runs `work` on every item, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** `bytes` random bytes, 1 MiB at a time. */
function randomStream(bytes: number): Readable {
  return Readable.from(
    (function* () {
      for (let left = bytes; left > 0; left -= 1024 * 1024)
        yield randomFillSync(Buffer.alloc(Math.min(left, 1024 * 1024)));
    })(),
  );
}

/** Gives the image rows their formats and sizes, and adds the videos (rows linked to artifacts without media). */
async function updateRows(db: Db): Promise<void> {
  const format = (name: keyof typeof FORMAT_BYTES) =>
    `'${name}', jsonb_build_object('name', '${name}_' || storage_key || '.jpg', 'hash', '${name}_' || storage_key,
       'ext', '.jpg', 'mime', 'image/jpeg', 'width', 245, 'height', 156, 'size', ${FORMAT_BYTES[name] / 1024},
       'path', null, 'url', '/uploads/${name}_' || storage_key || '.jpg')`;
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE media_files SET size = ${ORIGINAL_SQL},
         formats = jsonb_build_object(${(Object.keys(FORMAT_BYTES) as (keyof typeof FORMAT_BYTES)[]).map(format).join(', ')})
       WHERE kind = 'image'`,
    );
    await tx.query(
      `WITH inserted AS (
         INSERT INTO media_files (kind, name, storage_key, ext, mime, size, duration)
         SELECT 'video', 'lesson-' || g || '.mp4', 'benchvideo' || lpad(g::text, 14, '0'), '.mp4', 'video/mp4', $2, 600
         FROM generate_series(1, $1) g RETURNING id
       ), v AS (
         SELECT id, row_number() OVER (ORDER BY id) AS n FROM inserted
       ), a AS (
         SELECT id, row_number() OVER (ORDER BY id) AS n FROM artifacts
         WHERE NOT EXISTS (SELECT 1 FROM artifact_media m WHERE m.artifact_id = artifacts.id) ORDER BY id LIMIT $1
       )
       INSERT INTO artifact_media (artifact_id, media_id, caption) SELECT a.id, v.id, 'A' FROM v JOIN a USING (n)`,
      [VIDEOS, VIDEO_BYTES],
    );
  });
}

/**
 * Writes the files of every media row of the stopped embedded database in `dataDir` into
 * `DATA_DIR/uploads` (the local media store), after giving the rows their formats and adding the
 * videos: random bytes, small files 16 at a time from one random pool, the videos streamed.
 */
export async function writeMediaFiles(dataDir: string): Promise<MediaFacts> {
  const started = Date.now();
  const uploads = path.join(dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true, mode: 0o700 });
  const server = await startEmbedded(path.join(dataDir, 'db'));
  const db = openPostgres(server.connection, { onClose: () => server.stop() });
  const pool = randomBytes(1024 * 1024);
  const facts: MediaFacts = { rows: 0, files: 0, bytes: 0, videos: 0, videoBytes: 0, seconds: 0 };
  try {
    await updateRows(db);
    for (let after = 0; ;) {
      const { rows } = await db.query<{ id: number; name: string; size: string; kind: string; formats: string[] }>(
        `SELECT id, storage_key || ext AS name, size, kind,
                coalesce((SELECT array_agg(f.value->>'name' ORDER BY f.key) FROM jsonb_each(formats) f), '{}') AS formats
         FROM media_files WHERE id > $1 ORDER BY id LIMIT ${PAGE}`,
        [after],
      );
      if (rows.length === 0) break;
      after = rows.at(-1)!.id;
      const small: { name: string; bytes: number; at: number }[] = [];
      for (const row of rows) {
        facts.rows += 1;
        if (row.kind === 'video') {
          await pipeline(
            randomStream(Number(row.size)),
            createWriteStream(path.join(uploads, row.name), { mode: 0o600 }),
          );
          facts.videos += 1;
          facts.videoBytes += Number(row.size);
        } else small.push({ name: row.name, bytes: Number(row.size), at: facts.files });
        facts.files += 1;
        facts.bytes += Number(row.size);
        for (const name of row.formats) {
          const bytes = FORMAT_BYTES[name.slice(0, name.indexOf('_')) as keyof typeof FORMAT_BYTES];
          small.push({ name, bytes, at: facts.files });
          facts.files += 1;
          facts.bytes += bytes;
        }
      }
      await eachLimited(small, CONCURRENCY, async ({ name, bytes, at }) => {
        // Each file its own slice of the pool.
        const start = (at * 7919) % (pool.length - bytes);
        await writeFile(path.join(uploads, name), pool.subarray(start, start + bytes), { mode: 0o600, flag: 'wx' });
      });
    }
  } finally {
    await db.close();
  }
  facts.seconds = (Date.now() - started) / 1000;
  return facts;
}
