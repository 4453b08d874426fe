import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MORE_FAILED,
  READ_FAILED,
  notificationFeedMachine,
  type NotificationFeedEvent,
} from '../../src/machines/notificationFeed/notificationFeedMachine.ts';
import type { Notification, NotificationListResponse } from '../../src/schemas/notifications.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { makeNotification } from '../../src/test/notificationHarness.tsx';
import { bellLabel } from '../../src/views/notifications/NotificationBell.tsx';
import { FEED_LOAD_FAILED, NO_NOTIFICATIONS } from '../../src/views/notifications/NotificationList.tsx';
import { createPathModel } from './support/coverage.ts';
import { answerAsStep } from './support/deferred.ts';
import { bell, closeFeed, renderFeed, type FeedHarness } from './support/notificationFeedPage.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(notificationFeedMachine);

interface Snapshot {
  value: unknown;
  context: {
    items: readonly Notification[];
    unread: number | null;
    hasMore: boolean;
    pending: { ids: readonly number[]; all: boolean };
    sending: { ids: readonly number[]; all: boolean };
  };
  matches: (value: unknown) => boolean;
  can: (event: NotificationFeedEvent) => boolean;
}

// A page of two (the feed's page size in these tests): one unread item, one read; then one older item.
const newest = makeNotification({
  id: 12,
  read: false,
  summary: 'Theo Teacher commented on “Ramp race” in Grade 5 PLC',
});
const older = makeNotification({
  id: 11,
  read: true,
  kind: 'reaction',
  count: 3,
  summary: '3 people reacted to “Ramp race” in Grade 5 PLC',
});
const oldest = makeNotification({
  id: 10,
  read: true,
  kind: 'invitation_received',
  summary: 'Lee Lead invited you to Grade 5 PLC',
  link: '/invitation/7',
});
const firstPage: NotificationListResponse = { items: [newest, older], unread: 1 };
const secondPage: NotificationListResponse = { items: [oldest], unread: 1 };
const offline = new NetworkError();

const actorEvent = (type: string, payload: Record<string, unknown> = {}) =>
  ({ type, ...payload }) as unknown as NotificationFeedEvent;

let h: FeedHarness;

afterEach(closeFeed);

const panel = () => screen.queryByRole('dialog', { name: 'Notifications' });
const onPage = () => h.location.history.at(-1) === '/notifications';

/** What the user sees of the feed (in the panel or on the page). */
interface FeedView {
  bell: string;
  expanded: boolean;
  badge: string | null;
  where: 'panel' | 'page' | 'nowhere';
  loading: boolean;
  failed: boolean;
  empty: boolean;
  items: string[];
  more: 'none' | 'ready' | 'busy';
  readAll: boolean;
}

function expectedView(s: Snapshot): FeedView {
  const where = s.matches({ panel: 'open' }) ? 'panel' : s.matches({ panel: 'page' }) ? 'page' : 'nowhere';
  const { items, unread } = s.context;
  const hidden = {
    loading: false,
    failed: false,
    empty: false,
    items: [] as string[],
    more: 'none' as const,
    readAll: false,
  };
  const feed =
    where === 'nowhere'
      ? hidden
      : {
          loading: (s.matches({ feed: 'loading' }) || s.matches({ feed: 'idle' })) && items.length === 0,
          failed: s.matches({ feed: 'loadFailed' }),
          empty: (s.matches({ feed: 'loaded' }) || s.matches({ feed: 'loadingMore' })) && items.length === 0,
          items: s.matches({ feed: 'loadFailed' })
            ? []
            : items.map((item) => `${item.read ? 'read' : 'unread'} ${item.summary}`),
          more: (s.matches({ feed: 'loadingMore' })
            ? 'busy'
            : s.can({ type: 'feed.more' }) && items.length > 0
              ? 'ready'
              : 'none') as FeedView['more'],
          readAll: s.can({ type: 'read.all' }),
        };
  return {
    bell: bellLabel(unread),
    expanded: where === 'panel',
    badge: unread !== null && unread > 0 ? String(unread) : null,
    where,
    ...feed,
  };
}

function observedView(): FeedView {
  const button = bell();
  const box = panel() ?? (onPage() ? screen.getByRole('main') : null);
  const where = panel() ? 'panel' : box ? 'page' : 'nowhere';
  const list = box ? within(box).queryByRole('list', { name: 'Notifications' }) : null;
  const more = box
    ? (within(box).queryByRole('button', { name: 'Show older notifications' }) as HTMLButtonElement | null)
    : null;
  const readAll = box
    ? (within(box).queryByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement | null)
    : null;
  return {
    bell: button.getAttribute('aria-label') ?? '',
    expanded: button.getAttribute('aria-expanded') === 'true',
    badge: button.querySelector('span')?.textContent ?? null,
    where,
    loading: box ? within(box).queryByText('Loading notifications…') !== null : false,
    failed: box ? (within(box).queryByRole('alert')?.textContent?.includes(FEED_LOAD_FAILED) ?? false) : false,
    empty: box ? within(box).queryByText(NO_NOTIFICATIONS) !== null : false,
    items: list
      ? within(list)
          .getAllByRole('link')
          .map(
            (link) =>
              `${link.hasAttribute('data-unread') ? 'unread' : 'read'} ${link.querySelector('.summary')?.textContent?.replace(/^Unread: /, '') ?? ''}`,
          )
      : [],
    more: more ? (more.getAttribute('aria-busy') === 'true' ? 'busy' : 'ready') : 'none',
    readAll: readAll ? readAll.getAttribute('aria-disabled') !== 'true' : false,
  };
}

async function checkView(snapshot: unknown) {
  const expected = expectedView(snapshot as Snapshot);
  await waitFor(() => expect(observedView()).toEqual(expected));
}

/** Settles the oldest call of a fake actor with the model event's output or error. */
function settle(name: keyof FeedHarness['fakes'], check?: (input: unknown) => void) {
  return async (step: { event: unknown }) => {
    const call = h.fakes[name].next();
    check?.(call.input);
    await answerAsStep(call, step);
  };
}

function pathTitle(path: { state: { value: unknown }; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map((step) => step.event as { type: string; error?: Error; unread?: number })
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const type = event.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) =>
        kind === 'done' ? '✓ ' : '✗ ',
      );
      const detail = event.error
        ? ` (${event.error.message.slice(0, 20)})`
        : event.unread !== undefined
          ? ` ${event.unread}`
          : '';
      return `${type}${detail}`;
    });
  return `${JSON.stringify(path.state.value)} ← ${steps.join(' → ') || 'start'}`;
}

/** What each fake actor must have been asked. */
function expectFirstPage(input: unknown) {
  expect(input).toEqual({ before: null, limit: 2 });
}
function expectOlderPage(input: unknown) {
  expect(input).toEqual({ before: 11, limit: 2 });
}

const handlers = {
  // A new count, as the live count (unreadCount.model.test.tsx) tells it from the stream.
  'unread.changed': async (step: { event: unknown }) => {
    const { unread } = step.event as { unread: number };
    act(() => h.stream.emit(unread));
  },
  'xstate.done.actor.listNotifications': settle('listNotifications', expectFirstPage),
  'xstate.error.actor.listNotifications': settle('listNotifications'),
  'xstate.done.actor.listMore': settle('listNotifications', expectOlderPage),
  'xstate.error.actor.listMore': async (step: { event: unknown }) => {
    await settle('listNotifications')(step);
    expect(await screen.findByText(MORE_FAILED)).toBeTruthy();
  },
  'xstate.done.actor.markRead': settle('markRead'),
  'xstate.error.actor.markRead': async (step: { event: unknown }) => {
    await settle('markRead')(step);
    expect(await screen.findByText(READ_FAILED)).toBeTruthy();
  },
  'panel.toggle': async () => {
    await h.ux.click(bell());
  },
  'panel.close': async () => {
    // Escape closes the panel and gives the focus back to the bell.
    await h.ux.keyboard('{Escape}');
    expect(document.activeElement).toBe(bell());
  },
  'page.enter': async () => {
    const open = panel();
    // From the panel's link, or straight to the address (the bell on a phone, a bookmark).
    if (open) await h.ux.click(within(open).getByRole('link', { name: 'See all notifications' }));
    else act(() => h.location.navigate('/notifications'));
    expect(h.location.history.at(-1)).toBe('/notifications');
  },
  'page.leave': async () => {
    await h.ux.click(within(screen.getByRole('main')).getByRole('link', { name: 'E-mail settings' }));
    expect(h.location.history.at(-1)).toBe('/settings/notifications');
  },
  'feed.more': async () => {
    await h.ux.click(screen.getByRole('button', { name: 'Show older notifications' }));
  },
  retry: async () => {
    await h.ux.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
  },
  'read.all': async () => {
    await h.ux.click(screen.getByRole('button', { name: 'Mark all as read' }));
  },
  'item.open': async (step: { event: unknown }) => {
    const { id } = step.event as { id: number };
    const item = [newest, older, oldest].find((candidate) => candidate.id === id)!;
    await h.ux.click(
      within(panel()!).getByRole('link', { name: new RegExp(item.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }),
    );
    // The app goes to the exact place.
    expect(h.location.history.at(-1)).toBe(item.link);
  },
};

describe('notificationFeed model: the feed in the panel and on the page', () => {
  const model = createPathModel(notificationFeedMachine, {
    input: { pageSize: 2 },
    events: (snapshot) => {
      const s = snapshot as Snapshot;
      const { items, unread, pending, sending } = s.context;
      const list: NotificationFeedEvent[] = [];
      const quiet = pending.ids.length === 0 && !pending.all && sending.ids.length === 0 && !sending.all;
      if (s.matches({ panel: 'closed' }) && !s.matches({ reads: 'marking' })) list.push({ type: 'panel.toggle' });
      if (s.matches({ panel: 'closed' }) && s.matches({ feed: 'idle' })) list.push({ type: 'page.enter' });
      if (s.matches({ panel: 'open' })) {
        list.push({ type: 'panel.close' });
        if (s.matches({ feed: 'loaded' }) && quiet) {
          list.push({ type: 'page.enter' }, { type: 'panel.toggle' });
          const unreadItem = items.find((item) => !item.read);
          if (unreadItem) list.push({ type: 'item.open', id: unreadItem.id });
          else if (items.length === 2) list.push({ type: 'item.open', id: older.id });
        }
      }
      if (s.matches({ panel: 'page' }) && (s.matches({ feed: 'loaded' }) || s.matches({ feed: 'loadFailed' })) && quiet)
        list.push({ type: 'page.leave' });
      if (s.matches({ feed: 'loaded' }) && quiet && !s.matches({ panel: 'closed' })) {
        if (items.length === 2 && items.some((item) => !item.read))
          list.push({ type: 'feed.more' }, { type: 'read.all' });
        if (unread !== 9 && items.every((item) => item.read === (item.id !== newest.id)))
          list.push({ type: 'unread.changed', unread: 9 });
      }
      if (s.matches({ feed: 'loadFailed' }) && !s.matches({ panel: 'closed' })) list.push({ type: 'retry' });
      if (s.matches({ feed: 'loading' })) {
        list.push(actorEvent('xstate.done.actor.listNotifications', { output: firstPage }));
        if (unread === null) list.push(actorEvent('xstate.error.actor.listNotifications', { error: offline }));
      }
      if (s.matches({ feed: 'loadingMore' })) {
        list.push(
          actorEvent('xstate.done.actor.listMore', { output: secondPage }),
          actorEvent('xstate.error.actor.listMore', { error: offline }),
        );
      }
      if (s.matches({ reads: 'marking' })) {
        list.push(
          actorEvent('xstate.done.actor.markRead', { output: { unread: 0 } }),
          actorEvent('xstate.error.actor.markRead', { error: offline }),
        );
      }
      return list.filter((event) => event.type.startsWith('xstate.') || s.can(event));
    },
  });
  const paths = model.getShortestPaths();
  it('has paths to the states of the feed', () => {
    expect(paths.length).toBeGreaterThan(10);
  });
  for (const path of paths) {
    it(`${pathTitle(path)}`, async () => {
      h = renderFeed();
      await path.test({ states: { '*': checkView }, events: handlers });
      // Marked read on the server as on screen: the ids opened, or all.
      for (const call of h.fakes.markRead.calls)
        expect([{ ids: [newest.id] }, { all: true }]).toContainEqual(call.input);
    });
  }
});
