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

/**
 * Applies every migration not applied yet (up to `until` included, when given: a restore first
 * brings the database to its backup's version), each in its own transaction, and returns their
 * names. Forward-only; a failing migration throws and leaves the database at the previous version.
 */
export async function migrate(db: Db, options: { until?: string } = {}): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const { rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((r) => r.version));
  const done: string[] = [];
  for (const file of migrationFiles()) {
    if (applied.has(file)) continue;
    if (options.until !== undefined && file > options.until) break;
    const sql = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    await db.transaction(async (tx) => {
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
    });
    done.push(file);
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
