import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createArtifact,
  createComment,
  createLead,
  createPortfolio,
  createReaction,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
} from '../../test/factories.ts';
import { seedRubricAndScore } from '../../test/fixtures/rubrics.ts';
import { multipart, pngImage } from '../../test/files.ts';
import { filesOf, media, mediaKit, upload } from '../../test/fixtures/media.ts';
import { buildTestApp, createEmptyDb, createTestDb, testConfig } from '../../test/helper.ts';
import { runAdmin } from '../admin.ts';
import type { Db } from '../db/client.ts';
import { locationOf } from '../media/mediaLocation.ts';
import { migrate, migrationFiles } from '../db/migrate.ts';
import { LocalObjectStore, objectStoreOf, type ObjectStore } from '../media/objectStore.ts';
import { writeBackup } from './backup.ts';
import { EXCLUDED_TABLES } from './format.ts';
import { restoreBackup, type RestoreTarget } from './restore.ts';

const t = await buildTestApp();
const { ownArtifact } = mediaKit(t);
const folder = await mkdtemp(path.join(os.tmpdir(), 'pf-backup-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

/** An empty database and an empty media store of a new installation (same kind of store as the app's). */
async function emptyTarget(): Promise<RestoreTarget & { config: ReturnType<typeof testConfig> }> {
  const config = testConfig();
  return { config, db: await createEmptyDb(), objects: await objectStoreOf(config), location: locationOf(config.s3) };
}

/** The tables of a database's current schema. */
async function tablesOf(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/** A digest of every row of each backed-up table. */
async function rowDigests(db: Db): Promise<Record<string, string>> {
  const tables = (await tablesOf(db)).filter((name) => !EXCLUDED_TABLES.has(name));
  const { rows } = await db.query<{ name: string; digest: string }>(
    tables
      .map(
        (table) =>
          `SELECT '${table}' AS name, count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM ${table} x`,
      )
      .join(' UNION ALL '),
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every stored file of a store with its SHA-256. */
async function storedFiles(objects: ObjectStore): Promise<Record<string, string>> {
  const names = (await objects.list('')).sort();
  const files: Record<string, string> = {};
  for (const name of names) files[name] = await sha256(await objects.read(name));
  return files;
}

/** Whether a database has no tables and a store no files. */
async function isUntouched(target: RestoreTarget): Promise<boolean> {
  const files = await target.objects.list('').catch(() => []);
  return (await tablesOf(target.db)).length === 0 && files.length === 0;
}

/** A teacher's work with an uploaded image, a shared portfolio with a copy, a comment, a reaction and a score. */
async function someWork() {
  const { teacher, artifact, base } = await ownArtifact();
  const image = media(
    await upload(t, teacher.token, `${base}/images`, multipart('file', 'ramp.png', await pngImage(300, 200))),
  );
  const lead = await createLead(t);
  const shared = await createSharedPortfolio(t, lead, { members: [teacher] });
  const copy = await createSharedArtifact(t, shared, teacher);
  await createComment(t, copy, lead, 'Lovely ramp.');
  await createReaction(t, copy, lead, '⭐');
  await seedRubricAndScore(t, shared.id, copy.id, lead.user.id);
  await createArtifact(t, await createPortfolio(t, await createTeacher(t)), { parkingLot: false });
  return { teacher, artifact, base, image };
}

const roundTrip = await emptyTarget();
const busyTarget = await emptyTarget();
const refusedTarget = await emptyTarget();
const holding = await createTestDb();
const older = await createEmptyDb();
const olderTarget = await emptyTarget();

describe('backup and restore', () => {
  it('restores every row and every file (by SHA-256) into an empty database and store, through the admin commands', async () => {
    await someWork();
    await t.app.jobs.idle();
    const rows = await rowDigests(t.db);
    const files = await storedFiles(t.app.mediaStore.objects);
    expect(Object.keys(files).length).toBeGreaterThan(1);

    const file = path.join(folder, 'portal.backup');
    const out = await runAdmin(['backup', file], t.config, t.db);
    expect(out).toMatch(/^Backup written to .*portal\.backup \(\d+ bytes, 0600\)/m);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const target = roundTrip;
    const restored = await runAdmin(['restore', file], target.config, target.db);
    expect(restored).toMatch(/^Restored the backup of .* \(schema version \d{4}_[a-z0-9_]+\.sql\): \d+ tables/m);
    expect(await rowDigests(target.db)).toEqual(rows);
    expect(await storedFiles(target.objects)).toEqual(files);
    // Not in the backup: the counts of scores and of tags (decision 062), counted again as the rows come back.
    const counts = async (db: Db) => [
      (await db.query('SELECT * FROM score_level_counts ORDER BY 1, 2, 3, 4')).rows,
      (await db.query('SELECT * FROM portfolio_tag_counts ORDER BY 1')).rows,
    ];
    const before = await counts(t.db);
    expect(before.map((rows) => rows.length)).toEqual([1, 2]);
    expect(await counts(target.db)).toEqual(before);
    const { rows: ids } = await target.db.query<{ next: number; max: number }>(
      `SELECT nextval(pg_get_serial_sequence('users', 'id')) AS next, (SELECT max(id) FROM users) AS max`,
    );
    expect(ids[0]!.next).toBe(ids[0]!.max + 1);
  });

  it('takes a consistent backup while the portal writes: a file deleted meanwhile stays in it', async () => {
    const { teacher, artifact, image } = await someWork();
    await t.app.jobs.idle();
    const rows = await rowDigests(t.db);
    let opened!: () => void;
    const snapshotTaken = new Promise<void>((resolve) => (opened = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const objects = t.app.mediaStore.objects;
    // The backup reads its first file once its snapshot is taken and every table copied: the
    // portal writes then, and the backup goes on once they are done.
    const gated: ObjectStore = Object.assign(Object.create(objects) as ObjectStore, {
      read: async (name: string) => {
        opened();
        await released;
        return objects.read(name);
      },
    });
    const file = path.join(folder, 'busy.backup');
    const backup = writeBackup(t.db, gated, file);
    await snapshotTaken;
    const added = await createArtifact(t, await createPortfolio(t, teacher), { parkingLot: false });
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: teacher.token })).toHaveStatus(200);
    // Its files wait for the backup, even for a sweep; the first sweep after it deletes them.
    expect(await t.app.mediaStore.sweepAbandoned(0)).toBe(0);
    for (const url of filesOf(image)) expect(await objects.size(url.split('/').pop()!)).not.toBeNull();
    release();
    const report = await backup;
    expect(report.manifest.media.missing).toEqual([]);

    const target = busyTarget;
    await restoreBackup(file, target);
    expect(await rowDigests(target.db)).toEqual(rows);
    const { rows: gone } = await target.db.query('SELECT 1 FROM artifacts WHERE id = $1', [added.id]);
    expect(gone).toEqual([]);
    const restoredFiles = await storedFiles(target.objects);
    for (const url of filesOf(image)) expect(restoredFiles[url.split('/').pop()!]).toBeDefined();

    // Once the backup has ended, the files let go of are deleted by the sweep.
    await t.app.mediaStore.sweepAbandoned(0);
    for (const url of filesOf(image)) expect(await objects.size(url.split('/').pop()!)).toBeNull();
  });

  it('restores a backup of an earlier version, then runs the migrations that came after it', async () => {
    const earlier = migrationFiles().at(-3)!;
    await migrate(older, { until: earlier });
    await older.query(
      `INSERT INTO users (username, email, role_id, password_hash) VALUES ('Early', 'early@example.org', 1, 'x')`,
    );
    const file = path.join(folder, 'earlier.backup');
    const report = await writeBackup(older, new LocalObjectStore(path.join(folder, 'no-media')), file);
    expect(report.manifest.schemaVersion).toBe(earlier);

    const restored = await restoreBackup(file, olderTarget);
    expect(restored.migrated).toEqual(migrationFiles().slice(-2));
    const { rows } = await olderTarget.db.query<{ email: string }>('SELECT email FROM users');
    expect(rows).toEqual([{ email: 'early@example.org' }]);
    const { rows: versions } = await olderTarget.db.query<{ version: string }>(
      'SELECT max(version) AS version FROM schema_migrations',
    );
    expect(versions[0]!.version).toBe(migrationFiles().at(-1));
  });

  describe('refuses before changing anything', () => {
    const original = path.join(folder, 'refusals.backup');
    const backup = async () => {
      await someWork();
      await writeBackup(t.db, t.app.mediaStore.objects, original);
      return readFileSync(original);
    };

    it('a truncated backup', async () => {
      const bytes = await backup();
      const file = path.join(folder, 'truncated.backup');
      writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const target = refusedTarget;
      await expect(restoreBackup(file, target)).rejects.toThrow(
        /^The backup .*truncated\.backup cannot be restored: it is truncated.*\. Nothing was changed\.$/,
      );
      expect(await isUntouched(target)).toBe(true);
      writeFileSync(file, bytes.subarray(0, bytes.indexOf('manifest.json')));
      await expect(restoreBackup(file, target)).rejects.toThrow(/it is truncated: it ends before its manifest/);
      expect(await isUntouched(target)).toBe(true);
    });

    it('a backup with one byte changed', async () => {
      const bytes = Buffer.from(await readFile(original));
      const header = bytes.indexOf('tables/users.copy');
      expect(header).toBeGreaterThan(-1);
      const at = header + 512 + 2;
      bytes[at] = bytes[at]! ^ 0x01;
      const file = path.join(folder, 'altered.backup');
      writeFileSync(file, bytes);
      const target = refusedTarget;
      await expect(restoreBackup(file, target)).rejects.toThrow(
        /^The backup .* cannot be restored: tables\/users\.copy does not match its SHA-256 in the manifest: the file was altered or damaged\. Nothing was changed\.$/,
      );
      expect(await isUntouched(target)).toBe(true);
    });

    it('a backup of a newer schema version', async () => {
      const bytes = Buffer.from(await readFile(original));
      const text = bytes.toString('latin1');
      const version = /"schemaVersion": ?"(\d{4})(_[a-z0-9_]+\.sql)"/.exec(text)!;
      const at = text.indexOf(version[0]);
      bytes.write(version[0].replace(`"${version[1]}`, '"9999'), at, 'latin1');
      const file = path.join(folder, 'newer.backup');
      writeFileSync(file, bytes);
      const target = refusedTarget;
      await expect(restoreBackup(file, target)).rejects.toThrow(
        `it is of schema version 9999${version[2]}, newer than this version of PracticeFolio knows`,
      );
      expect(await isUntouched(target)).toBe(true);
    });

    it('a database that is not empty', async () => {
      const db = holding;
      await db.query(`INSERT INTO users (username, email, role_id) VALUES ('Someone', 'someone@example.org', 1)`);
      const config = testConfig();
      const target = { db, objects: await objectStoreOf(config), location: locationOf(config.s3) };
      await expect(restoreBackup(original, target)).rejects.toThrow(
        'The database is not empty (rows in users): restore into an empty database (a new DATA_DIR, or a new database of DATABASE_URL). Nothing was changed.',
      );
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(rows[0]!.n).toBe(1);
      expect(await target.objects.list('').catch(() => [])).toEqual([]);
    });
  });
});
