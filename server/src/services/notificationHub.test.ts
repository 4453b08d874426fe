import { describe, expect, it } from 'vitest';
import { TestClock } from '../../test/clock.ts';
import { HEARTBEAT_MS, NotificationHub, type FeedStream } from './notificationHub.ts';

/**
 * The hub's timers on a test clock: the heartbeat and the flush of a burst run when the test
 * moves the clock on, and a stopped hub leaves no timer behind. Without a database to listen to,
 * changes come in through `schedule` (as the listener calls it).
 */
describe('the notification hub on a test clock', () => {
  function setup(alive = true) {
    const clock = new TestClock({ frozen: true });
    const counted: number[] = [];
    const checked: FeedStream[] = [];
    const hub = new NotificationHub(
      {},
      {
        unread: async (userId) => {
          counted.push(userId);
          return counted.length;
        },
        alive: async (stream) => {
          checked.push(stream);
          return alive;
        },
        recorded: () => undefined,
        warn: (error) => {
          throw error;
        },
      },
      clock,
    );
    return { clock, hub, counted, checked };
  }

  /** A stream of user 7 that keeps what is written to it; `next()` resolves with the next write. */
  function stream() {
    const written: string[] = [];
    let waiting: ((text: string) => void) | null = null;
    const s: FeedStream & { written: string[]; closed: boolean; next(): Promise<string> } = {
      userId: 7,
      sessionId: 's1',
      epoch: 0,
      written,
      closed: false,
      write(text) {
        written.push(text);
        waiting?.(text);
        waiting = null;
      },
      close() {
        s.closed = true;
      },
      next: () => new Promise((resolve) => (waiting = resolve)),
    };
    return s;
  }

  it('sends one count for a burst of changes, when the flush is due', async () => {
    const { clock, hub, counted } = setup();
    await hub.start();
    const s = stream();
    await hub.open(s);
    expect(s.written).toEqual(['event: unread\ndata: {"unread":1}\n\n']);
    const next = s.next();
    hub.schedule(7);
    hub.schedule(7);
    hub.schedule(7);
    clock.advance(15);
    expect(await next).toBe('event: unread\ndata: {"unread":2}\n\n');
    expect(counted).toEqual([7, 7]);
    await hub.stop();
  });

  it('writes a keep-alive with every heartbeat and checks the session of each stream', async () => {
    const { clock, hub, checked } = setup();
    await hub.start();
    const s = stream();
    await hub.open(s);
    clock.advance(HEARTBEAT_MS - 1);
    expect(s.written).toHaveLength(1);
    clock.advance(1);
    expect(s.written.at(-1)).toBe(': keep-alive\n\n');
    expect(checked).toEqual([s]);
    clock.advance(HEARTBEAT_MS);
    expect(s.written.filter((w) => w === ': keep-alive\n\n')).toHaveLength(2);
    expect(s.closed).toBe(false);
    await hub.stop();
  });

  it('ends a stream whose session the heartbeat finds ended', async () => {
    const { clock, hub } = setup(false);
    await hub.start();
    const s = stream();
    await hub.open(s);
    const closed = new Promise<void>((resolve) => (s.close = resolve));
    clock.advance(HEARTBEAT_MS);
    await closed;
    expect(hub.size).toBe(0);
    await hub.stop();
  });

  it('leaves no timer behind when stopped', async () => {
    const { clock, hub } = setup();
    await hub.start();
    await hub.open(stream());
    hub.schedule(7);
    expect(clock.pending).toBe(2);
    await hub.stop();
    expect(clock.pending).toBe(0);
  });
});
