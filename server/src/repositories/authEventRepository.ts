import type { Queryable } from '../db/client.ts';

export type AuthEventKind =
  | 'login_failure'
  | 'forgot_request'
  | 'reset_failure'
  | 'member_search'
  | 'reset_code_failure'
  | 'reset_account_failure'
  | 'login_address_failure'
  | 'forgot_email';

/** SQL for the sliding windows of the per-identifier rate limits. */
export const authEventRepository = {
  /** How many events of this kind the subject had within the last `windowSeconds`. */
  async count(db: Queryable, kind: AuthEventKind, subject: string, windowSeconds: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth_events
       WHERE kind = $1 AND subject = $2 AND created_at > ms_now() - make_interval(secs => $3)`,
      [kind, subject, windowSeconds],
    );
    return rows[0]?.n ?? 0;
  },

  /**
   * Records an attempt when the subject had fewer than `limit` events of this kind within the
   * window, and tells whether it did; `id` lets the caller forget an attempt that turned out fine.
   * Run it in its own transaction: attempts on one subject take turns (an advisory lock), so that
   * concurrent attempts cannot all pass a count taken before any of them was recorded.
   */
  async attempt(
    tx: Queryable,
    kind: AuthEventKind,
    subject: string,
    limit: number,
    windowSeconds: number,
  ): Promise<{ allowed: true; id: number } | { allowed: false }> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1 || ':' || $2))`, [kind, subject]);
    if ((await authEventRepository.count(tx, kind, subject, windowSeconds)) >= limit) return { allowed: false };
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO auth_events (kind, subject) VALUES ($1, $2) RETURNING id`,
      [kind, subject],
    );
    return { allowed: true, id: Number(rows[0]!.id) };
  },

  /**
   * Login failures of one account: how many came from `address` (and when the last one did),
   * and how many from anywhere, within the window. Subjects are `<account>|<address>`; call it
   * in the transaction that records the next attempt, after `lockSubject(account)`.
   */
  async loginFailures(
    db: Queryable,
    account: string,
    address: string,
    windowSeconds: number,
  ): Promise<{
    fromAddress: number;
    lastFromAddress: Date | null;
    fromAnywhere: number;
    lastFromAnywhere: Date | null;
  }> {
    const { rows } = await db.query<{
      from_address: number;
      last_from_address: Date | null;
      from_anywhere: number;
      last_from_anywhere: Date | null;
    }>(
      `SELECT count(*) FILTER (WHERE subject = $2 || '|' || $3)::int AS from_address,
              max(created_at) FILTER (WHERE subject = $2 || '|' || $3) AS last_from_address,
              count(*)::int AS from_anywhere,
              max(created_at) AS last_from_anywhere
       FROM auth_events
       WHERE kind = 'login_failure' AND starts_with(subject, $2 || '|') AND created_at > ms_now() - make_interval(secs => $1)`,
      [windowSeconds, account, address],
    );
    const r = rows[0]!;
    return {
      fromAddress: r.from_address,
      lastFromAddress: r.last_from_address ? new Date(r.last_from_address) : null,
      fromAnywhere: r.from_anywhere,
      lastFromAnywhere: r.last_from_anywhere ? new Date(r.last_from_anywhere) : null,
    };
  },

  /** Makes attempts on one subject take turns until the transaction ends. */
  async lockSubject(tx: Queryable, kind: AuthEventKind, subject: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1 || ':' || $2))`, [kind, subject]);
  },

  /** Records one event; returns its id. */
  async record(tx: Queryable, kind: AuthEventKind, subject: string): Promise<number> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO auth_events (kind, subject) VALUES ($1, $2) RETURNING id`,
      [kind, subject],
    );
    return Number(rows[0]!.id);
  },

  /** Forgets one event (an attempt that turned out not to be a failure). */
  async remove(db: Queryable, id: number): Promise<void> {
    await db.query(`DELETE FROM auth_events WHERE id = $1`, [id]);
  },

  /** Forgets the subject's events of this kind (a successful login clears its failures). */
  async clear(db: Queryable, kind: AuthEventKind, subject: string): Promise<void> {
    await db.query(`DELETE FROM auth_events WHERE kind = $1 AND subject = $2`, [kind, subject]);
  },

  /** Deletes events older than any window. */
  async prune(db: Queryable): Promise<void> {
    await db.query(`DELETE FROM auth_events WHERE created_at < ms_now() - interval '1 day'`);
  },
};
