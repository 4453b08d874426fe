/**
 * The bell's unread count kept live, invoked by `notificationFeed` for as long as the feed runs:
 * the server's stream tells every new count; while it is unavailable the count is polled every
 * 30 s with the version (`ETag`) of the last answer. Every count heard goes to the feed
 * (`unread.changed`).
 *
 * streaming (server-sent events) ─(stream.failed)→ polling: fetching ─→ waiting ─(30 s)→ fetching …
 *                                                      └ a changed count (200) is told, a 304 or a failure is not
 */
import { assign, fromCallback, fromPromise, raise, sendParent, setup } from 'xstate';
import { openUnreadStream, pollUnreadCount, type UnreadPoll } from '../../services/notificationService.ts';

/** How often the unread count is asked for while the live stream is unavailable. */
export const POLL_INTERVAL_MS = 30_000;

export interface UnreadCountContext {
  /** The version of the last polled count (`ETag`). */
  etag: string | null;
  /** The last count told to the feed (`null` before the first). */
  unread: number | null;
}

export type UnreadCountEvent =
  /** The server's unread count (from the stream or a poll), told to the feed. */
  { type: 'unread.changed'; unread: number } | { type: 'stream.failed' };

export const unreadCountMachine = setup({
  types: {
    context: {} as UnreadCountContext,
    events: {} as UnreadCountEvent,
  },
  actors: {
    pollUnread: fromPromise<UnreadPoll, { etag: string | null }>(({ input, signal }) =>
      pollUnreadCount(input.etag, signal),
    ),
    unreadStream: fromCallback<UnreadCountEvent>(({ sendBack }) =>
      openUnreadStream(
        (unread) => sendBack({ type: 'unread.changed', unread }),
        () => sendBack({ type: 'stream.failed' }),
      ),
    ),
  },
  delays: {
    pollInterval: POLL_INTERVAL_MS,
  },
  guards: {
    isChanged: (_, params: { poll: UnreadPoll }) => params.poll.changed,
  },
  actions: {
    storeUnread: assign({ unread: (_, params: { unread: number }) => params.unread }),
    storeEtag: assign({ etag: (_, params: { etag: string | null }) => params.etag }),
    /** Tells the feed the count. */
    tellFeed: sendParent((_, params: { unread: number }) => ({
      type: 'unread.changed' as const,
      unread: params.unread,
    })),
  },
}).createMachine({
  id: 'unreadCount',
  context: { etag: null, unread: null },
  initial: 'streaming',
  on: {
    'unread.changed': {
      actions: [
        { type: 'storeUnread', params: ({ event }) => ({ unread: event.unread }) },
        { type: 'tellFeed', params: ({ event }) => ({ unread: event.unread }) },
      ],
    },
  },
  states: {
    streaming: {
      invoke: { id: 'unreadStream', src: 'unreadStream' },
      on: { 'stream.failed': 'polling' },
    },
    polling: {
      initial: 'fetching',
      states: {
        fetching: {
          invoke: {
            id: 'pollUnread',
            src: 'pollUnread',
            input: ({ context }) => ({ etag: context.etag }),
            onDone: [
              {
                guard: { type: 'isChanged', params: ({ event }) => ({ poll: event.output }) },
                target: 'waiting',
                actions: [
                  {
                    type: 'storeEtag',
                    params: ({ event }) => ({ etag: event.output.changed ? event.output.etag : null }),
                  },
                  raise(({ event }) => ({
                    type: 'unread.changed' as const,
                    unread: event.output.changed ? event.output.unread : 0,
                  })),
                ],
              },
              { target: 'waiting' },
            ],
            // A failed poll is tried again at the next tick; the bell keeps the last count.
            onError: { target: 'waiting' },
          },
        },
        waiting: {
          after: { pollInterval: 'fetching' },
        },
      },
    },
  },
});

export type UnreadCountMachine = typeof unreadCountMachine;
