import type { Queryable } from '../db/client.ts';
import type { Person } from '#schemas/sharedPortfolio';
import { iso } from './sql.ts';

/** An invitation row with the people it concerns. */
export interface InvitationRecord {
  id: number;
  sharedPortfolioId: number;
  to: Person;
  from: Person | null;
  /** The inviter typed the invitee's e-mail address (rather than picking a person). */
  byEmail: boolean;
  createdAt: string;
}

interface Row {
  id: number;
  shared_portfolio_id: number;
  to_id: number;
  to_username: string;
  to_email: string;
  from_id: number | null;
  from_username: string | null;
  from_email: string | null;
  by_email: boolean;
  created_at: Date;
}

const SELECT = `SELECT i.id, i.shared_portfolio_id, t.id AS to_id, t.username AS to_username, t.email AS to_email,
  f.id AS from_id, f.username AS from_username, f.email AS from_email, i.by_email, i.created_at
  FROM invitations i JOIN users t ON t.id = i.to_user_id LEFT JOIN users f ON f.id = i.from_user_id`;

function toRecord(r: Row): InvitationRecord {
  return {
    id: r.id,
    sharedPortfolioId: r.shared_portfolio_id,
    to: { id: r.to_id, username: r.to_username, email: r.to_email },
    from: r.from_id !== null ? { id: r.from_id, username: r.from_username!, email: r.from_email! } : null,
    byEmail: r.by_email,
    createdAt: iso(r.created_at),
  };
}

/** SQL for invitations to shared portfolios. */
export const invitationRepository = {
  /** One invitation, or `null`. */
  async findById(db: Queryable, id: number): Promise<InvitationRecord | null> {
    const { rows } = await db.query<Row>(`${SELECT} WHERE i.id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** The invitations addressed to a user, newest first. */
  async listFor(db: Queryable, userId: number): Promise<InvitationRecord[]> {
    const { rows } = await db.query<Row>(`${SELECT} WHERE i.to_user_id = $1 ORDER BY i.created_at DESC, i.id DESC`, [
      userId,
    ]);
    return rows.map(toRecord);
  },

  /** Creates an invitation; `null` when the person already has one to this shared portfolio. */
  async create(
    db: Queryable,
    input: { sharedPortfolioId: number; fromUserId: number; toUserId: number; byEmail: boolean },
  ): Promise<number | null> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO invitations (shared_portfolio_id, from_user_id, to_user_id, by_email) VALUES ($1, $2, $3, $4)
       ON CONFLICT (shared_portfolio_id, to_user_id) DO NOTHING RETURNING id`,
      [input.sharedPortfolioId, input.fromUserId, input.toUserId, input.byEmail],
    );
    return rows[0]?.id ?? null;
  },

  /** Deletes an invitation; returns whether it existed. */
  async delete(db: Queryable, id: number): Promise<boolean> {
    const { rows } = await db.query<{ id: number }>('DELETE FROM invitations WHERE id = $1 RETURNING id', [id]);
    return rows.length > 0;
  },
};
