import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Db } from './client.ts';
import { migrate } from './migrate.ts';

/**
 * Earlier versions kept the embedded database in PGlite's files directly in `DATA_DIR/db`. On the
 * first start of this version they are moved aside to `DATA_DIR/db-pglite`, read with PGlite once,
 * and copied into the new PostgreSQL server, table by table, in one transaction. The old folder
 * is kept (the log says it can be deleted); a marker in it records that the copy is done.
 */

const MARKER = 'COPIED-TO-POSTGRESQL';

/** Moves an old PGlite folder out of the way of the new server; returns its new path, or null. */
export function setAsideLegacy(dataDir: string): string | null {
  const current = path.join(dataDir, 'db');
  const legacy = path.join(dataDir, 'db-pglite');
  if (existsSync(path.join(current, 'PG_VERSION'))) renameSync(current, legacy);
  if (!existsSync(path.join(legacy, 'PG_VERSION')) || existsSync(path.join(legacy, MARKER))) return null;
  return legacy;
}

/** Copies every row of the PGlite database in `legacyDir` into `db` (migrated, empty), then marks the folder as copied. */
export async function copyLegacy(legacyDir: string, db: Db, log: { info: (msg: string) => void }): Promise<void> {
  const users = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if ((users.rows[0]?.n ?? 0) > 0) {
    // Copied before, and the marker was not written: nothing to do twice.
    writeFileSync(path.join(legacyDir, MARKER), new Date().toISOString());
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const old = await PGlite.create({ dataDir: legacyDir });
  try {
    // The old copy is brought to this version's schema first, so both sides have the same tables.
    await migrate(pgliteAsDb(old));
    const tables = (
      await old.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY tablename`,
      )
    ).rows.map((r) => r.name);
    let rows = 0;
    await db.transaction(async (tx) => {
      // Rows arrive in table order, not in the order of their foreign keys: checked at commit.
      await tx.query('SET CONSTRAINTS ALL DEFERRED');
      await tx.query(`SET LOCAL session_replication_role = replica`);
      for (const table of tables) {
        await tx.query(`DELETE FROM "${table}"`);
        // Generated columns are computed again by the new server (they cannot be inserted).
        const { rows: names } = await tx.query<{ name: string }>(
          `SELECT attname AS name FROM pg_attribute
            WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
          [`"${table}"`],
        );
        const columns = names.map((c) => `"${c.name}"`).join(', ');
        for (let offset = 0; ; offset += 2000) {
          const chunk = await old.query<{ rows: string | null; n: number }>(
            `SELECT json_agg(t)::text AS rows, count(*)::int AS n FROM (SELECT * FROM "${table}" ORDER BY 1 LIMIT 2000 OFFSET ${offset}) t`,
          );
          const { rows: json, n } = chunk.rows[0]!;
          if (!json || n === 0) break;
          await tx.query(
            `INSERT INTO "${table}" (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::"${table}", $1::json)`,
            [json],
          );
          rows += n;
          if (n < 2000) break;
        }
      }
      // Sequences continue after the copied ids.
      const serials = await tx.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND (column_default LIKE 'nextval(%' OR is_identity = 'YES')`,
      );
      for (const s of serials.rows) {
        await tx.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT max("${s.column_name}") FROM "${s.table_name}"), 1), (SELECT count(*) > 0 FROM "${s.table_name}"))`,
          [`"${s.table_name}"`, s.column_name],
        );
      }
    });
    writeFileSync(path.join(legacyDir, MARKER), new Date().toISOString());
    log.info(
      `copied ${rows} rows of ${tables.length} tables from the earlier embedded database; its folder ${legacyDir} can be deleted`,
    );
  } finally {
    await old.close();
  }
}

/** An open PGlite database behind the `Db` interface (closing it is the caller's). */
export function pgliteAsDb(pglite: PGlite): Db {
  return {
    query: async (sql, params) => ({ rows: (await pglite.query(sql, params as unknown[])).rows as never[] }),
    exec: async (sql) => void (await pglite.exec(sql)),
    transaction: (fn) =>
      pglite.transaction((tx) =>
        fn({ query: async (sql, params) => ({ rows: (await tx.query(sql, params as unknown[])).rows as never[] }) }),
      ),
    close: async () => undefined,
  };
}
