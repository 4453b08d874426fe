import path from 'node:path';
import type { Config } from './config.ts';
import { openPglite, openPostgres, type Db } from './db/client.ts';
import { seedDemo } from './db/demo.ts';
import { seedDemoMedia } from './db/demoMedia.ts';
import { migrate } from './db/migrate.ts';
import { ensureTemplate, isEmpty } from './db/seed.ts';
import { pruneExpired } from './services/housekeeping.ts';

/** Opens the configured database, migrates it, adds the template, and demo data when asked and empty. */
export async function openDatabase(config: Config, log: { info: (msg: string) => void }): Promise<Db> {
  const db = config.databaseUrl
    ? openPostgres(config.databaseUrl)
    : await openPglite(path.join(config.dataDir, 'db'));
  try {
    const applied = await migrate(db);
    if (applied.length > 0) log.info(`database migrated: ${applied.join(', ')}`);
    await ensureTemplate(db);
    await pruneExpired(db);
    if (config.demoData && (await isEmpty(db))) {
      await seedDemo(db, config);
      await seedDemoMedia(db, config);
      log.info('demo data added');
    }
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
