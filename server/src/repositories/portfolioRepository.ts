import type { Queryable } from '../db/client.ts';
import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import type { PortfolioListItem } from '#schemas/portfolio';
import type { Structure } from '#schemas/structure';
import { iso, json } from './sql.ts';

/** A portfolio row as services use it (artifacts are loaded separately). */
export interface PortfolioRecord {
  id: number;
  name: string;
  ownerId: number | null;
  owner: { id: number; username: string; email: string } | null;
  ownerRoleId: number | null;
  grades: string[];
  subject: string | null;
  topic: string | null;
  structure: Structure;
  createdAt: string;
  updatedAt: string;
}

interface PortfolioRow {
  id: number;
  name: string;
  owner_id: number | null;
  owner_username: string | null;
  owner_email: string | null;
  owner_role_id: number | null;
  grades: string[];
  subject: string | null;
  topic: string | null;
  structure: Structure;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT p.id, p.name, p.owner_id, u.username AS owner_username, u.email AS owner_email, u.role_id AS owner_role_id,
  p.grades, p.subject, p.topic, p.structure, p.created_at, p.updated_at
  FROM portfolios p LEFT JOIN users u ON u.id = p.owner_id`;

function toRecord(row: PortfolioRow): PortfolioRecord {
  return {
    id: row.id,
    name: row.name,
    ownerId: row.owner_id,
    owner: row.owner_id !== null ? { id: row.owner_id, username: row.owner_username!, email: row.owner_email! } : null,
    ownerRoleId: row.owner_role_id,
    grades: row.grades,
    subject: row.subject,
    topic: row.topic,
    structure: row.structure,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The API form of a portfolio without its artifacts. */
export function portfolioFields(p: PortfolioRecord) {
  return {
    id: p.id,
    name: p.name,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    grades: p.grades,
    subject: p.subject,
    topic: p.topic,
    template: 'Basic' as const,
    owner: p.owner,
    structure: p.structure,
  };
}

/**
 * When a portfolio was last edited, as its lists show it: the latest of its own change and its
 * artifacts' (editing an artifact edits the portfolio that holds it). ISO 8601, like every time.
 */
export function lastEdited(updatedAt: string, artifacts: readonly { updated_at: string }[]): string {
  let latest = Date.parse(updatedAt);
  for (const a of artifacts) latest = Math.max(latest, Date.parse(a.updated_at));
  return new Date(latest).toISOString();
}

/** SQL for personal portfolios. */
export const portfolioRepository = {
  /** The portfolio with this id, or `null`. */
  async findById(db: Queryable, id: number): Promise<PortfolioRecord | null> {
    const { rows } = await db.query<PortfolioRow>(`${SELECT} WHERE p.id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /**
   * Portfolios with their artifacts in brief (two queries whatever the size): those of one owner,
   * or every portfolio but the template when `ownerId` is null. Each one's `updated_at` is when it
   * was last edited, its artifacts' edits included ({@link lastEdited}).
   */
  async list(db: Queryable, ownerId: number | null): Promise<PortfolioListItem[]> {
    const { rows } = await db.query<PortfolioRow>(
      `${SELECT} WHERE p.id <> $1 AND ($2::int IS NULL OR p.owner_id = $2) ORDER BY p.created_at DESC, p.id DESC`,
      [TEMPLATE_PORTFOLIO_ID, ownerId],
    );
    const ids = rows.map((r) => r.id);
    const { rows: artifacts } = ids.length
      ? await db.query<{ id: number; portfolio_id: number; parking_lot: boolean; created_at: Date; updated_at: Date }>(
          `SELECT id, portfolio_id, parking_lot, created_at, updated_at FROM artifacts WHERE portfolio_id = ANY($1::int[]) AND saved ORDER BY id`,
          [ids],
        )
      : { rows: [] };
    const byPortfolio = new Map<number, PortfolioListItem['artifacts']>();
    for (const a of artifacts) {
      let list = byPortfolio.get(a.portfolio_id);
      if (!list) byPortfolio.set(a.portfolio_id, (list = []));
      list.push({ id: a.id, parkingLot: a.parking_lot, created_at: iso(a.created_at), updated_at: iso(a.updated_at) });
    }
    return rows.map((r) => {
      const fields = portfolioFields(toRecord(r));
      const list = byPortfolio.get(r.id) ?? [];
      return { ...fields, updated_at: lastEdited(fields.updated_at, list), artifacts: list };
    });
  },

  /**
   * Creates a portfolio whose structure is copied from the template (portfolio 1), and returns its id.
   * @throws when the template is missing.
   */
  async createFromTemplate(
    db: Queryable,
    input: { ownerId: number; name: string; grades: readonly string[]; subject: string | null; topic: string | null },
  ): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO portfolios (owner_id, name, grades, subject, topic, structure)
       SELECT $1, $2, $3::jsonb, $4, $5, t.structure FROM portfolios t WHERE t.id = $6
       RETURNING id`,
      [input.ownerId, input.name, json(input.grades), input.subject, input.topic, TEMPLATE_PORTFOLIO_ID],
    );
    if (!rows[0]) throw new Error('Portfolio template not found.');
    return rows[0].id;
  },

  /** Changes the given fields. */
  async update(
    db: Queryable,
    id: number,
    patch: { name?: string; grades?: readonly string[]; subject?: string | null; topic?: string | null },
  ): Promise<void> {
    await db.query(
      `UPDATE portfolios SET
         name = CASE WHEN $2::boolean THEN $3 ELSE name END,
         grades = CASE WHEN $4::boolean THEN $5::jsonb ELSE grades END,
         subject = CASE WHEN $6::boolean THEN $7 ELSE subject END,
         topic = CASE WHEN $8::boolean THEN $9 ELSE topic END,
         updated_at = next_stamp(updated_at)
       WHERE id = $1`,
      [
        id,
        patch.name !== undefined,
        patch.name ?? null,
        patch.grades !== undefined,
        json(patch.grades ?? []),
        patch.subject !== undefined,
        patch.subject ?? null,
        patch.topic !== undefined,
        patch.topic ?? null,
      ],
    );
  },

  /**
   * Deletes the portfolio if it has no artifacts (checked in the same statement, so an artifact
   * created meanwhile keeps it alive). Returns whether it was deleted.
   */
  async deleteIfEmpty(db: Queryable, id: number): Promise<boolean> {
    const { rows } = await db.query<{ id: number }>(
      `DELETE FROM portfolios p WHERE p.id = $1 AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.portfolio_id = p.id) RETURNING p.id`,
      [id],
    );
    return rows.length > 0;
  },

  /** Locks the portfolio row for the rest of the transaction. */
  async lock(db: Queryable, id: number): Promise<void> {
    await db.query('SELECT id FROM portfolios WHERE id = $1 FOR UPDATE', [id]);
  },
};
