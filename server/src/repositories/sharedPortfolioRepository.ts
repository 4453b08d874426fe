import type { Queryable } from '../db/client.ts';
import type { Person, SharedPortfolioListItem } from '#schemas/sharedPortfolio';
import type { Structure } from '#schemas/structure';
import { iso, json } from './sql.ts';
import { maskEmail } from '../security/maskEmail.ts';
import { access } from './access.ts';

/** A shared portfolio row with its members (what policies need). */
export interface SharedPortfolioRecord {
  id: number;
  name: string;
  ownerId: number;
  owner: Person;
  memberIds: number[];
  grades: string[];
  subject: string | null;
  topic: string | null;
  plcName: string | null;
  plcGoals: string | null;
  structure: Structure;
  templateStructure: Structure;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: number;
  name: string;
  owner_id: number;
  owner_username: string;
  owner_email: string;
  grades: string[];
  subject: string | null;
  topic: string | null;
  plc_name: string | null;
  plc_goals: string | null;
  structure: Structure;
  template_structure: Structure;
  created_at: Date;
  updated_at: Date;
  member_ids: number[] | null;
}

const SELECT = `SELECT sp.id, sp.name, sp.owner_id, o.username AS owner_username, o.email AS owner_email,
  sp.grades, sp.subject, sp.topic, sp.plc_name, sp.plc_goals, sp.structure, sp.template_structure, sp.created_at, sp.updated_at,
  (SELECT array_agg(m.user_id ORDER BY m.joined_at, m.user_id) FROM shared_portfolio_members m WHERE m.shared_portfolio_id = sp.id) AS member_ids
  FROM shared_portfolios sp JOIN users o ON o.id = sp.owner_id`;

function toRecord(r: Row): SharedPortfolioRecord {
  return {
    id: r.id,
    name: r.name,
    ownerId: r.owner_id,
    owner: { id: r.owner_id, username: r.owner_username, email: r.owner_email },
    memberIds: r.member_ids ?? [],
    grades: r.grades,
    subject: r.subject,
    topic: r.topic,
    plcName: r.plc_name,
    plcGoals: r.plc_goals,
    structure: r.structure,
    templateStructure: r.template_structure,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** The editable fields of a shared portfolio. */
export interface SharedPortfolioInput {
  name: string;
  grades: readonly string[];
  subject: string | null;
  topic: string | null;
  plcName: string | null;
  plcGoals: string | null;
  structure: Structure;
}

/** SQL for shared portfolios and their membership. */
export const sharedPortfolioRepository = {
  /** One shared portfolio with its member ids, or `null`. */
  async findById(db: Queryable, id: number): Promise<SharedPortfolioRecord | null> {
    const { rows } = await db.query<Row>(`${SELECT} WHERE sp.id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** Whether the user has a pending invitation to the shared portfolio. */
  async isInvitee(db: Queryable, id: number, userId: number): Promise<boolean> {
    const { rows } = await db.query('SELECT 1 FROM invitations WHERE shared_portfolio_id = $1 AND to_user_id = $2', [
      id,
      userId,
    ]);
    return rows.length > 0;
  },

  /**
   * Shared portfolios in list form (members, artifacts in brief, comment counts) — those the
   * user is a member of, or all when `memberId` is null. Four queries whatever the size.
   */
  async list(
    db: Queryable,
    filter: { memberId: number | null; ids?: readonly number[] },
  ): Promise<SharedPortfolioListItem[]> {
    const { rows } = await db.query<Row>(
      `${SELECT} WHERE ${access.memberFilter('sp.id', '$1')}
         AND ($2::int[] IS NULL OR sp.id = ANY($2::int[]))
       ORDER BY sp.created_at DESC, sp.id DESC`,
      [filter.memberId, filter.ids ?? null],
    );
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return [];
    const [people, artifacts, comments] = await Promise.all([
      sharedPortfolioRepository.peopleOf(db, ids),
      db.query<{ id: number; shared_portfolio_id: number; owner_id: number; created_at: Date; updated_at: Date }>(
        `SELECT id, shared_portfolio_id, owner_id, created_at, updated_at FROM shared_artifacts WHERE shared_portfolio_id = ANY($1::int[]) ORDER BY id`,
        [ids],
      ),
      db.query<{ shared_portfolio_id: number; n: number }>(
        `SELECT sa.shared_portfolio_id, count(c.id)::int AS n FROM shared_artifacts sa JOIN comments c ON c.shared_artifact_id = sa.id
         WHERE sa.shared_portfolio_id = ANY($1::int[]) GROUP BY sa.shared_portfolio_id`,
        [ids],
      ),
    ]);
    const artifactsBy = new Map<number, SharedPortfolioListItem['sharedArtifacts']>();
    for (const a of artifacts.rows) {
      let list = artifactsBy.get(a.shared_portfolio_id);
      if (!list) artifactsBy.set(a.shared_portfolio_id, (list = []));
      list.push({ id: a.id, owner: { id: a.owner_id }, created_at: iso(a.created_at), updated_at: iso(a.updated_at) });
    }
    const commentsBy = new Map(comments.rows.map((c) => [c.shared_portfolio_id, c.n]));
    return rows.map((r) => {
      const rec = toRecord(r);
      return {
        ...sharedPortfolioFields(rec, people),
        sharedArtifacts: artifactsBy.get(r.id) ?? [],
        commentCount: commentsBy.get(r.id) ?? 0,
      };
    });
  },

  /** Usernames and e-mails of the members of these shared portfolios. */
  async peopleOf(db: Queryable, ids: readonly number[]): Promise<Map<number, Person>> {
    const { rows } = await db.query<Person>(
      `SELECT DISTINCT u.id, u.username, u.email FROM shared_portfolio_members m JOIN users u ON u.id = m.user_id
       WHERE m.shared_portfolio_id = ANY($1::int[])`,
      [ids],
    );
    return new Map(rows.map((p) => [p.id, p]));
  },

  /** Creates a shared portfolio owned by (and with the single member) `ownerId`; returns its id. */
  async create(
    db: Queryable,
    ownerId: number,
    input: SharedPortfolioInput,
    templateStructure: Structure,
  ): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO shared_portfolios (owner_id, name, grades, subject, topic, plc_name, plc_goals, structure, template_structure)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8::jsonb, $9::jsonb) RETURNING id`,
      [
        ownerId,
        input.name,
        json(input.grades),
        input.subject,
        input.topic,
        input.plcName,
        input.plcGoals,
        json(input.structure),
        json(templateStructure),
      ],
    );
    const id = rows[0]!.id;
    await db.query('INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)', [
      id,
      ownerId,
    ]);
    return id;
  },

  /** Replaces the editable fields (existing shared artifacts keep their own questions). */
  async update(db: Queryable, id: number, input: SharedPortfolioInput): Promise<void> {
    await db.query(
      `UPDATE shared_portfolios SET name = $2, grades = $3::jsonb, subject = $4, topic = $5, plc_name = $6, plc_goals = $7,
         structure = $8::jsonb, updated_at = next_stamp(updated_at) WHERE id = $1`,
      [
        id,
        input.name,
        json(input.grades),
        input.subject,
        input.topic,
        input.plcName,
        input.plcGoals,
        json(input.structure),
      ],
    );
  },

  /** Deletes the shared portfolio if it has no shared artifacts (its invitations and memberships go with it). */
  async deleteIfEmpty(db: Queryable, id: number): Promise<boolean> {
    const { rows } = await db.query<{ id: number }>(
      `DELETE FROM shared_portfolios sp WHERE sp.id = $1 AND NOT EXISTS (SELECT 1 FROM shared_artifacts a WHERE a.shared_portfolio_id = sp.id) RETURNING sp.id`,
      [id],
    );
    return rows.length > 0;
  },

  /** Adds a member (no-op when already one). */
  async addMember(db: Queryable, id: number, userId: number): Promise<void> {
    await db.query(
      'INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [id, userId],
    );
  },

  /** Removes a member; returns whether they were one. */
  async removeMember(db: Queryable, id: number, userId: number): Promise<boolean> {
    const { rows } = await db.query<{ user_id: number }>(
      'DELETE FROM shared_portfolio_members WHERE shared_portfolio_id = $1 AND user_id = $2 RETURNING user_id',
      [id, userId],
    );
    return rows.length > 0;
  },

  /** Hands the shared portfolio to another owner. */
  async setOwner(db: Queryable, id: number, ownerId: number): Promise<void> {
    await db.query('UPDATE shared_portfolios SET owner_id = $2, updated_at = next_stamp(updated_at) WHERE id = $1', [
      id,
      ownerId,
    ]);
  },

  /** Members (without the owner), pending invitees, and — for a search text — active people to invite. */
  async membership(db: Queryable, id: number, ownerId: number, search: string | null) {
    const { rows: members } = await db.query<Person>(
      `SELECT u.id, u.username, u.email FROM shared_portfolio_members m JOIN users u ON u.id = m.user_id
       WHERE m.shared_portfolio_id = $1 AND u.id <> $2 ORDER BY lower(u.username), u.id`,
      [id, ownerId],
    );
    const { rows: pending } = await db.query<Person & { invitation_id: number; by_email: boolean }>(
      `SELECT u.id, u.username, u.email, i.id AS invitation_id, i.by_email FROM invitations i JOIN users u ON u.id = i.to_user_id
       WHERE i.shared_portfolio_id = $1 ORDER BY lower(u.username), u.id`,
      [id],
    );
    let nonMembers: Person[] = [];
    if (search !== null) {
      const { rows } = await db.query<Person>(
        `SELECT u.id, u.username, u.email FROM users u
         WHERE NOT u.blocked AND u.id <> $2
           AND NOT EXISTS (SELECT 1 FROM shared_portfolio_members m WHERE m.shared_portfolio_id = $1 AND m.user_id = u.id)
           AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.shared_portfolio_id = $1 AND i.to_user_id = u.id)
           AND (starts_with(u.email, lower($3)) OR position(' ' || lower($3) in ' ' || lower(u.username)) > 0)
         ORDER BY (u.email = lower($3)) DESC, lower(u.username), u.id LIMIT 20`,
        [id, ownerId, search],
      );
      // Only someone who typed the whole address sees it; others see enough to tell people apart.
      nonMembers = rows.map((p) => (p.email === search.toLowerCase() ? p : { ...p, email: maskEmail(p.email) }));
    }
    return {
      members,
      // A person invited by picking them from a search keeps the masked address the search showed.
      pending: pending.map((p) => ({
        id: p.id,
        username: p.username,
        email: p.by_email ? p.email : maskEmail(p.email),
        invitationId: p.invitation_id,
      })),
      nonMembers,
    };
  },
};

/** The API fields of a shared portfolio shared by list and detail. */
export function sharedPortfolioFields(r: SharedPortfolioRecord, people: Map<number, Person>) {
  return {
    id: r.id,
    name: r.name,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    grades: r.grades,
    subject: r.subject,
    topic: r.topic,
    plcName: r.plcName,
    plcGoals: r.plcGoals,
    owner: r.owner,
    members: r.memberIds.map((id) => people.get(id)).filter((p): p is Person => p !== undefined),
    structure: r.structure,
    templateStructure: r.templateStructure,
  };
}
