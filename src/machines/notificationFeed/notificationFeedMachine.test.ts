import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type {
  Notification,
  NotificationListResponse,
  NotificationReadBody,
  UnreadCount,
} from '../../schemas/notifications.ts';
import type { UnreadPoll } from '../../services/notificationService.ts';
import { makeNotification } from '../../test/notificationHarness.tsx';
import type { Notice } from '../shared/notice.ts';
import { POLL_INTERVAL_MS, type UnreadCountEvent } from '../unreadCount/unreadCountMachine.ts';
import { notificationFeedMachine, READ_FAILED } from './notificationFeedMachine.ts';
import { provideFeedServices } from './provideFeedServices.ts';

const items: Notification[] = [makeNotification({ id: 3 }), makeNotification({ id: 2 }), makeNotification({ id: 1 })];

function start(options: { streamFails?: boolean; markFails?: boolean; polls?: UnreadPoll[] } = {}) {
  const notices: Notice[] = [];
  const links: string[] = [];
  const lists: { before: number | null; limit: number }[] = [];
  const marked: NotificationReadBody[] = [];
  const etags: (string | null)[] = [];
  const actor = createActor(
    provideFeedServices(
      notificationFeedMachine.provide({
        actions: {
          notify: (_, notice) => notices.push(notice),
          openLink: (_, params) => links.push(params.link),
        },
      }),
      {
        unreadStream: fromCallback<UnreadCountEvent>(({ sendBack }) => {
          if (options.streamFails) sendBack({ type: 'stream.failed' });
        }),
        pollUnread: fromPromise<UnreadPoll, { etag: string | null }>(async ({ input }) => {
          etags.push(input.etag);
          return options.polls?.shift() ?? { changed: false };
        }),
        listNotifications: fromPromise<NotificationListResponse, { before: number | null; limit: number }>(
          async ({ input }) => {
            lists.push(input);
            return { items: input.before === null ? items.slice(0, 2) : items.slice(2), unread: 3 };
          },
        ),
        markRead: fromPromise<UnreadCount, NotificationReadBody>(async ({ input }) => {
          marked.push(input);
          if (options.markFails) throw new Error('offline');
          return { unread: 1 };
        }),
      },
    ),
    { input: { pageSize: 2 } },
  ).start();
  return { actor, notices, links, lists, marked, etags };
}

describe('notificationFeedMachine guards', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("storeUnread: the count unreadCount tells is the bell's (here polled, the stream being unavailable)", async () => {
    const { actor, etags } = start({ streamFails: true, polls: [{ changed: true, unread: 4, etag: 'v1' }] });
    await waitFor(actor, (s) => s.context.unread === 4);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(etags).toEqual([null]);
    await vi.advanceTimersByTimeAsync(1);
    expect(etags).toEqual([null, 'v1']);
    expect(actor.getSnapshot().context.unread).toBe(4);
  });

  it('hasMore and isNewCount: a full page allows more; a new count refreshes only a feed on screen', async () => {
    const { actor, lists } = start();
    actor.send({ type: 'panel.toggle' });
    await waitFor(actor, (s) => s.matches({ feed: 'loaded' }));
    expect(actor.getSnapshot().context.hasMore).toBe(true);
    actor.send({ type: 'feed.more' });
    await waitFor(actor, (s) => s.matches({ feed: 'loaded' }) && s.context.items.length === 3);
    expect(actor.getSnapshot().context.hasMore).toBe(false);
    expect(lists).toEqual([
      { before: null, limit: 2 },
      { before: 2, limit: 2 },
    ]);
    actor.send({ type: 'unread.changed', unread: 3 });
    actor.send({ type: 'unread.changed', unread: 5 });
    expect(lists).toHaveLength(3);
    actor.send({ type: 'panel.close' });
    await waitFor(actor, (s) => s.matches({ feed: 'loaded' }));
    actor.send({ type: 'unread.changed', unread: 6 });
    expect(lists).toHaveLength(3);
  });
});

describe('notificationFeedMachine actions', () => {
  it('opening an unread item shows it read, opens its link and tells the server its id', async () => {
    const { actor, links, marked } = start();
    actor.send({ type: 'page.enter' });
    await waitFor(actor, (s) => s.matches({ feed: 'loaded' }));
    actor.send({ type: 'item.open', id: 3 });
    expect(actor.getSnapshot().context.items.find((item) => item.id === 3)?.read).toBe(true);
    expect(actor.getSnapshot().context.unread).toBe(2);
    expect(links).toEqual([items[0]!.link]);
    await waitFor(actor, (s) => s.matches({ reads: 'idle' }) && s.context.unread === 1);
    expect(marked).toEqual([{ ids: [3] }]);
  });

  it('read.all marks everything on screen and asks for all; a failure alerts and reloads', async () => {
    const { actor, marked, notices, lists } = start({ markFails: true });
    actor.send({ type: 'page.enter' });
    await waitFor(actor, (s) => s.matches({ feed: 'loaded' }));
    actor.send({ type: 'read.all' });
    expect(actor.getSnapshot().context.items.every((item) => item.read)).toBe(true);
    await waitFor(actor, (s) => notices.length > 0 && s.matches({ feed: 'loaded' }));
    expect(marked).toEqual([{ all: true }]);
    expect(notices).toEqual([{ message: READ_FAILED, tone: 'error' }]);
    expect(lists).toHaveLength(2);
  });
});
