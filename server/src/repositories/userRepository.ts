import type { Queryable } from '../db/client.ts';
import { principalChanges } from '../db/changes.ts';
import type { RoleId, RoleType, User } from '#schemas/user';
import { iso } from './sql.ts';

/** A user row with what the server needs beyond the public fields. */
export interface UserRecord {
  user: User;
  passwordHash: string | null;
  sessionEpoch: number;
}

interface UserRow {
  id: number;
  username: string;
  email: string;
  password_hash: string | null;
  blocked: boolean;
  confirmed: boolean;
  session_epoch: number;
  created_at: Date;
  updated_at: Date;
  role_id: RoleId;
  role_name: string;
  role_description: string;
  role_type: RoleType;
}

const SELECT = `SELECT u.id, u.username, u.email, u.password_hash, u.blocked, u.confirmed, u.session_epoch,
  u.created_at, u.updated_at, r.id AS role_id, r.name AS role_name, r.description AS role_description, r.type AS role_type
  FROM users u JOIN roles r ON r.id = u.role_id`;

function toRecord(row: UserRow): UserRecord {
  return {
    user: {
      id: row.id,
      username: row.username,
      email: row.email,
      provider: 'local',
      confirmed: row.confirmed,
      blocked: row.blocked,
      role: { id: row.role_id, name: row.role_name, description: row.role_description, type: row.role_type },
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    },
    passwordHash: row.password_hash,
    sessionEpoch: row.session_epoch,
  };
}

/** SQL for user accounts. */
export const userRepository = {
  /** The user with this id, or `null`. */
  async findById(db: Queryable, id: number): Promise<UserRecord | null> {
    const { rows } = await db.query<UserRow>(`${SELECT} WHERE u.id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** The user with this e-mail address (any case), or `null`. */
  async findByEmail(db: Queryable, email: string): Promise<UserRecord | null> {
    // Lower-cased here and in SQL, exactly as `create` stores it.
    const { rows } = await db.query<UserRow>(`${SELECT} WHERE u.email = lower($1)`, [email.toLowerCase()]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** The user with exactly this username, or `null`. */
  async findByUsername(db: Queryable, username: string): Promise<UserRecord | null> {
    const { rows } = await db.query<UserRow>(`${SELECT} WHERE u.username = $1`, [username]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** Every user, optionally only with / without one role, in id order. */
  async list(db: Queryable, filter: { role?: number; roleNot?: number } = {}): Promise<User[]> {
    const { rows } = await db.query<UserRow>(
      `${SELECT} WHERE ($1::int IS NULL OR u.role_id = $1) AND ($2::int IS NULL OR u.role_id <> $2) ORDER BY u.id`,
      [filter.role ?? null, filter.roleNot ?? null],
    );
    return rows.map((r) => toRecord(r).user);
  },

  /** Creates an account; `passwordHash` null means it must be opened with a set-password link. */
  async create(
    db: Queryable,
    input: { username: string; email: string; roleId: RoleId; passwordHash: string | null },
  ): Promise<User> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO users (username, email, role_id, password_hash) VALUES ($1, lower($2), $3, $4) RETURNING id`,
      [input.username, input.email.toLowerCase(), input.roleId, input.passwordHash],
    );
    const created = await userRepository.findById(db, rows[0]!.id);
    return created!.user;
  },

  /** Blocks or unblocks; blocking also ends every session of the account. */
  async setBlocked(db: Queryable, id: number, blocked: boolean): Promise<User | null> {
    await db.query(
      `UPDATE users SET blocked = $2, updated_at = next_stamp(updated_at),
         session_epoch = session_epoch + CASE WHEN $2 AND NOT blocked THEN 1 ELSE 0 END
       WHERE id = $1`,
      [id, blocked],
    );
    principalChanges.user(id);
    return (await userRepository.findById(db, id))?.user ?? null;
  },

  /** Ends every session of the user (tokens of an earlier epoch are refused). */
  async endAllSessions(db: Queryable, id: number): Promise<void> {
    await db.query('UPDATE users SET session_epoch = session_epoch + 1 WHERE id = $1', [id]);
    principalChanges.user(id);
  },

  /** Replaces a hash by a stronger one of the same password (sessions go on); only if it is still `previous`. */
  async upgradePasswordHash(db: Queryable, id: number, previous: string, passwordHash: string): Promise<void> {
    await db.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [
      id,
      previous,
      passwordHash,
    ]);
    principalChanges.user(id);
  },

  /** Sets a new password and ends every earlier session; returns the new epoch. */
  async setPassword(db: Queryable, id: number, passwordHash: string): Promise<number> {
    const { rows } = await db.query<{ session_epoch: number }>(
      `UPDATE users SET password_hash = $2, confirmed = true, session_epoch = session_epoch + 1, updated_at = next_stamp(updated_at)
       WHERE id = $1 RETURNING session_epoch`,
      [id, passwordHash],
    );
    principalChanges.user(id);
    return rows[0]!.session_epoch;
  },
};
