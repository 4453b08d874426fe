import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { wrapPglite } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { ensureTemplate } from '../src/db/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
  }
}

/** Migrates one embedded database and dumps it, so every test file starts from a copy (~0.7 s, not ~4 s). */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-test-'));
  const file = path.join(dir, 'migrated.tar');
  const pg = await PGlite.create();
  const db = wrapPglite(pg);
  await migrate(db);
  await ensureTemplate(db);
  const dump = await pg.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  project.provide('pgliteDump', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
