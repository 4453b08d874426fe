import { parsePrincipalPayload, PRINCIPAL_CHANNEL, principalChanges, type PrincipalChange } from '../db/changes.ts';
import { systemClock, type Clock, type Timer } from '../clock.ts';
import type { Db } from '../db/client.ts';

/** The channel on which PostgreSQL says whose feed changed (migration 0008's triggers). */
export const NOTIFICATION_CHANNEL = 'notification_changed';
/** Open streams per person in one process; a further one ends the oldest. */
export const STREAMS_PER_USER = 5;
/** A comment line this often keeps proxies and the idle timeout from closing a quiet stream. */
export const HEARTBEAT_MS = 25_000;

/** One open event stream. */
export interface FeedStream {
  userId: number;
  sessionId: string | undefined;
  /** The account's session epoch when the stream opened (a later one ends it). */
  epoch: number;
  /** Writes raw event-stream text. */
  write(text: string): void;
  /** Ends the response. */
  close(): void;
}

export interface HubHandlers {
  /** The person's unread count now. */
  unread(userId: number): Promise<number>;
  /** Whether the stream's session is still open and its account still allowed in. */
  alive(stream: FeedStream): Promise<boolean>;
  /** New items were committed somewhere: something may wait for e-mail or push. */
  recorded(): void;
  warn(error: unknown, message: string): void;
}

/** An `unread` event. */
export const unreadEvent = (unread: number) => `event: unread\ndata: ${JSON.stringify({ unread })}\n\n`;

/**
 * The live unread counts of one server process. It listens to PostgreSQL (`LISTEN
 * notification_changed`), so a change committed by any process reaches every stream of its
 * person here: one count query per person and burst, written to each of that person's streams.
 * Streams end when their session ends (sign-out anywhere, a block, a password change: heard
 * through `principal_changed`, and checked again with every heartbeat).
 */
export class NotificationHub {
  private readonly streams = new Map<number, Set<FeedStream>>();
  private readonly due = new Set<number>();
  private flushing: Timer | null = null;
  private heartbeat: Timer | null = null;
  private readonly stops: (() => Promise<void>)[] = [];
  /** The session checks under way. */
  private readonly checking = new Set<Promise<void>>();
  private wasUp = false;
  private readonly onLocalPrincipal = (change: PrincipalChange) => this.recheck(change);

  constructor(
    private readonly db: Pick<Db, 'listen'>,
    private readonly handlers: HubHandlers,
    /** Sets the heartbeat and the flush of a burst (tests move it on). */
    private readonly clock: Clock = systemClock,
  ) {}

  async start(): Promise<void> {
    principalChanges.on('change', this.onLocalPrincipal);
    this.heartbeat = this.clock.setInterval(() => this.beat(), HEARTBEAT_MS);
    if (!this.db.listen) return;
    this.stops.push(
      await this.db.listen(NOTIFICATION_CHANNEL, {
        message: (payload) => {
          const userId = Number(payload.slice(1));
          if (payload.startsWith('n')) this.handlers.recorded();
          if (Number.isInteger(userId) && this.streams.has(userId)) this.schedule(userId);
        },
        // Changes may have been missed while the connection was down: every count is sent again,
        // and what waits is delivered (at start, the catch-up job does that).
        up: () => {
          if (!this.wasUp) {
            this.wasUp = true;
            return;
          }
          for (const userId of this.streams.keys()) this.schedule(userId);
          this.handlers.recorded();
        },
        down: () => undefined,
      }),
    );
    this.stops.push(
      await this.db.listen(PRINCIPAL_CHANNEL, {
        message: (payload) => {
          const change = parsePrincipalPayload(payload);
          if (change) this.recheck(change);
        },
        up: () => undefined,
        down: () => undefined,
      }),
    );
  }

  async stop(): Promise<void> {
    principalChanges.off('change', this.onLocalPrincipal);
    this.heartbeat?.cancel();
    this.flushing?.cancel();
    for (const set of this.streams.values()) for (const s of set) s.close();
    this.streams.clear();
    await Promise.all(this.stops.splice(0).map((stop) => stop()));
  }

  /** How many streams are open here (for tests and diagnostics). */
  get size(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /**
   * Resolves once the session checks under way (after a change heard, or a heartbeat) have ended:
   * every stream whose session they found ended is closed by then.
   */
  async settled(): Promise<void> {
    while (this.checking.size > 0) await Promise.all(this.checking);
  }

  /** Adds a stream and sends it the count at once; the person's oldest stream ends when over the limit. */
  async open(stream: FeedStream): Promise<void> {
    let set = this.streams.get(stream.userId);
    if (!set) this.streams.set(stream.userId, (set = new Set()));
    set.add(stream);
    if (set.size > STREAMS_PER_USER) {
      const oldest = set.values().next().value!;
      this.remove(oldest);
      oldest.close();
    }
    stream.write(unreadEvent(await this.handlers.unread(stream.userId)));
  }

  /** Forgets a stream (its client went away). */
  remove(stream: FeedStream): void {
    const set = this.streams.get(stream.userId);
    if (!set) return;
    set.delete(stream);
    if (set.size === 0) this.streams.delete(stream.userId);
  }

  /** Sends the person's count again soon (bursts of changes cost one query). */
  schedule(userId: number): void {
    this.due.add(userId);
    this.flushing ??= this.clock.setTimeout(() => {
      this.flushing = null;
      const users = [...this.due];
      this.due.clear();
      for (const userId of users) void this.push(userId);
    }, 15);
  }

  private async push(userId: number): Promise<void> {
    if (!this.streams.has(userId)) return;
    try {
      const text = unreadEvent(await this.handlers.unread(userId));
      for (const s of this.streams.get(userId) ?? []) s.write(text);
    } catch (error) {
      this.handlers.warn(error, 'could not send the unread count');
    }
  }

  private recheck(change: PrincipalChange): void {
    const affected: FeedStream[] = [];
    for (const set of this.streams.values()) {
      for (const s of set)
        if (change.kind === 'user' ? String(s.userId) === change.id : s.sessionId === change.id) affected.push(s);
    }
    for (const s of affected) this.check(s);
  }

  /** Checks a stream's session in the background (ends the stream when its session has ended). */
  private check(stream: FeedStream): void {
    const checked = this.verify(stream).finally(() => this.checking.delete(checked));
    this.checking.add(checked);
  }

  private async verify(stream: FeedStream): Promise<void> {
    try {
      if (await this.handlers.alive(stream)) return;
    } catch (error) {
      this.handlers.warn(error, 'could not check a stream session');
      return;
    }
    this.remove(stream);
    stream.close();
  }

  private beat(): void {
    for (const set of this.streams.values()) {
      for (const s of set) {
        s.write(': keep-alive\n\n');
        this.check(s);
      }
    }
  }
}
