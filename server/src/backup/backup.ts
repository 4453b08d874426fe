import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import tar from 'tar-stream';
import type { Db } from '../db/client.ts';
import type { ObjectStore } from '../media/objectStore.ts';
import { isStoredName } from '../media/storedNames.ts';
import {
  BACKUP_FORMAT,
  columnsOf,
  COPY_SETTINGS,
  identifier,
  MANIFEST_NAME,
  mediaPart,
  tablePart,
  tablesInLoadOrder,
  type BackupManifest,
  type BackupPart,
  type BackupTable,
} from './format.ts';
import { BACKUP_LOCK, TAKE_HOLD } from './hold.ts';

/** What `writeBackup` wrote. */
export interface BackupReport {
  file: string;
  /** The file's size in bytes. */
  size: number;
  /** How many parts it holds (tables and media files). */
  parts: number;
  /** Its manifest but the list of parts. */
  manifest: Omit<BackupManifest, 'parts'>;
}

/** Media rows read from the snapshot at a time. */
const MEDIA_BATCH = 200;

/**
 * Writes one tar stream part by part, each with its size and SHA-256 (listed in a spool file as
 * they are written, so that the manifest of a large installation is never held in memory); the
 * output's own failure ends the writing of a part at once.
 */
class PartWriter {
  private readonly pack = tar.pack();
  private readonly writing: Promise<void>;
  private failure: Error | null = null;
  /** Whoever waits on the output (its failure rejects them all). */
  private readonly waiting = new Set<(error: Error) => void>();
  private readonly mtime = new Date();
  private readonly listFile: string;
  private readonly list: WriteStream;
  private count = 0;

  constructor(file: string, spool: string) {
    this.writing = pipeline(this.pack, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    this.writing.catch((error: Error) => {
      this.failure = error;
      for (const reject of this.waiting) reject(error);
    });
    this.listFile = path.join(spool, MANIFEST_NAME);
    this.list = createWriteStream(this.listFile, { mode: 0o600 });
    this.list.write('{"parts":[');
  }

  /** How many parts were written. */
  get parts(): number {
    return this.count;
  }

  /** Adds a part of `size` bytes from `source` (its bytes must be exactly that many). */
  async add(name: string, size: number, source: AsyncIterable<Buffer>, type?: string): Promise<void> {
    const sha256 = await this.entry(name, size, source);
    const part: BackupPart = { name, size, sha256, ...(type ? { type } : {}) };
    const line = `${this.count === 0 ? '' : ','}\n${JSON.stringify(part)}`;
    this.count += 1;
    if (!this.list.write(line)) await once(this.list, 'drain');
  }

  /** Adds the manifest (the parts listed so far and `rest`) and ends the file. */
  async finish(rest: Omit<BackupManifest, 'parts'>): Promise<void> {
    this.list.end(`\n],${JSON.stringify(rest).slice(1)}`);
    await finished(this.list);
    const { size } = await stat(this.listFile);
    await this.entry(MANIFEST_NAME, size, createReadStream(this.listFile));
    this.pack.finalize();
    await this.writing;
  }

  /** Ends the output after a failure. */
  async abort(): Promise<void> {
    this.list.destroy();
    this.pack.destroy();
    await this.writing.catch(() => undefined);
  }

  /** Writes one entry; resolves with its SHA-256. */
  private async entry(name: string, size: number, source: AsyncIterable<Buffer>): Promise<string> {
    const hash = createHash('sha256');
    let written = 0;
    let entry!: ReturnType<tar.Pack['entry']>;
    const done = new Promise<void>((resolve, reject) => {
      entry = this.pack.entry({ name, size, mode: 0o600, mtime: this.mtime }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
    done.catch(() => undefined);
    for await (const chunk of source) {
      if (this.failure) throw this.failure;
      written += chunk.length;
      if (written > size) throw new Error(`${name} grew while it was copied (more than ${size} bytes).`);
      hash.update(chunk);
      if (!entry.write(chunk)) await this.unlessFailed((resolve) => entry.once('drain', resolve));
    }
    if (written !== size) throw new Error(`${name} has ${written} bytes where ${size} were expected.`);
    entry.end(undefined);
    await this.unlessFailed((resolve, reject) => done.then(resolve, reject));
    return hash.digest('hex');
  }

  /** Waits for `wait`, or rejects as soon as the output fails. */
  private unlessFailed(wait: (resolve: () => void, reject: (error: Error) => void) => void): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.waiting.add(reject);
      wait(
        () => {
          this.waiting.delete(reject);
          resolve();
        },
        (error) => {
          this.waiting.delete(reject);
          reject(error);
        },
      );
    });
  }
}

/** Copies one table of the snapshot into a spool file, then into the backup. */
async function copyTable(client: pg.Client, table: string, spool: string, parts: PartWriter): Promise<BackupTable> {
  const columns = await columnsOf(client, table);
  const list = columns.map(identifier).join(', ');
  const file = path.join(spool, `${table}.copy`);
  const copy = client.query(copyTo(`COPY (SELECT ${list} FROM ${identifier(table)}) TO STDOUT`));
  await pipeline(copy, createWriteStream(file, { mode: 0o600 }));
  const { size } = await stat(file);
  const part = tablePart(table);
  await parts.add(part, size, createReadStream(file));
  await rm(file, { force: true });
  return { name: table, columns, rows: copy.rowCount, part };
}

/**
 * Writes a backup of the database and its media files into `file`, while the portal keeps serving:
 * every table of the product's schema (see `EXCLUDED_TABLES`) copied in one repeatable-read
 * snapshot, then every stored file the snapshot's media rows name, read from `objects`. Files
 * deleted after the snapshot are still copied: the backup's hold (`hold.ts`) keeps them until it
 * ends; a file already missing from the store is listed in the manifest and the report. The file
 * is a tar: one part per table and file, then `manifest.json` (each part's size and SHA-256, the
 * schema version); it is written (0600) under a temporary name and renamed at the end.
 */
export async function writeBackup(
  db: Db,
  objects: ObjectStore,
  file: string,
  log: (line: string) => void = () => undefined,
): Promise<BackupReport> {
  if (!db.settings) throw new Error('A backup needs PostgreSQL.');
  const target = path.resolve(file);
  const dir = path.dirname(target);
  const partial = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.partial`);
  const spool = await mkdtemp(path.join(dir, '.backup-tables-'));
  const client = new pg.Client(db.settings());
  client.on('error', () => undefined);
  const parts = new PartWriter(partial, spool);
  try {
    await client.connect();
    await client.query(TAKE_HOLD, [BACKUP_LOCK]);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for (const setting of COPY_SETTINGS) await client.query(setting);
    const head = await client.query<{ version: string; at: Date }>(
      'SELECT (SELECT max(version) FROM schema_migrations) AS version, now() AS at',
    );
    const schemaVersion = head.rows[0]!.version;
    const createdAt = head.rows[0]!.at.toISOString();
    const tables: BackupTable[] = [];
    for (const table of await tablesInLoadOrder(client)) {
      tables.push(await copyTable(client, table, spool, parts));
      log(`${table}: ${tables.at(-1)!.rows} rows`);
    }
    const missing: string[] = [];
    let files = 0;
    await client.query(
      `DECLARE backup_media NO SCROLL CURSOR FOR
         SELECT storage_key || ext AS name, mime AS type FROM media_files
         UNION ALL
         SELECT f.value->>'name', coalesce(f.value->>'mime', 'image/jpeg')
         FROM media_files m, jsonb_each(coalesce(m.formats, '{}'::jsonb)) f
         WHERE jsonb_typeof(f.value) = 'object' AND f.value ? 'name'`,
    );
    for (;;) {
      const batch = await client.query<{ name: string; type: string }>(`FETCH ${MEDIA_BATCH} FROM backup_media`);
      for (const { name, type } of batch.rows) {
        if (!isStoredName(name)) throw new Error(`A media row names a file that cannot be stored: ${name}`);
        const size = await objects.size(name);
        if (size === null) {
          missing.push(name);
          continue;
        }
        const body = await objects.read(name);
        try {
          await parts.add(mediaPart(name), size, body, type);
        } finally {
          body.destroy();
        }
        files += 1;
      }
      if (batch.rows.length < MEDIA_BATCH) break;
    }
    log(`media: ${files} files${missing.length > 0 ? `, ${missing.length} missing from the store` : ''}`);
    await client.query('COMMIT');
    const manifest = { format: BACKUP_FORMAT, schemaVersion, createdAt, tables, media: { files, missing } };
    await parts.finish(manifest);
    await rename(partial, target);
    return { file: target, size: (await stat(target)).size, parts: parts.parts, manifest };
  } catch (error) {
    await parts.abort();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
    await rm(spool, { recursive: true, force: true });
  }
}
