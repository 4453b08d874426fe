import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../src/db/client.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { ensureTemplate } from '../src/db/seed.ts';

/** The database server of this test run: the one of `TEST_DATABASE_URL`, or one embedded server. */
export type TestDatabase =
  { kind: 'external'; url: string } | { kind: 'embedded'; connection: pg.ClientConfig; template: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabase;
  }
}

export const TEMPLATE_DATABASE = 'pf_migrated';

/**
 * One database server for the whole run. With `TEST_DATABASE_URL` each test file gets its own
 * schema there; otherwise an embedded PostgreSQL server starts once, a database is migrated once,
 * and each test file gets a copy of it (`CREATE DATABASE … TEMPLATE`).
 */
export default async function setup(project: TestProject) {
  const url = process.env['TEST_DATABASE_URL'];
  if (url) {
    project.provide('testDatabase', { kind: 'external', url });
    return () => undefined;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-test-db-'));
  const server = await startEmbedded(dir);
  const admin = openPostgres({ ...server.connection, database: 'postgres' }, { max: 1 });
  await admin.exec(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.close();
  const migrated = openPostgres({ ...server.connection, database: TEMPLATE_DATABASE }, { max: 1 });
  await migrate(migrated);
  await ensureTemplate(migrated);
  await migrated.close();
  project.provide('testDatabase', { kind: 'embedded', connection: server.connection, template: TEMPLATE_DATABASE });
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
