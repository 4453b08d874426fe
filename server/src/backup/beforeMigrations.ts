import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { migrationSql, pendingMigrations } from '../db/migrate.ts';
import { changesExistingData } from '../db/migrationEffects.ts';
import type { ObjectStore } from '../media/objectStore.ts';
import { writeBackup } from './backup.ts';

/**
 * Before a start applies migrations that may change or remove existing data (decision 041), writes
 * a backup of the database and its media as they are (`practicefolio-before-<last migration>-<UTC
 * time>.backup` in `setting.dir`) and returns its path; `null` when there is nothing to back up
 * (a new database, no pending migration, or only ones that keep every row) or backups before
 * migrations are off (then it says that the migrations run without one). A failed backup throws:
 * the migrations do not run, and the server does not start.
 */
export async function backUpBeforeMigrating(
  db: Db,
  setting: Config['backupBeforeMigrations'],
  objects: () => Promise<ObjectStore>,
  log: { info: (msg: string) => void },
): Promise<string | null> {
  const pending = await pendingMigrations(db);
  const changing = pending.filter((file) => changesExistingData(migrationSql(file)));
  if (changing.length === 0) return null;
  const names = changing.map((file) => file.replace(/\.sql$/, '')).join(', ');
  if (!setting) {
    log.info(`migrations that change existing data (${names}) run without a backup: BACKUP_BEFORE_MIGRATIONS=off`);
    return null;
  }
  const time = new Date().toISOString().replace(/[-:]/g, '');
  const last = pending.at(-1)!.replace(/_.*$/, '');
  const file = path.join(setting.dir, `practicefolio-before-${last}-${time}.backup`);
  log.info(`migrations that change existing data (${names}) are about to run: backing up first to ${file}`);
  let report;
  try {
    await mkdir(setting.dir, { recursive: true, mode: 0o700 });
    report = await writeBackup(db, await objects(), file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Could not back up before the migrations that change existing data (${names}), so they did not run: ${reason}. ` +
        'Make room in the backup folder (BACKUP_DIR, or DATA_DIR/backups) and start again, or start with ' +
        'BACKUP_BEFORE_MIGRATIONS=off to migrate without a backup.',
      { cause: error },
    );
  }
  log.info(
    `backup before migrating written: ${report.file} (${report.size} bytes, 0600; it holds password hashes: keep it offline)`,
  );
  return report.file;
}
