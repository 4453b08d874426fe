import type { Db } from '../db/client.ts';
import { parsePrincipalPayload, PRINCIPAL_CHANNEL, principalChanges, type PrincipalChange } from '../db/changes.ts';
import { notifyChannel } from '../repositories/channelRepository.ts';
import type { OpenSession } from '../repositories/sessionRepository.ts';
import type { UserRecord } from '../repositories/userRepository.ts';

/**
 * The signed-in principal of a token (the account and whether its session is open), kept per
 * process so that an ordinary request costs no SQL to authenticate.
 *
 * It is trusted only while this process hears every change: an entry is dropped the moment this
 * process changes an account or a session, and when PostgreSQL announces a change made anywhere
 * (`NOTIFY principal_changed` at commit, from triggers on `users` and `sessions`: other server
 * processes, the admin command, plain SQL). While the listening connection is down, nothing is
 * cached and every request reads the database. Entries also end after `ttlMs` whatever happens.
 */
export class PrincipalCache {
  private readonly users = new Map<number, { record: UserRecord; at: number }>();
  private readonly sessions = new Map<string, { userId: number; session: OpenSession; at: number }>();
  private live = false;
  private stopListening: (() => Promise<void>) | null = null;
  private db: Db | null = null;
  private readonly barriers = new Map<string, () => void>();
  private readonly onLocalChange = (change: PrincipalChange) => this.drop(change);

  constructor(private readonly options: { ttlMs: number; maxEntries: number }) {}

  /** Starts hearing changes; without a database that can listen, the cache stays off. */
  async start(db: Db): Promise<void> {
    principalChanges.on('change', this.onLocalChange);
    if (!db.listen) return;
    this.db = db;
    this.stopListening = await db.listen(PRINCIPAL_CHANNEL, {
      message: (payload) => {
        if (payload.startsWith('!')) return this.barriers.get(payload)?.();
        const change = parsePrincipalPayload(payload);
        if (change) this.drop(change);
      },
      up: () => {
        this.clear();
        this.live = true;
      },
      down: () => {
        this.live = false;
        this.clear();
      },
    });
  }

  async stop(): Promise<void> {
    principalChanges.off('change', this.onLocalChange);
    this.live = false;
    this.clear();
    await this.stopListening?.();
  }

  /**
   * Resolves once this process has heard every change committed before the call (a notification
   * of its own, which PostgreSQL delivers after all earlier ones). For tests that change accounts
   * with plain SQL, as another process would.
   */
  async heard(): Promise<void> {
    if (!this.db || !this.live) return;
    const token = `!${Math.random().toString(36).slice(2)}`;
    const arrived = new Promise<void>((resolve) => this.barriers.set(token, resolve));
    await notifyChannel(this.db, PRINCIPAL_CHANNEL, token);
    await arrived;
    this.barriers.delete(token);
  }

  /** The account, from the cache or from `load` (kept when found and the cache is live). */
  async user(id: number, load: () => Promise<UserRecord | null>): Promise<UserRecord | null> {
    const hit = this.users.get(id);
    if (hit && this.fresh(hit.at)) return hit.record;
    const record = await load();
    if (record && this.live) this.put(this.users, id, { record, at: Date.now() });
    return record;
  }

  /** The session while it is open, from the cache or from `load` (kept until it changes or ends). */
  async session(id: string, userId: number, load: () => Promise<OpenSession | null>): Promise<OpenSession | null> {
    const hit = this.sessions.get(id);
    if (hit && hit.userId === userId && this.fresh(hit.at) && hit.session.until.getTime() > Date.now())
      return hit.session;
    const session = await load();
    if (session && this.live) this.put(this.sessions, id, { userId, session, at: Date.now() });
    return session && session.until.getTime() > Date.now() ? session : null;
  }

  private fresh(at: number): boolean {
    return this.live && Date.now() - at < this.options.ttlMs;
  }

  private put<K, V>(map: Map<K, V>, key: K, value: V): void {
    map.delete(key);
    map.set(key, value);
    // The oldest entry goes first when full.
    if (map.size > this.options.maxEntries) map.delete(map.keys().next().value as K);
  }

  private drop(change: PrincipalChange): void {
    if (change.kind === 'user') this.users.delete(Number(change.id));
    else this.sessions.delete(change.id);
  }

  private clear(): void {
    this.users.clear();
    this.sessions.clear();
  }
}
