import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../test/helper.ts';
import { verifyBackup } from './backup/restore.ts';
import { openDatabase } from './database.ts';
import { openPostgres } from './db/client.ts';
import { startEmbedded } from './db/embedded.ts';
import { migrate, migrationFiles } from './db/migrate.ts';
import { pgliteAsDb } from './db/pgliteImport.ts';
import { ensureTemplate } from './db/seed.ts';

describe('openDatabase (embedded)', () => {
  // Made here, not inside the tests: their folders are removed after the file.
  const withDemo = testConfig({ demoData: true });
  const withoutDemo = testConfig({ demoData: false });
  const legacy = testConfig({ demoData: true });
  const older = testConfig({ demoData: false });

  it('migrates, adds the template and the demo data once; a restart keeps the data and applies nothing', async () => {
    const config = withDemo;
    const messages: string[] = [];
    const log = { info: (msg: string) => messages.push(msg) };

    const first = await openDatabase(config, log);
    try {
      const users = await first.query<{ email: string }>('SELECT email FROM users ORDER BY id');
      expect(users.rows.map((r) => r.email)).toEqual([
        'researcher@example.org',
        'lead@example.org',
        'teacher@example.org',
        'teacher2@example.org',
      ]);
      expect((await first.query('SELECT 1 FROM portfolios WHERE id = 1')).rows).toHaveLength(1);
    } finally {
      await first.close();
    }
    expect(messages).toEqual([`database migrated: ${migrationFiles().join(', ')}`, 'demo data added']);

    messages.length = 0;
    const second = await openDatabase(config, log);
    try {
      const { rows } = await second.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(rows[0]!.n).toBe(4);
    } finally {
      await second.close();
    }
    expect(messages).toEqual([]);
  });

  it('adds no demo data when DEMO_DATA is false', async () => {
    const db = await openDatabase(withoutDemo, { info: () => undefined });
    try {
      expect((await db.query('SELECT 1 FROM users')).rows).toEqual([]);
      expect((await db.query('SELECT 1 FROM portfolios WHERE id = 1')).rows).toHaveLength(1);
    } finally {
      await db.close();
    }
  });

  it('backs an older installation up before migrations that change its data, says where, then migrates', async () => {
    const config = { ...older, backupBeforeMigrations: { dir: path.join(older.dataDir, 'backups') } };
    // An installation of an earlier version (before 0013, which moves caption tracks), with an account.
    const earlier = await startEmbedded(path.join(config.dataDir, 'db'));
    const db = openPostgres(earlier.connection, { max: 1, onClose: () => earlier.stop() });
    await migrate(db, { until: '0011_auth_limits.sql' });
    await db.query(
      `INSERT INTO users (username, email, role_id) SELECT 'Ada', 'ada@example.org', id FROM roles WHERE type = 'authenticated'`,
    );
    await db.close();

    const messages: string[] = [];
    const opened = await openDatabase(config, { info: (msg) => messages.push(msg) });
    try {
      const { rows } = await opened.query<{ version: string }>('SELECT max(version) AS version FROM schema_migrations');
      expect(rows[0]!.version).toBe(migrationFiles().at(-1));
    } finally {
      await opened.close();
    }
    const backups = readdirSync(config.backupBeforeMigrations.dir);
    expect(backups).toEqual([expect.stringMatching(/^practicefolio-before-\d{4}-\d{8}T\d{6}\.\d{3}Z\.backup$/)]);
    const file = path.join(config.backupBeforeMigrations.dir, backups[0]!);
    expect(messages[0]).toBe(
      `migrations that change existing data (0013_caption_tracks_per_artifact, 0025_artifact_versions) are about to run: backing up first to ${file}`,
    );
    expect(messages[1]).toMatch(new RegExp(`^backup before migrating written: ${file} \\(\\d+ bytes, 0600;`));
    expect(messages[2]).toMatch(/^database migrated: 0013_caption_tracks_per_artifact\.sql, /);
    const manifest = await verifyBackup(file);
    expect(manifest.schemaVersion).toBe('0011_auth_limits.sql');
    expect(manifest.tables.find((t) => t.name === 'users')!.rows).toBe(1);
  });

  it('copies the data of an earlier version (PGlite in DATA_DIR/db) into the new server once, and keeps the old folder', async () => {
    // An earlier version's folder: PGlite, with the template, one account and its portfolio.
    const oldDir = path.join(legacy.dataDir, 'db');
    mkdirSync(path.dirname(oldDir), { recursive: true });
    const old = await PGlite.create({ dataDir: oldDir });
    const oldDb = pgliteAsDb(old);
    await migrate(oldDb);
    await ensureTemplate(oldDb);
    const ada = (
      await old.query<{ id: number }>(
        `INSERT INTO users (username, email, password_hash, role_id) VALUES ('ada', 'ada@school.example', 'x', 3) RETURNING id`,
      )
    ).rows[0]!.id;
    await old.query(`INSERT INTO portfolios (owner_id, name, structure) VALUES ($1, 'Ada''s work', '[]')`, [ada]);
    await old.close();

    const messages: string[] = [];
    const db = await openDatabase(legacy, { info: (m) => messages.push(m) });
    try {
      expect((await db.query('SELECT email FROM users')).rows).toEqual([{ email: 'ada@school.example' }]);
      expect((await db.query('SELECT name, owner_id FROM portfolios WHERE owner_id = $1', [ada])).rows).toEqual([
        { name: "Ada's work", owner_id: ada },
      ]);
      expect((await db.query('SELECT 1 FROM portfolios WHERE id = 1')).rows).toHaveLength(1);
      // New rows continue after the copied ids; no demo data lands on top of a copied installation.
      const next = await db.query<{ id: number }>(
        `INSERT INTO users (username, email, password_hash, role_id) VALUES ('bo', 'bo@school.example', 'x', 3) RETURNING id`,
      );
      expect(next.rows[0]!.id).toBeGreaterThan(ada);
    } finally {
      await db.close();
    }
    expect(messages.some((m) => /^copied \d+ rows of \d+ tables from the earlier embedded database/.test(m))).toBe(
      true,
    );
    expect(existsSync(path.join(legacy.dataDir, 'db-pglite', 'PG_VERSION'))).toBe(true);

    // The next start copies nothing again.
    messages.length = 0;
    const again = await openDatabase(legacy, { info: (m) => messages.push(m) });
    try {
      expect((await again.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0]!.n).toBe(2);
    } finally {
      await again.close();
    }
    expect(messages).toEqual([]);
  }, 120_000); // PGlite (WASM) takes seconds to start, and much longer on a loaded machine
});
