import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import type { Db, Queryable } from './client.ts';
import { BASIC_TEMPLATE } from './template.ts';
import { json } from '../repositories/sql.ts';

/**
 * Makes sure the Basic template exists as portfolio 1 (every database needs it: new portfolios
 * copy its structure). Idempotent.
 */
export async function ensureTemplate(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>('SELECT id FROM portfolios WHERE id = $1', [TEMPLATE_PORTFOLIO_ID]);
    if (rows.length > 0) return;
    await tx.query(
      `INSERT INTO portfolios (id, owner_id, name, structure, grades, template) VALUES ($1, NULL, 'Basic', $2::jsonb, '[]', 'Basic')`,
      [TEMPLATE_PORTFOLIO_ID, json(BASIC_TEMPLATE)],
    );
    await resyncIdentity(tx, 'portfolios');
  });
}

/** Moves a table's id generator past its largest id (after rows were inserted with explicit ids). */
export async function resyncIdentity(tx: Queryable, table: string): Promise<void> {
  await tx.query(
    `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT greatest(max(id), 1) FROM ${table}))`,
  );
}

/** Whether the database holds no accounts yet. */
export async function isEmpty(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return rows[0]!.n === 0;
}
