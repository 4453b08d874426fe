import type pg from 'pg';

/** The version of the backup file's layout this code writes and reads. */
export const BACKUP_FORMAT = 1;

/** The last entry of a backup file: what the parts before it are. */
export const MANIFEST_NAME = 'manifest.json';

/** The part holding one table's rows (`COPY` text format). */
export const tablePart = (table: string) => `tables/${table}.copy`;

/** The part holding one stored media file. */
export const mediaPart = (name: string) => `media/${name}`;

/**
 * Tables of the product's schema that are not backed up: `schema_migrations` (the restore runs
 * the migrations, up to the manifest's schema version), `rate_limit_counters` (request counts of
 * the current minute, unlogged), `pending_uploads` (keys of files being written or released for
 * deletion: files a backup does not hold) and `archive_jobs` (teachers' archives: copies of their
 * own work that expire, whose files are not in the backup and whose building jobs are not either)
 * and the counts kept by triggers, `score_level_counts` and `portfolio_tag_counts` (decision 062: a
 * restore inserts the scores and the artifacts, and the triggers count them again).
 */
export const EXCLUDED_TABLES: ReadonlySet<string> = new Set([
  'schema_migrations',
  'rate_limit_counters',
  'pending_uploads',
  'archive_jobs',
  'score_level_counts',
  'portfolio_tag_counts',
]);

/** One table of a backup. */
export interface BackupTable {
  name: string;
  /** Its columns, in the order of the part's rows. */
  columns: string[];
  rows: number;
  part: string;
}

/** One part of a backup: an entry of the file before the manifest. */
export interface BackupPart {
  name: string;
  size: number;
  sha256: string;
  /** A media file's content type. */
  type?: string;
}

/** What a backup file holds, written last into it. */
export interface BackupManifest {
  format: number;
  /** The last migration applied to the database copied. */
  schemaVersion: string;
  /** The time of the snapshot (ISO 8601, UTC). */
  createdAt: string;
  /** In the order they are loaded (a table after those it references). */
  tables: BackupTable[];
  media: {
    files: number;
    /** Files the snapshot's media rows name that were not in the store when it was copied. */
    missing: string[];
  };
  parts: BackupPart[];
}

/** A table or column name as the product's migrations spell them (anything else is refused). */
export function identifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a table or column name: ${name}`);
  return `"${name}"`;
}

/** Settings that make `COPY`'s text the same whatever the server's or the session's defaults. */
export const COPY_SETTINGS = [
  "SET LOCAL TimeZone = 'UTC'",
  "SET LOCAL DateStyle = 'ISO, YMD'",
  "SET LOCAL IntervalStyle = 'postgres'",
  'SET LOCAL extra_float_digits = 3',
  "SET LOCAL bytea_output = 'hex'",
  "SET LOCAL client_encoding = 'UTF8'",
];

/**
 * The tables of the current schema other than `EXCLUDED_TABLES`, each after the tables it
 * references (a reference to itself aside), ties by name.
 * @throws when references go round in a circle (no order loads them).
 */
export async function tablesInLoadOrder(client: pg.ClientBase): Promise<string[]> {
  const tables = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  const names = tables.rows.map((r) => r.name).filter((name) => !EXCLUDED_TABLES.has(name));
  const references = await client.query<{ child: string; parent: string }>(
    `SELECT r.relname AS child, p.relname AS parent FROM pg_constraint c
     JOIN pg_class r ON r.oid = c.conrelid JOIN pg_class p ON p.oid = c.confrelid
     JOIN pg_namespace n ON n.oid = r.relnamespace
     WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const needs = new Map(names.map((name) => [name, new Set<string>()]));
  for (const { child, parent } of references.rows)
    if (child !== parent && needs.has(parent)) needs.get(child)?.add(parent);
  const order: string[] = [];
  while (needs.size > 0) {
    const ready = [...needs].find(([, parents]) => [...parents].every((p) => !needs.has(p)))?.[0];
    if (!ready) throw new Error(`The tables ${[...needs.keys()].join(', ')} reference each other in a circle.`);
    order.push(ready);
    needs.delete(ready);
  }
  return order;
}

/** The columns of a table that hold data (not generated), in their order. */
export async function columnsOf(client: pg.ClientBase, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_attribute a
     WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY a.attnum`,
    [identifier(table)],
  );
  return rows.map((r) => r.name);
}
