import { statSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyDb, testConfig } from '../../test/helper.ts';
import { migrate, migrationFiles } from '../db/migrate.ts';
import { locationOf } from '../media/mediaLocation.ts';
import { objectStoreOf } from '../media/objectStore.ts';
import { backUpBeforeMigrating } from './beforeMigrations.ts';
import { restoreBackup } from './restore.ts';

/**
 * The backup a start takes before migrations that change existing data (decision 041). The first
 * migration of the kind is 0013 (it moves caption tracks): a database of 0011 is one such start.
 */
const folder = await mkdtemp(path.join(os.tmpdir(), 'pf-before-migrations-'));
afterAll(() => rm(folder, { recursive: true, force: true }));
const config = testConfig();
const objects = () => objectStoreOf(config);
const BEFORE_CHANGE = '0011_auth_limits.sql';

function recorder(): { lines: string[]; info: (msg: string) => void } {
  const lines: string[] = [];
  return { lines, info: (msg) => lines.push(msg) };
}

describe('a backup before migrations that change existing data', () => {
  it('is taken before such migrations run, and restores on the current version with the rows of then', async () => {
    expect(migrationFiles()).toContain(BEFORE_CHANGE);
    const older = await createEmptyDb();
    await migrate(older, { until: BEFORE_CHANGE });
    await older.query(
      `INSERT INTO users (username, email, role_id) SELECT 'Ada', 'ada@example.org', id FROM roles WHERE type = 'authenticated'`,
    );
    const dir = path.join(folder, 'first');
    const log = recorder();
    const file = await backUpBeforeMigrating(older, { dir }, objects, log);

    expect(file).toMatch(
      new RegExp(
        `^${dir}/practicefolio-before-${migrationFiles().at(-1)!.slice(0, 4)}-\\d{8}T\\d{6}\\.\\d{3}Z\\.backup$`,
      ),
    );
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(log.lines[0]).toContain('0013_caption_tracks_per_artifact');
    expect(log.lines.join('\n')).toContain(file!);
    // Nothing was migrated by it.
    const { rows } = await older.query<{ version: string }>('SELECT max(version) AS version FROM schema_migrations');
    expect(rows[0]!.version).toBe(BEFORE_CHANGE);

    const target = { db: await createEmptyDb(), objects: await objects(), location: locationOf(config.s3) };
    const restored = await restoreBackup(file!, target);
    expect(restored.manifest.schemaVersion).toBe(BEFORE_CHANGE);
    expect(restored.migrated.at(-1)).toBe(migrationFiles().at(-1));
    const users = await target.db.query<{ email: string }>('SELECT email FROM users');
    expect(users.rows).toEqual([{ email: 'ada@example.org' }]);
  });

  it('is not taken for a new database, an up-to-date one, or migrations that only add', async () => {
    const dir = path.join(folder, 'none');
    const fresh = await createEmptyDb();
    expect(await backUpBeforeMigrating(fresh, { dir }, objects, recorder())).toBeNull();
    await migrate(fresh, { until: '0013_caption_tracks_per_artifact.sql' });
    // Every later migration adds tables, columns or indexes, but 0025 (it starts each artifact's history from its rows).
    const log = recorder();
    expect(await backUpBeforeMigrating(fresh, null, objects, log)).toBeNull();
    expect(log.lines).toEqual([
      'migrations that change existing data (0025_artifact_versions) run without a backup: BACKUP_BEFORE_MIGRATIONS=off',
    ]);
    await migrate(fresh);
    expect(await backUpBeforeMigrating(fresh, { dir }, objects, recorder())).toBeNull();
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
  });

  it('when turned off, says that the migrations run without one', async () => {
    const older = await createEmptyDb();
    await migrate(older, { until: BEFORE_CHANGE });
    const log = recorder();
    expect(await backUpBeforeMigrating(older, null, objects, log)).toBeNull();
    expect(log.lines).toEqual([
      'migrations that change existing data (0013_caption_tracks_per_artifact, 0025_artifact_versions) run without a backup: BACKUP_BEFORE_MIGRATIONS=off',
    ]);
  });

  it('stops the start when it cannot be written, before any migration', async () => {
    const older = await createEmptyDb();
    await migrate(older, { until: BEFORE_CHANGE });
    const blocked = path.join(folder, 'a-file');
    await import('node:fs/promises').then((fs) => fs.writeFile(blocked, 'not a folder'));
    await expect(backUpBeforeMigrating(older, { dir: blocked }, objects, recorder())).rejects.toThrow(
      /Could not back up before the migrations that change existing data \(0013_caption_tracks_per_artifact, 0025_artifact_versions\), so they did not run: .*BACKUP_BEFORE_MIGRATIONS=off/,
    );
    const { rows } = await older.query<{ version: string }>('SELECT max(version) AS version FROM schema_migrations');
    expect(rows[0]!.version).toBe(BEFORE_CHANGE);
  });
});
