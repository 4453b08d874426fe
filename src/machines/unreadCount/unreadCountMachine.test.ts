import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import type { UnreadPoll } from '../../services/notificationService.ts';
import { POLL_INTERVAL_MS, unreadCountMachine, type UnreadCountEvent } from './unreadCountMachine.ts';

/** The live count under a stand-in feed that keeps every count it is told. */
function start(options: { streamFails?: boolean; streamed?: number[]; polls?: (UnreadPoll | Error)[] } = {}) {
  const told: number[] = [];
  const etags: (string | null)[] = [];
  const logic = unreadCountMachine.provide({
    actors: {
      unreadStream: fromCallback<UnreadCountEvent>(({ sendBack }) => {
        for (const unread of options.streamed ?? []) sendBack({ type: 'unread.changed', unread });
        if (options.streamFails) sendBack({ type: 'stream.failed' });
      }),
      pollUnread: fromPromise<UnreadPoll, { etag: string | null }>(async ({ input }) => {
        etags.push(input.etag);
        const answer = options.polls?.shift() ?? { changed: false };
        if (answer instanceof Error) throw answer;
        return answer;
      }),
    },
  });
  const feed = setup({
    types: { events: {} as { type: 'unread.changed'; unread: number } },
    actors: { unreadCount: logic },
  }).createMachine({
    invoke: { id: 'unreadCount', src: 'unreadCount' },
    on: { 'unread.changed': { actions: ({ event }) => told.push(event.unread) } },
  });
  const actor = createActor(feed).start();
  const child = () => actor.getSnapshot().children.unreadCount as AnyActorRef;
  return { actor, child, told, etags };
}

describe('unreadCountMachine guards', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('isChanged: a changed count (200) is told with its version kept; a 304 or a failure tells nothing', async () => {
    const { child, told, etags } = start({
      streamFails: true,
      polls: [{ changed: true, unread: 4, etag: 'v1' }, { changed: false }, new Error('offline')],
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toEqual([4]);
    expect(child().getSnapshot().context).toEqual({ etag: 'v1', unread: 4 });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(etags).toEqual([null]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(etags).toEqual([null, 'v1', 'v1']);
    expect(told).toEqual([4]);
    expect(child().getSnapshot().value).toEqual({ polling: 'waiting' });
  });
});

describe('unreadCountMachine actions', () => {
  it('storeUnread and tellFeed: every streamed count is kept and told to the feed, without polling', () => {
    const { child, told, etags } = start({ streamed: [2, 3] });
    expect(told).toEqual([2, 3]);
    expect(child().getSnapshot().context).toEqual({ etag: null, unread: 3 });
    expect(child().getSnapshot().value).toBe('streaming');
    expect(etags).toEqual([]);
  });
});
