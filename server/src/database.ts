import path from 'node:path';
import type { Config } from './config.ts';
import { openPostgres, type Db } from './db/client.ts';
import { seedDemo } from './db/demo.ts';
import { drawDemoMedia, linkDemoMedia } from './db/demoMedia.ts';
import { startEmbedded } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import { backUpBeforeMigrating } from './backup/beforeMigrations.ts';
import { objectStoreOf } from './media/objectStore.ts';
import { copyLegacy, setAsideLegacy } from './db/pgliteImport.ts';
import { ensureTemplate, isEmpty } from './db/seed.ts';
import { pruneExpired } from './services/housekeeping.ts';
import { versionRepository } from './repositories/versionRepository.ts';

/**
 * Opens the configured database (the PostgreSQL server of `DATABASE_URL`, or the embedded one
 * started in `DATA_DIR/db`), backs it up when migrations that change existing data are to run
 * (`BACKUP_BEFORE_MIGRATIONS`), migrates it, adds the template, and demo data when asked and empty.
 * Closing the returned database stops the embedded server. `whileStarting` is called once the
 * database server is on its way, for start-up work that can overlap with its start;
 * `onServerReady` once it accepts connections (before the migrations check).
 */
export async function openDatabase(
  config: Config,
  log: { info: (msg: string) => void },
  options: { whileStarting?: () => void; onServerReady?: () => void } = {},
): Promise<Db> {
  let db: Db;
  let legacy: string | null = null;
  let started = false;
  const onSpawn = () => {
    if (started) return;
    started = true;
    options.whileStarting?.();
  };
  if (config.databaseUrl) {
    db = openPostgres(config.databaseUrl);
    onSpawn();
  } else {
    legacy = setAsideLegacy(config.dataDir);
    const server = await startEmbedded(path.join(config.dataDir, 'db'), { onSpawn });
    db = openPostgres(server.connection, { onClose: () => server.stop() });
  }
  options.onServerReady?.();
  try {
    await backUpBeforeMigrating(db, config.backupBeforeMigrations, () => objectStoreOf(config), log);
    const applied = await migrate(db);
    if (applied.length > 0) log.info(`database migrated: ${applied.join(', ')}`);
    if (legacy) await copyLegacy(legacy, db, log);
    await ensureTemplate(db);
    await pruneExpired(db);
    if (config.demoData && (await isEmpty(db))) {
      // The illustrations are drawn (on libvips' threads) while the rows go in.
      const [, media] = await Promise.all([seedDemo(db), drawDemoMedia(db, config)]);
      await linkDemoMedia(db, media);
      await versionRepository.startHistories(db);
      log.info('demo data added');
    }
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
