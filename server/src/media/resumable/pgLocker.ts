import type { Lock, Locker, RequestRelease } from '@tus/server';
import pg from 'pg';

/** The answer to a request for an upload that another request (on any node) is writing or reading. */
export const UPLOAD_LOCKED = {
  status_code: 423,
  body: 'Another request is sending this upload right now. Wait for it to end, then ask for the offset again.\n',
};

/** The answer when every lock connection of this node is taken for longer than `CONNECT_WAIT_MS`. */
export const LOCKS_BUSY = {
  status_code: 503,
  body: 'Too many uploads are arriving at once. Try again in a moment.\n',
};

/** How long a request waits for a free lock connection. */
const CONNECT_WAIT_MS = 10_000;

/**
 * The first key of the upload locks (two-key advisory locks: a key space of their own, apart from
 * the single-key locks the rest of the server takes, such as a person's quota lock).
 */
const UPLOAD_LOCKS = 0x74757300;

/** How often, and how long at most, a request tries again for a lock held by another. */
const RETRY_MS = 50;

/**
 * Locks of resumable uploads shared by every node of one database: PostgreSQL session advisory
 * locks (`pg_try_advisory_lock`), each held on a connection of its own (from a small pool kept
 * apart from the requests' one) for as long as the request that took it works on the upload.
 * A request that finds the lock taken tries again for `waitMs`, then gets 423: a second PATCH of
 * an upload never writes next to the first. A lock is released by `unlock`, by `releaseAll` when
 * the request ends or breaks off, and by PostgreSQL itself when its node's connection drops.
 */
export class PgLocker {
  private opened: pg.Pool | null = null;

  /**
   * `settings` may be a function: the connection settings are read when the first lock is taken,
   * so that the locker can be made while the server's database is still starting.
   */
  constructor(
    private readonly settings: pg.ClientConfig | (() => pg.ClientConfig),
    private readonly options: { max: number; waitMs: number },
  ) {}

  private get pool(): pg.Pool {
    if (this.opened) return this.opened;
    const settings = typeof this.settings === 'function' ? this.settings() : this.settings;
    this.opened = new pg.Pool({
      ...settings,
      max: this.options.max,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: CONNECT_WAIT_MS,
      application_name: 'upload-locks',
    });
    // A lock connection that breaks loses its lock with it; the request holding it notices at unlock.
    this.opened.on('error', () => undefined);
    return this.opened;
  }

  /** A locker for one request: `releaseAll` frees whatever it still holds once the request ended. */
  forRequest(): Locker & { releaseAll(): Promise<void> } {
    const held = new Set<PgLock>();
    return {
      newLock: (id: string) => new PgLock(() => this.pool, id, this.options.waitMs, held),
      releaseAll: async () => {
        await Promise.all([...held].map((lock) => lock.unlock()));
      },
    };
  }

  async close(): Promise<void> {
    await this.opened?.end();
  }
}

class PgLock implements Lock {
  private client: pg.PoolClient | null = null;

  constructor(
    private readonly pool: () => pg.Pool,
    private readonly id: string,
    private readonly waitMs: number,
    private readonly held: Set<PgLock>,
  ) {}

  async lock(signal: AbortSignal, _requestRelease: RequestRelease): Promise<void> {
    // The holder may be on another node: it cannot be asked to let go, so the lock is only tried.
    const client = await this.pool()
      .connect()
      .catch(() => {
        throw LOCKS_BUSY;
      });
    const until = Date.now() + this.waitMs;
    try {
      for (;;) {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
          UPLOAD_LOCKS,
          this.id,
        ]);
        if (rows[0]!.ok) break;
        if (signal.aborted || Date.now() + RETRY_MS > until) throw UPLOAD_LOCKED;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    } catch (error) {
      client.release();
      throw error;
    }
    this.client = client;
    this.held.add(this);
  }

  async unlock(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    this.held.delete(this);
    try {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [UPLOAD_LOCKS, this.id]);
      client.release();
    } catch (error) {
      // The connection is closed instead: PostgreSQL releases its locks with it.
      client.release(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
