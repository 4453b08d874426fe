import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The migration files in order (`NNNN_name.sql`). */
export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}

/** The contents of one migration file. */
export function migrationSql(file: string): string {
  return readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
}

/**
 * The migrations not applied to `db` yet, in order; none for a database without the migrations'
 * table (a new one: nothing in it to change).
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ known: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS known`);
  if (!rows[0]!.known) return [];
  const applied = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
  const done = new Set(applied.rows.map((r) => r.version));
  return migrationFiles().filter((file) => !done.has(file));
}

/**
 * Nodes of one installation starting together take turns (an advisory lock per schema until each
 * transaction's end): each migration is applied by one of them, the others find it applied.
 */
const TAKE_TURN = `SELECT pg_advisory_xact_lock(hashtext('practicefolio-migrations:' || current_schema()))`;

/**
 * Applies every migration not applied yet (up to `until` included, when given: a restore first
 * brings the database to its backup's version), each in its own transaction, and returns their
 * names. Forward-only; a failing migration throws and leaves the database at the previous version.
 */
export async function migrate(db: Db, options: { until?: string } = {}): Promise<string[]> {
  // PGlite (an import of old data) is one connection: no one to take turns with.
  const turn = db.settings ? TAKE_TURN : null;
  // Two nodes' CREATE … IF NOT EXISTS at once can still collide: they take turns for it too.
  await db.transaction(async (tx) => {
    if (turn) await tx.query(turn);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const { rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
  const known = new Set(rows.map((r) => r.version));
  const done: string[] = [];
  for (const file of migrationFiles()) {
    if (known.has(file)) continue;
    if (options.until !== undefined && file > options.until) break;
    const applied = await db.transaction(async (tx) => {
      if (turn) await tx.query(turn);
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [file]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(migrationSql(file))) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
      return true;
    });
    if (applied) done.push(file);
  }
  return done;
}

/**
 * Splits a migration into statements at top-level semicolons (extended-protocol queries take one
 * statement each). Semicolons inside dollar-quoted bodies (`$$ … $$`, `$tag$ … $tag$`), string
 * literals (`'…'`, `E'…'` with backslash escapes), quoted identifiers (`"…"`) and comments
 * (`-- …`, nested `/* … *\/`) do not split; comments are dropped.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  const flush = () => {
    if (current.trim()) statements.push(current.trim());
    current = '';
  };
  while (i < sql.length) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      current += '\n';
      continue;
    }
    if (ch === '/' && next === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < sql.length && depth > 0) {
        if (sql[j] === '/' && sql[j + 1] === '*') {
          depth += 1;
          j += 2;
        } else if (sql[j] === '*' && sql[j + 1] === '/') {
          depth -= 1;
          j += 2;
        } else {
          j += 1;
        }
      }
      i = j;
      current += ' ';
      continue;
    }
    if (ch === '$') {
      // A dollar quote opens with $tag$ where the tag is empty or an identifier not starting
      // with a digit ($1 is a parameter, and a $ inside an identifier is part of its name).
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i))?.[0];
      const inIdentifier = i > 0 && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[i - 1]!);
      if (tag && !inIdentifier) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        current += sql.slice(i, stop);
        i = stop;
        continue;
      }
    }
    if (ch === "'" || ch === '"') {
      const backslashEscapes =
        ch === "'" && i > 0 && /[eE]/.test(sql[i - 1]!) && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? '');
      let j = i + 1;
      while (j < sql.length) {
        if (backslashEscapes && sql[j] === '\\') j += 2;
        else if (sql[j] === ch && sql[j + 1] === ch) j += 2;
        else if (sql[j] === ch) break;
        else j += 1;
      }
      current += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === ';') {
      flush();
      i += 1;
      continue;
    }
    current += ch;
    i += 1;
  }
  flush();
  return statements;
}
