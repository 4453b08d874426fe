import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEmptyDb, createTestDb } from '../../test/helper.ts';
import { openPostgres } from './client.ts';
import { migrate, migrationFiles, pendingMigrations, splitStatements } from './migrate.ts';

describe('splitStatements', () => {
  it('splits at top-level semicolons and drops empty statements', () => {
    expect(splitStatements('CREATE TABLE a (id int);\n\n;  INSERT INTO a VALUES (1)  ;\nSELECT 1')).toEqual([
      'CREATE TABLE a (id int)',
      'INSERT INTO a VALUES (1)',
      'SELECT 1',
    ]);
    expect(splitStatements('  \n ; ; ')).toEqual([]);
  });

  it('keeps dollar-quoted bodies whole, with or without a tag', () => {
    const plain = `CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; SELECT 2 $$`;
    const tagged = `CREATE FUNCTION g() RETURNS int LANGUAGE plpgsql AS $body$
BEGIN
  PERFORM 1; -- a comment; inside
  RETURN $$not the end;$$::text = 'x';
END
$body$`;
    expect(splitStatements(`${plain};\n${tagged};\nSELECT 3;`)).toEqual([plain, tagged, 'SELECT 3']);
  });

  it('does not mistake parameters and identifiers with $ for dollar quotes', () => {
    expect(splitStatements('SELECT $1::int; SELECT a$b$c FROM t; SELECT 2')).toEqual([
      'SELECT $1::int',
      'SELECT a$b$c FROM t',
      'SELECT 2',
    ]);
  });

  it('keeps semicolons inside strings, escaped quotes and quoted identifiers', () => {
    expect(splitStatements(`INSERT INTO t VALUES ('a;b', 'it''s; fine');SELECT "odd;name" FROM t`)).toEqual([
      `INSERT INTO t VALUES ('a;b', 'it''s; fine')`,
      'SELECT "odd;name" FROM t',
    ]);
    expect(splitStatements(`SELECT E'back\\'slash; still' AS x; SELECT 'plain\\'; SELECT 2`)).toEqual([
      `SELECT E'back\\'slash; still' AS x`,
      `SELECT 'plain\\'`,
      'SELECT 2',
    ]);
  });

  it('drops line and block comments, semicolons and quotes in them included', () => {
    const sql = `-- a comment; with 'quote
CREATE TABLE a (id int); /* block; comment 'x' /* nested; */ still; */ CREATE TABLE b (id int);
SELECT '-- not a comment; here'; -- trailing`;
    const statements = splitStatements(sql);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toBe('CREATE TABLE a (id int)');
    expect(statements[1]).toBe('CREATE TABLE b (id int)');
    expect(statements[2]).toBe(`SELECT '-- not a comment; here'`);
  });

  it('splits the real migrations into statements that each start with a keyword', () => {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
    for (const file of migrationFiles()) {
      const statements = splitStatements(readFileSync(path.join(dir, file), 'utf8'));
      // The first migration creates the whole schema; later ones may be a single change.
      expect(statements.length).toBeGreaterThan(file.startsWith('0001_') ? 5 : 0);
      for (const statement of statements)
        expect(statement).toMatch(/^(CREATE|INSERT|ALTER|DROP|UPDATE|DELETE|COMMENT)\b/);
    }
  });
});

describe('migrate', async () => {
  const empty = await createEmptyDb();
  const current = await createTestDb();

  it('lists the migration files in order', () => {
    const files = migrationFiles();
    expect(files[0]).toBe('0001_init.sql');
    expect(files).toEqual(files.toSorted());
    for (const file of files) expect(file).toMatch(/^\d{4}_[a-z0-9_]+\.sql$/);
  });

  it('applies every migration to an empty database once; a second run applies nothing', async () => {
    expect(await migrate(empty)).toEqual(migrationFiles());
    expect(await migrate(empty)).toEqual([]);
    const { rows } = await empty.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(migrationFiles());
    const roles = await empty.query<{ id: number; type: string }>('SELECT id, type FROM roles ORDER BY id');
    expect(roles.rows).toEqual([
      { id: 1, type: 'authenticated' },
      { id: 3, type: 'plc_lead' },
      { id: 4, type: 'researcher' },
    ]);
  });

  it('applies nothing to a database that is up to date', async () => {
    expect(await migrate(current)).toEqual([]);
    expect(await pendingMigrations(current)).toEqual([]);
  });

  it('lists no pending migration for a new database, and those not applied for an older one', async () => {
    const fresh = await createEmptyDb();
    expect(await pendingMigrations(fresh)).toEqual([]);
    const files = migrationFiles();
    await migrate(fresh, { until: files.at(-3)! });
    expect(await pendingMigrations(fresh)).toEqual(files.slice(-2));
  });

  it('applies each migration once when several nodes start on one database at the same time', async () => {
    const shared = await createEmptyDb();
    const nodes = [0, 1, 2].map(() => openPostgres(shared.settings!(), { max: 2 }));
    try {
      const applied = await Promise.all(nodes.map((node) => migrate(node)));
      expect(applied.flat().toSorted()).toEqual(migrationFiles());
      const { rows } = await shared.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(rows[0]!.n).toBe(migrationFiles().length);
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
    }
  });
});
