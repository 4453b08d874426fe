import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Services hold no SQL: every statement lives in a repository (`server/src/repositories`, the
// whole-installation reads in `repositories/reporting`), so that one layer owns the tables.

const SERVICES = path.dirname(fileURLToPath(import.meta.url));

/** What gives SQL away in code: a statement's opening words, a `sql` template, a call that runs a statement. */
const SQL_SIGNS: readonly RegExp[] = [
  /\bSELECT\s+[\w*(]/,
  /\bINSERT\s+INTO\b/,
  /\bUPDATE\s+\w+\s+SET\b/,
  /\bDELETE\s+FROM\b/,
  /\bWITH\s+\w+\s+AS\s*\(/,
  /\bsql`/,
  /\.query\s*(<[^>]*>)?\s*\(/,
  /\b(db|tx|client|pool)\.exec\s*\(/,
];

/** The code of a source file without its comments (which may explain a statement in words). */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
}

/** The lines of `source` that hold SQL, as `line: text`. */
function sqlLines(source: string): string[] {
  return codeOf(source)
    .split('\n')
    .flatMap((line, index) => (SQL_SIGNS.some((sign) => sign.test(line)) ? [`${index + 1}: ${line.trim()}`] : []));
}

/** Every production file under the services folder. */
function serviceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return serviceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('services hold no SQL', () => {
  it('finds statements, sql templates and query calls, but not words in comments or a RegExp exec', () => {
    expect(sqlLines("await tx.query('DELETE FROM pending_uploads WHERE storage_key = $1', [key]);")).toHaveLength(1);
    expect(sqlLines('const { rows } = await db.query<{ id: number }>(text, []);')).toHaveLength(1);
    expect(sqlLines('const q = `SELECT id FROM users`;')).toHaveLength(1);
    expect(sqlLines("const s = 'UPDATE artifacts SET saved = true';")).toHaveLength(1);
    expect(sqlLines('const s = sql`anything`;')).toHaveLength(1);
    expect(sqlLines('await db.exec(text);')).toHaveLength(1);
    expect(sqlLines('// each claims one job (`FOR UPDATE SKIP LOCKED`), SELECT id FROM x')).toEqual([]);
    expect(sqlLines('/** DELETE FROM x, db.query(...) */\nconst match = /^a(b)$/.exec(fileName);')).toEqual([]);
    expect(sqlLines("const url = 'https://example.org/select';")).toEqual([]);
  });

  it('in server/src/services', () => {
    const found = serviceFiles(SERVICES).flatMap((file) =>
      sqlLines(readFileSync(file, 'utf8')).map((line) => `${path.relative(SERVICES, file)}:${line}`),
    );
    expect(found).toEqual([]);
  });
});
