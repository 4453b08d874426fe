/**
 * The notification feed of the signed-in user: the bell's unread count, kept live, and the list of
 * notifications shown in the bell's panel or on the Notifications page. Four parallel regions:
 *
 * live:   invokes unreadCount (the stream, or polls every 30 s while it is unavailable), which tells
 *         every count it hears (`unread.changed`); each replaces the bell's number.
 * feed:   idle ─(feed.refresh)→ loading ─→ loaded ─(feed.more, more pages)→ loadingMore ─→ loaded
 *                                  └─(failed)→ loadFailed ─(retry)→ loading
 *         loaded ─(unread.changed, a new count while the feed is on screen)→ loading (the new items appear)
 * panel:  closed ─(panel.toggle)→ open ─(panel.toggle | panel.close | item.open)→ closed;
 *         page.enter → page (the Notifications page) ─(page.leave)→ closed. Showing the feed refreshes it.
 * reads:  idle ─(an item opened while unread, or read.all)→ marking ─→ idle (again while more are waiting).
 *
 * Opening an item marks it read at once on screen, sends the app to its link, and tells the server.
 */
import { and, assign, fromPromise, not, raise, setup, stateIn, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  NOTIFICATIONS_PAGE_DEFAULT,
  type Notification,
  type NotificationListResponse,
  type NotificationReadBody,
  type UnreadCount,
} from '../../schemas/notifications.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { listNotifications, markNotificationsRead } from '../../services/notificationService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';
import { unreadCountMachine } from '../unreadCount/unreadCountMachine.ts';

export interface NotificationFeedInput {
  /** Items per page (default 30). */
  pageSize?: number;
}

/** What is waiting to be marked read on the server. */
export interface PendingReads {
  ids: readonly number[];
  all: boolean;
}

export interface NotificationFeedContext {
  pageSize: number;
  items: readonly Notification[];
  /** `null` until the first count arrives. */
  unread: number | null;
  /** Whether older items may exist. */
  hasMore: boolean;
  /** Why the feed could not be loaded. */
  error: UiError | null;
  /** Read on screen, not yet told to the server. */
  pending: PendingReads;
  /** Being told to the server. */
  sending: PendingReads;
}

export type NotificationFeedEvent =
  | { type: 'panel.toggle' }
  | { type: 'panel.close' }
  | { type: 'page.enter' }
  | { type: 'page.leave' }
  | { type: 'feed.refresh' }
  | { type: 'feed.more' }
  | { type: 'retry' }
  | { type: 'item.open'; id: number }
  | { type: 'read.all' }
  /** The server's unread count (told by `unreadCount`: from the stream or a poll). */
  | { type: 'unread.changed'; unread: number };

export const MORE_FAILED = 'Older notifications could not be loaded.';
export const READ_FAILED = 'The notifications could not be marked as read.';

const NOTHING_PENDING: PendingReads = { ids: [], all: false };

const hasPending = (pending: PendingReads) => pending.all || pending.ids.length > 0;

export const notificationFeedMachine = setup({
  types: {
    context: {} as NotificationFeedContext,
    events: {} as NotificationFeedEvent,
    input: {} as NotificationFeedInput,
  },
  actors: {
    listNotifications: fromPromise<NotificationListResponse, { before: number | null; limit: number }>(
      ({ input, signal }) => listNotifications({ before: input.before ?? undefined, limit: input.limit }, signal),
    ),
    markRead: fromPromise<UnreadCount, NotificationReadBody>(({ input, signal }) =>
      markNotificationsRead(input, signal),
    ),
    unreadCount: unreadCountMachine,
  },
  guards: {
    hasMore: ({ context }) => context.hasMore,
    hasUnread: ({ context }) => (context.unread ?? 0) > 0 || context.items.some((item) => !item.read),
    hasPendingReads: ({ context }) => hasPending(context.pending),
    isNewCount: ({ context, event }) => event.type === 'unread.changed' && event.unread !== context.unread,
  },
  actions: {
    storeUnread: assign({ unread: (_, params: { unread: number }) => params.unread }),
    storePage: assign(({ context }, params: { page: NotificationListResponse; append: boolean }) => {
      const known = new Set(context.items.map((item) => item.id));
      const items = params.append
        ? [...context.items, ...params.page.items.filter((item) => !known.has(item.id))]
        : params.page.items;
      // What was read on screen stays read until the server has been told.
      const readHere = (item: Notification) =>
        context.pending.all ||
        context.sending.all ||
        context.pending.ids.includes(item.id) ||
        context.sending.ids.includes(item.id);
      return {
        items: items.map((item) => (!item.read && readHere(item) ? { ...item, read: true } : item)),
        unread: params.page.unread,
        hasMore: params.page.items.length >= context.pageSize,
        error: null,
      };
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    /** Shows an item read and queues it for the server. */
    readItem: assign(({ context }, params: { id: number }) => {
      const item = context.items.find((candidate) => candidate.id === params.id);
      if (!item || item.read) return {};
      return {
        items: context.items.map((candidate) =>
          candidate.id === params.id ? { ...candidate, read: true } : candidate,
        ),
        unread: Math.max(0, (context.unread ?? 1) - 1),
        pending: { ...context.pending, ids: [...context.pending.ids, params.id] },
      };
    }),
    readAll: assign(({ context }) => ({
      items: context.items.map((item) => (item.read ? item : { ...item, read: true })),
      unread: 0,
      pending: { ids: [], all: true },
    })),
    startSending: assign(({ context }) => ({ sending: context.pending, pending: NOTHING_PENDING })),
    stopSending: assign({ sending: NOTHING_PENDING }),
    /** Opens the item's place in the app (provided by the app). */
    openLink: effect<{ link: string }>('openLink'),
    /** Tells the user something (provided by the app). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'notificationFeed',
  type: 'parallel',
  context: ({ input }) => ({
    pageSize: input.pageSize ?? NOTIFICATIONS_PAGE_DEFAULT,
    items: [],
    unread: null,
    hasMore: false,
    error: null,
    pending: NOTHING_PENDING,
    sending: NOTHING_PENDING,
  }),
  states: {
    // The invoked `unreadCount` keeps the count live and tells every count it hears.
    live: {
      invoke: { id: 'unreadCount', src: 'unreadCount' },
      on: {
        'unread.changed': { actions: { type: 'storeUnread', params: ({ event }) => ({ unread: event.unread }) } },
      },
    },
    feed: {
      initial: 'idle',
      on: {
        'item.open': {
          actions: [
            { type: 'readItem', params: ({ event }) => ({ id: event.id }) },
            {
              type: 'openLink',
              params: ({ context, event }) => ({
                link: context.items.find((item) => item.id === event.id)?.link ?? '/notifications',
              }),
            },
          ],
        },
      },
      states: {
        idle: {
          on: { 'feed.refresh': 'loading' },
        },
        loading: {
          invoke: {
            id: 'listNotifications',
            src: 'listNotifications',
            input: ({ context }) => ({ before: null, limit: context.pageSize }),
            onDone: {
              target: 'loaded',
              actions: { type: 'storePage', params: ({ event }) => ({ page: event.output, append: false }) },
            },
            onError: {
              target: 'loadFailed',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        loadFailed: {
          on: { retry: 'loading', 'feed.refresh': 'loading' },
        },
        loaded: {
          on: {
            'feed.refresh': 'loading',
            'feed.more': { guard: 'hasMore', target: 'loadingMore' },
            'read.all': { guard: 'hasUnread', actions: 'readAll' },
            // A new count while the feed is on screen: its new items are fetched.
            'unread.changed': { guard: and(['isNewCount', not(stateIn({ panel: 'closed' }))]), target: 'loading' },
          },
        },
        loadingMore: {
          invoke: {
            id: 'listMore',
            src: 'listNotifications',
            input: ({ context }) => ({ before: context.items.at(-1)?.id ?? null, limit: context.pageSize }),
            onDone: {
              target: 'loaded',
              actions: { type: 'storePage', params: ({ event }) => ({ page: event.output, append: true }) },
            },
            onError: { target: 'loaded', actions: { type: 'notify', params: { message: MORE_FAILED, tone: 'error' } } },
          },
        },
      },
    },
    panel: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'panel.toggle': 'open', 'page.enter': 'page' },
        },
        open: {
          entry: raise({ type: 'feed.refresh' }),
          on: { 'panel.toggle': 'closed', 'panel.close': 'closed', 'item.open': 'closed', 'page.enter': 'page' },
        },
        page: {
          entry: raise({ type: 'feed.refresh' }),
          on: { 'page.leave': 'closed' },
        },
      },
    },
    reads: {
      initial: 'idle',
      states: {
        idle: {
          always: { guard: 'hasPendingReads', target: 'marking' },
        },
        marking: {
          entry: 'startSending',
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }): NotificationReadBody =>
              context.sending.all ? { all: true } : { ids: [...context.sending.ids] },
            onDone: {
              target: 'idle',
              actions: [
                'stopSending',
                { type: 'storeUnread', params: ({ event }) => ({ unread: event.output.unread }) },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                'stopSending',
                { type: 'notify', params: { message: READ_FAILED, tone: 'error' } },
                raise({ type: 'feed.refresh' }),
              ],
            },
          },
        },
      },
    },
  },
});

export type NotificationFeedMachine = typeof notificationFeedMachine;
export type NotificationFeedRef = ActorRefFrom<typeof notificationFeedMachine>;
export type NotificationFeedSnapshot = SnapshotFrom<typeof notificationFeedMachine>;
