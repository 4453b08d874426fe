import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import tar from 'tar-stream';
import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import type { Db } from '../db/client.ts';
import { migrate, migrationFiles } from '../db/migrate.ts';
import type { ObjectStore } from '../media/objectStore.ts';
import { isStoredName } from '../media/storedNames.ts';
import { mediaLocationRepository, type MediaLocation } from '../repositories/mediaFileRepository.ts';
import {
  BACKUP_FORMAT,
  columnsOf,
  COPY_SETTINGS,
  identifier,
  MANIFEST_NAME,
  mediaPart,
  type BackupManifest,
  type BackupTable,
} from './format.ts';

/** A backup that cannot be restored (damaged, too new) or a target that is not empty: nothing was changed. */
export class RestoreRefused extends Error {}

/** Where a backup is restored: an empty database and an empty media store. */
export interface RestoreTarget {
  db: Db;
  objects: ObjectStore;
  /** Where the store is, recorded in the restored database (the backup may come from another store). */
  location: MediaLocation;
}

/** What `restoreBackup` did. */
export interface RestoreReport {
  manifest: BackupManifest;
  rows: number;
  files: number;
  /** The migrations of this version run after the backup's data was loaded. */
  migrated: string[];
}

/** The manifest is read into memory: it lists every part, so it may be large, but not this large. */
const MANIFEST_LIMIT = 512 * 1024 * 1024;

/**
 * Tables that hold rows before any data: the migrations' record and roles, the first start's
 * media location (and request counts); the first start's template portfolio is allowed as well.
 */
const SEEDED_TABLES = new Set(['schema_migrations', 'roles', 'media_location', 'rate_limit_counters']);

interface Seen {
  size: number;
  sha256: string;
}

function refused(file: string, problem: string): RestoreRefused {
  return new RestoreRefused(`The backup ${file} cannot be restored: ${problem}. Nothing was changed.`);
}

/** Yields `entry`'s bytes, counting and hashing them into `seen` when they have all passed. */
async function* hashing(entry: AsyncIterable<Buffer>, seen: (result: Seen) => void): AsyncGenerator<Buffer> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of entry) {
    hash.update(chunk);
    size += chunk.length;
    yield chunk;
  }
  seen({ size, sha256: hash.digest('hex') });
}

/** Reads every entry of the tar file `file` in order, handing each to `onEntry` (which must read it to its end). */
async function eachEntry(
  file: string,
  onEntry: (name: string, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const extract = tar.extract();
  const input = createReadStream(file);
  input.on('error', (error) => extract.destroy(error));
  input.pipe(extract);
  try {
    for await (const entry of extract) await onEntry(entry.header.name, entry as AsyncIterable<Buffer>);
  } finally {
    input.destroy();
  }
}

/** Whether a schema version (a migration's file name) is one this code knows, or newer than all of them. */
function checkVersion(file: string, version: unknown): string {
  const known = migrationFiles();
  const last = known.at(-1)!;
  if (typeof version !== 'string' || version.length === 0) throw refused(file, 'its manifest names no schema version');
  if (version > last)
    throw refused(
      file,
      `it is of schema version ${version}, newer than this version of PracticeFolio knows (its last migration is ${last}); restore it with the version that wrote it, or a later one`,
    );
  if (!known.includes(version))
    throw refused(file, `its schema version ${version} is not one of this version's migrations`);
  return version;
}

/**
 * Reads the whole backup `file` and checks it against its manifest: every part present once, of
 * the size and SHA-256 the manifest gives, nothing more; a format version this code reads; a schema
 * version not newer than its migrations. Writes nothing.
 * @throws RestoreRefused with a message that names what is wrong.
 */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  const seen = new Map<string, Seen>();
  let manifestText: string | null = null;
  let afterManifest: string | null = null;
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    throw refused(file, `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    await eachEntry(file, async (name, body) => {
      if (manifestText !== null) afterManifest ??= name;
      if (name === MANIFEST_NAME) {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of body) {
          size += chunk.length;
          if (size > MANIFEST_LIMIT) throw new Error('its manifest is too large');
          chunks.push(chunk);
        }
        manifestText = Buffer.concat(chunks).toString('utf8');
        return;
      }
      if (seen.has(name)) throw new Error(`it holds ${name} twice`);
      for await (const chunk of hashing(body, (result) => seen.set(name, result))) void chunk;
    });
  } catch (error) {
    if (error instanceof RestoreRefused) throw error;
    throw refused(file, `it is truncated or damaged (${(error as Error).message})`);
  }
  if (manifestText === null) throw refused(file, 'it is truncated: it ends before its manifest');
  if (afterManifest !== null) throw refused(file, `it holds ${afterManifest} after its manifest`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestText) as BackupManifest;
  } catch {
    throw refused(file, 'its manifest is not readable');
  }
  if (manifest.format !== BACKUP_FORMAT)
    throw refused(
      file,
      `it is of format version ${String(manifest.format)}, which this version of PracticeFolio does not read (it reads ${BACKUP_FORMAT})`,
    );
  checkVersion(file, manifest.schemaVersion);
  if (!Array.isArray(manifest.parts) || !Array.isArray(manifest.tables))
    throw refused(file, 'its manifest lists no parts');
  const listed = new Set<string>();
  for (const part of manifest.parts) {
    const found = seen.get(part.name);
    if (!found) throw refused(file, `it is incomplete: ${part.name} is missing`);
    if (found.size !== part.size)
      throw refused(
        file,
        `${part.name} has ${found.size} bytes where its manifest says ${part.size} (truncated or altered)`,
      );
    if (found.sha256 !== part.sha256)
      throw refused(file, `${part.name} does not match its SHA-256 in the manifest: the file was altered or damaged`);
    if (part.name.startsWith('media/') && !isStoredName(part.name.slice('media/'.length)))
      throw refused(file, `${part.name} is not the name of a media file`);
    listed.add(part.name);
  }
  for (const name of seen.keys())
    if (!listed.has(name)) throw refused(file, `it holds ${name}, which its manifest does not list`);
  for (const table of manifest.tables) {
    if (!listed.has(table.part)) throw refused(file, `the rows of ${table.name} are missing`);
    try {
      identifier(table.name);
      table.columns.forEach(identifier);
    } catch {
      throw refused(file, `its manifest names a table or column that is not one: ${table.name}`);
    }
  }
  return manifest;
}

/** The tables of the current schema, or none in an empty database. */
async function tablesOf(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/** Refuses a target that holds data, or is at a newer schema version than the backup. */
async function checkEmpty(target: RestoreTarget, manifest: BackupManifest): Promise<void> {
  const tables = await tablesOf(target.db);
  const holding: string[] = [];
  for (const table of tables) {
    if (SEEDED_TABLES.has(table)) continue;
    const extra = table === 'portfolios' ? ` WHERE id <> ${TEMPLATE_PORTFOLIO_ID}` : '';
    const { rows } = await target.db.query<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${identifier(table)}${extra}) AS any`,
    );
    if (rows[0]?.any) holding.push(table);
  }
  if (holding.length > 0)
    throw new RestoreRefused(
      `The database is not empty (rows in ${holding.join(', ')}): restore into an empty database (a new DATA_DIR, or a new database of DATABASE_URL). Nothing was changed.`,
    );
  if (tables.includes('schema_migrations')) {
    const { rows } = await target.db.query<{ version: string | null }>(
      'SELECT max(version) AS version FROM schema_migrations',
    );
    const version = rows[0]?.version;
    if (version && version > manifest.schemaVersion)
      throw new RestoreRefused(
        `The database is already at schema version ${version}, newer than the backup's ${manifest.schemaVersion}: restore into an empty database. Nothing was changed.`,
      );
  }
  const stored = await target.objects.list('').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (stored.length > 0)
    throw new RestoreRefused(
      `The media store is not empty (${stored.length} files): restore into an empty uploads folder or bucket. Nothing was changed.`,
    );
}

/** Checks that the migrated database has the backup's tables with the backup's columns. */
async function checkShape(client: pg.Client, manifest: BackupManifest): Promise<void> {
  for (const table of manifest.tables) {
    const columns = await columnsOf(client, table.name).catch(() => [] as string[]);
    if (columns.join(',') !== table.columns.join(','))
      throw new Error(
        `The table ${table.name} at schema version ${manifest.schemaVersion} does not have the backup's columns (${table.columns.join(', ')}).`,
      );
  }
}

/** Moves each identity column's generator past the largest restored value. */
async function resetIdentities(client: pg.Client, tables: readonly BackupTable[]): Promise<void> {
  for (const { name } of tables) {
    const { rows } = await client.query<{ column: string }>(
      `SELECT a.attname AS column FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attidentity <> ''`,
      [identifier(name)],
    );
    for (const { column } of rows)
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${identifier(column)}), 0) + 1, false) FROM ${identifier(name)}`,
        [identifier(name), column],
      );
  }
}

/**
 * Restores the backup `file` into `target` (or the target a function gives, opened only once the
 * file is verified): first reads and checks the whole file (`verifyBackup`; skipped when its
 * manifest is given as `verified`, as every part's SHA-256 is checked again while it is loaded),
 * then refuses a target that holds data; runs the migrations up to the backup's schema version,
 * loads every table and writes every media file in one transaction (a failure leaves the database
 * as it was and deletes the files written), resets the id generators, and then runs the
 * migrations of this version.
 * @throws RestoreRefused when the file or the target is refused: nothing was changed.
 */
export async function restoreBackup(
  file: string,
  target: RestoreTarget | (() => Promise<RestoreTarget>),
  options: { verified?: BackupManifest | undefined; log?: (line: string) => void } = {},
): Promise<RestoreReport> {
  const log = options.log ?? (() => undefined);
  const manifest = options.verified ?? (await verifyBackup(file));
  log(`verified: schema version ${manifest.schemaVersion}, ${manifest.parts.length} parts`);
  const into = typeof target === 'function' ? await target() : target;
  if (!into.db.settings) throw new Error('A restore needs PostgreSQL.');
  await checkEmpty(into, manifest);
  await into.objects.check();
  await migrate(into.db, { until: manifest.schemaVersion });
  const tables = new Map(manifest.tables.map((t) => [t.part, t]));
  const types = new Map(manifest.parts.map((p) => [p.name, p]));
  const client = new pg.Client(into.db.settings());
  client.on('error', () => undefined);
  const written: string[] = [];
  let rows = 0;
  try {
    await client.connect();
    await client.query('BEGIN');
    for (const setting of COPY_SETTINGS) await client.query(setting);
    await checkShape(client, manifest);
    if (manifest.tables.length > 0)
      await client.query(`TRUNCATE ${manifest.tables.map((t) => identifier(t.name)).join(', ')} CASCADE`);
    await eachEntry(file, async (name, body) => {
      if (name === MANIFEST_NAME) {
        for await (const chunk of body) void chunk;
        return;
      }
      const part = types.get(name);
      if (!part) throw new Error(`${name} is not in the manifest: the backup file was altered.`);
      const check = (seen: Seen) => {
        if (seen.size !== part.size || seen.sha256 !== part.sha256)
          throw new Error(`${name} changed while it was restored: the backup file was altered.`);
      };
      const table = tables.get(name);
      if (table) {
        const columns = table.columns.map(identifier).join(', ');
        const copy = client.query(copyFrom(`COPY ${identifier(table.name)} (${columns}) FROM STDIN`));
        await pipeline(Readable.from(hashing(body, check)), copy);
        rows += table.rows;
        log(`${table.name}: ${table.rows} rows`);
        return;
      }
      const stored = name.slice(mediaPart('').length);
      written.push(stored);
      await into.objects.putStream(
        stored,
        Readable.from(hashing(body, check)),
        part.type ?? 'application/octet-stream',
      );
    });
    await resetIdentities(client, manifest.tables);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    await into.objects.remove(written).catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
  log(`media: ${written.length} files`);
  const migrated = await migrate(into.db);
  const recorded = await mediaLocationRepository.find(into.db);
  if (recorded?.store !== into.location.store || recorded.bucket !== into.location.bucket)
    await mediaLocationRepository.switchTo(into.db, into.location);
  return { manifest, rows, files: written.length, migrated };
}
