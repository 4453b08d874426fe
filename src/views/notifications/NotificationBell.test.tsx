import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { NotificationListResponse, NotificationReadBody, UnreadCount } from '../../schemas/notifications.ts';
import { NetworkError } from '../../services/errors.ts';
import type { UnreadPoll } from '../../services/notificationService.ts';
import { fakeStream, makeNotification, renderNotificationFeed } from '../../test/notificationHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { bellLabel } from './NotificationBell.tsx';
import { initialsOf } from './NotificationList.tsx';

const comment = makeNotification({
  id: 30,
  read: false,
  summary: 'Theo Teacher commented on “Ramp race” in Grade 5 PLC',
  link: '/shared-portfolios/1/artifacts/2#comment-77',
});
const invitation = makeNotification({
  id: 29,
  read: true,
  kind: 'invitation_received',
  actor: { id: 2, username: 'Lee Lead' },
  summary: 'Lee Lead invited you to Grade 5 PLC',
  link: '/invitation/7',
});

let stop: (() => void) | null = null;
afterEach(() => {
  cleanup();
  stop?.();
  stop = null;
  clearToasts();
});

function setup({
  pages = [{ items: [comment, invitation], unread: 1 }] as NotificationListResponse[],
  markRead = async (): Promise<UnreadCount> => ({ unread: 0 }),
} = {}) {
  const stream = fakeStream();
  const calls = { list: [] as unknown[], read: [] as NotificationReadBody[], poll: [] as (string | null)[] };
  let page = 0;
  const h = renderNotificationFeed({
    pageSize: 30,
    actors: {
      unreadStream: stream.logic,
      listNotifications: fromPromise<NotificationListResponse, { before: number | null; limit: number }>(
        async ({ input }) => {
          calls.list.push(input);
          const answer = pages[Math.min(page, pages.length - 1)]!;
          page += 1;
          return answer;
        },
      ),
      markRead: fromPromise<UnreadCount, NotificationReadBody>(async ({ input }) => {
        calls.read.push(input);
        return markRead();
      }),
      pollUnread: fromPromise<UnreadPoll, { etag: string | null }>(async ({ input }) => {
        calls.poll.push(input.etag);
        return calls.poll.length === 1 ? { changed: true, unread: 5, etag: 'W/"5"' } : { changed: false };
      }),
    },
  });
  stop = () => h.feed.stop();
  return { ...h, stream, calls };
}

const bell = () => screen.getByRole('button', { name: /^Notifications/ });

describe('the bell', () => {
  it('says the unread count, visibly and in its accessible name, and follows the live count without reload', async () => {
    const h = setup();
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    act(() => h.stream.emit(3));
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 3 unread');
    expect(bell().textContent).toBe('3');
    act(() => h.stream.emit(120));
    expect(bell().textContent).toBe('99+');
    act(() => h.stream.emit(0));
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    expect(bell().textContent).toBe('');
  });

  it('polls the count with its ETag every 30 s once the stream fails', async () => {
    const h = setup();
    act(() => h.stream.fail());
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 5 unread'));
    expect(h.calls.poll).toEqual([null]);
    act(() => h.clock.increment(30_000));
    await waitFor(() => expect(h.calls.poll).toEqual([null, 'W/"5"']));
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 5 unread');
  });

  it('opens the feed in a panel; Escape closes it and gives the focus back', async () => {
    const h = setup();
    await h.ux.click(bell());
    const panel = screen.getByRole('dialog', { name: 'Notifications' });
    expect(bell().getAttribute('aria-expanded')).toBe('true');
    expect(bell().getAttribute('aria-controls')).toBe(panel.id);
    const items = await within(panel).findAllByRole('link', { name: /commented|invited/ });
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Unread: Theo Teacher commented on “Ramp race” in Grade 5 PLC'),
      expect.stringContaining('Lee Lead invited you to Grade 5 PLC'),
    ]);
    expect(items[1]!.textContent).not.toContain('Unread');
    expect(items[0]!.getAttribute('href')).toBe(comment.link);
    expect(within(panel).getByRole('link', { name: 'E-mail settings' }).getAttribute('href')).toBe(
      '/settings/notifications',
    );
    await h.ux.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(bell());
  });

  it('on a phone goes to the Notifications page instead of opening a panel', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(max-width: 767px)', media: query }));
    try {
      const h = setup();
      await h.ux.click(bell());
      expect(h.location.history.at(-1)).toBe('/notifications');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(await screen.findByRole('list', { name: 'Notifications' })).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the feed', () => {
  it('opens an item: marks it read at once, goes to its exact place and tells the server', async () => {
    const h = setup();
    act(() => h.stream.emit(1));
    await h.ux.click(bell());
    const hashes: string[] = [];
    const onHash = () => hashes.push('hashchange');
    window.addEventListener('hashchange', onHash);
    await h.ux.click(await screen.findByRole('link', { name: /Theo Teacher commented/ }));
    window.removeEventListener('hashchange', onHash);
    expect(h.location.history.at(-1)).toBe('/shared-portfolios/1/artifacts/2#comment-77');
    expect(hashes).toEqual(['hashchange']);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    await waitFor(() => expect(h.calls.read).toEqual([{ ids: [30] }]));
    // An item already read goes to its place without asking the server again.
    await h.ux.click(bell());
    const read = await screen.findByRole('link', { name: /Lee Lead invited/ });
    await h.ux.click(read);
    expect(h.location.history.at(-1)).toBe('/invitation/7');
    expect(h.calls.read).toHaveLength(1);
  });

  it('marks all as read, and is quiet about it once nothing is unread', async () => {
    const h = setup();
    await h.ux.click(bell());
    const markAll = await screen.findByRole('button', { name: 'Mark all as read' });
    await waitFor(() => expect(markAll.getAttribute('aria-disabled')).toBe('false'));
    await h.ux.click(markAll);
    await waitFor(() => expect(h.calls.read).toEqual([{ all: true }]));
    expect(screen.queryByText('Unread:', { exact: false })).toBeNull();
    expect(markAll.getAttribute('aria-disabled')).toBe('true');
    await h.ux.click(markAll);
    expect(h.calls.read).toHaveLength(1);
  });

  it('says when marking read failed, and shows the server’s truth again', async () => {
    const h = setup({
      markRead: async () => {
        throw new NetworkError();
      },
    });
    await h.ux.click(bell());
    // The button is there while the feed loads, but marks nothing until the items are on screen.
    const markAll = await screen.findByRole('button', { name: 'Mark all as read' });
    await waitFor(() => expect(markAll.getAttribute('aria-disabled')).toBe('false'));
    await h.ux.click(markAll);
    expect(await screen.findByText('The notifications could not be marked as read.')).toBeTruthy();
    await waitFor(() => expect(h.calls.list).toHaveLength(2));
  });

  it('loads older items on demand, and shows new ones as the count changes while it is open', async () => {
    const older = makeNotification({ id: 20, read: true, summary: 'Ana reacted to “Ramp race”' });
    const fresh = makeNotification({ id: 31, read: false, summary: 'Ana mentioned you in Grade 5 PLC' });
    const full = Array.from({ length: 30 }, (_, i) =>
      makeNotification({ id: 100 - i, read: true, summary: `Item ${100 - i}` }),
    );
    const h = setup({
      pages: [
        { items: full, unread: 0 },
        { items: [older], unread: 0 },
        { items: [fresh, ...full], unread: 1 },
      ],
    });
    await h.ux.click(bell());
    await h.ux.click(await screen.findByRole('button', { name: 'Show older notifications' }));
    expect(await screen.findByText('Ana reacted to “Ramp race”')).toBeTruthy();
    expect(h.calls.list).toEqual([
      { before: null, limit: 30 },
      { before: 71, limit: 30 },
    ]);
    expect(screen.queryByRole('button', { name: 'Show older notifications' })).toBeNull();
    act(() => h.stream.emit(1));
    expect(await screen.findByText('Ana mentioned you in Grade 5 PLC')).toBeTruthy();
  });

  it('says when it could not load, and tries again', async () => {
    let fail = true;
    const stream = fakeStream();
    const h = renderNotificationFeed({
      actors: {
        unreadStream: stream.logic,
        listNotifications: fromPromise<NotificationListResponse>(async () => {
          if (fail) throw new NetworkError();
          return { items: [], unread: 0 };
        }),
        markRead: fromPromise(async () => ({ unread: 0 })),
        pollUnread: fromPromise(async () => ({ changed: false })),
      },
    });
    stop = () => h.feed.stop();
    await h.ux.click(bell());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your notifications could not be loaded. The server could not be reached.');
    fail = false;
    await h.ux.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You have no notifications yet.')).toBeTruthy();
  });
});

describe('helpers', () => {
  it('names the bell with the count and gives initials of names', () => {
    expect(bellLabel(null)).toBe('Notifications');
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(2)).toBe('Notifications, 2 unread');
    expect(initialsOf('Theo  Teacher Jr')).toBe('TT');
    expect(initialsOf('ana')).toBe('A');
  });
});
