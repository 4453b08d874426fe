import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import type { ResearchExportFilters, ResearchExportRecord, ResearchExportStatus } from '#schemas/researchExport';
import { ROLE_IDS } from '#schemas/user';
import { iso, json } from './sql.ts';

// The research exports' audit log, the pseudonym key and the checks of the filters; the package's
// rows are read by the reporting read model (`reporting/researchRows.ts`).

/** The name of the secret that keys research pseudonyms. */
const PSEUDONYM_SECRET = 'research_pseudonyms';

/** The installation's pseudonym key, made (32 random bytes) by the first caller. */
export async function pseudonymSecret(db: Queryable): Promise<Buffer> {
  await db.query('INSERT INTO installation_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    PSEUDONYM_SECRET,
    randomBytes(32),
  ]);
  const { rows } = await db.query<{ value: Buffer }>('SELECT value FROM installation_secrets WHERE name = $1', [
    PSEUDONYM_SECRET,
  ]);
  return rows[0]!.value;
}

/** Which of `ids` are not accounts of teachers or PLC leads. */
export async function notTeachers(db: Queryable, ids: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT x.id FROM unnest($1::int[]) AS x(id) LEFT JOIN users u ON u.id = x.id AND u.role_id IN ($2, $3) WHERE u.id IS NULL ORDER BY x.id`,
    [ids, ROLE_IDS.teacher, ROLE_IDS.plcLead],
  );
  return rows.map((r) => r.id);
}

/** Which of `ids` are not shared portfolios. */
export async function missingSharedPortfolios(db: Queryable, ids: readonly number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT x.id FROM unnest($1::int[]) AS x(id) LEFT JOIN shared_portfolios sp ON sp.id = x.id WHERE sp.id IS NULL ORDER BY x.id',
    [ids],
  );
  return rows.map((r) => r.id);
}

/** Records an export as it starts; returns its id. */
export async function insertExport(
  db: Queryable,
  researcherId: number,
  parameters: ResearchExportFilters,
): Promise<{ id: number; startedAt: Date }> {
  const { rows } = await db.query<{ id: number; started_at: Date }>(
    'INSERT INTO research_exports (researcher_id, parameters) VALUES ($1, $2::jsonb) RETURNING id, started_at',
    [researcherId, json(parameters)],
  );
  return { id: rows[0]!.id, startedAt: rows[0]!.started_at };
}

/** Records how an export ended. */
export async function finishExport(
  db: Queryable,
  id: number,
  outcome: {
    status: Exclude<ResearchExportStatus, 'running'>;
    rowCounts: Record<string, number>;
    bytes: number | null;
  },
): Promise<void> {
  await db.query(
    `UPDATE research_exports SET status = $2, row_counts = $3::jsonb, bytes = $4, finished_at = ms_now() WHERE id = $1 AND status = 'running'`,
    [id, outcome.status, json(outcome.rowCounts), outcome.bytes],
  );
}

/** The audit log, latest first. */
export async function listExports(db: Queryable, limit: number): Promise<ResearchExportRecord[]> {
  const { rows } = await db.query<{
    id: number;
    researcher_id: number;
    username: string;
    parameters: ResearchExportFilters;
    status: ResearchExportStatus;
    row_counts: Record<string, number>;
    bytes: number | null;
    started_at: Date;
    finished_at: Date | null;
  }>(
    `SELECT e.id, e.researcher_id, u.username, e.parameters, e.status, e.row_counts, e.bytes, e.started_at, e.finished_at
     FROM research_exports e JOIN users u ON u.id = e.researcher_id ORDER BY e.started_at DESC, e.id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    researcher: { id: r.researcher_id, username: r.username },
    parameters: r.parameters,
    status: r.status,
    rowCounts: r.row_counts,
    bytes: r.bytes,
    started_at: iso(r.started_at),
    finished_at: r.finished_at ? iso(r.finished_at) : null,
  }));
}
