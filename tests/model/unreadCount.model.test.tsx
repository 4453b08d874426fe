import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  POLL_INTERVAL_MS,
  unreadCountMachine,
  type UnreadCountEvent,
} from '../../src/machines/unreadCount/unreadCountMachine.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { bellLabel } from '../../src/views/notifications/NotificationBell.tsx';
import { checkStates } from './support/checkStates.ts';
import { answerAsStep } from './support/deferred.ts';
import { checkedShortestPaths, pathName, stepLabel } from './support/paths.ts';
import { bell, closeFeed, renderFeed, type FeedHarness } from './support/notificationFeedPage.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(unreadCountMachine);

type Snapshot = ReturnType<typeof unreadCountMachine.getInitialSnapshot>;
type Step = { event: unknown };

const offline = new NetworkError();
const AFTER_POLL = 'xstate.after.pollInterval.unreadCount.polling.waiting';
const actorEvent = (type: string, payload: Record<string, unknown> = {}) =>
  ({ type, ...payload }) as unknown as UnreadCountEvent;

let h: FeedHarness;

afterEach(closeFeed);

/** The bell says the last count heard, with its badge while some are unread. */
async function expectBell(s: Snapshot) {
  const { unread } = s.context;
  await waitFor(() => expect(bell().getAttribute('aria-label')).toBe(bellLabel(unread)));
  expect(bell().querySelector('span')?.textContent ?? null).toBe(unread !== null && unread > 0 ? String(unread) : null);
}

const checks: Record<string, (s: Snapshot) => Promise<void>> = {
  streaming: async (s) => {
    await expectBell(s);
    expect(h.stream.opened).toBe(1);
    expect(h.stream.closed).toBe(0);
  },
  'polling.fetching': async (s) => {
    await expectBell(s);
    // The poll asks with the version of the last answer (none before the first).
    await waitFor(() => expect(h.fakes.pollUnread.calls.map((c) => c.input)).toEqual([{ etag: s.context.etag }]));
  },
  'polling.waiting': async (s) => {
    await expectBell(s);
    expect(h.fakes.pollUnread.calls).toEqual([]);
  },
};
const states = checkStates<Snapshot>(checks);

const settlePoll = (step: Step) => answerAsStep(h.fakes.pollUnread.next(), step);

const events = {
  'unread.changed': async (step: Step) => {
    const { unread } = step.event as { unread: number };
    act(() => h.stream.emit(unread));
  },
  'stream.failed': async () => {
    act(() => h.stream.fail());
    expect(h.stream.closed).toBe(1);
  },
  'xstate.done.actor.pollUnread': settlePoll,
  'xstate.error.actor.pollUnread': settlePoll,
  [AFTER_POLL]: async () => {
    act(() => h.clock.increment(POLL_INTERVAL_MS - 1));
    expect(h.fakes.pollUnread.calls).toHaveLength(0);
    act(() => h.clock.increment(1));
    await waitFor(() => expect(h.fakes.pollUnread.calls).toHaveLength(1));
  },
};

/** Streamed counts first; then polls: a changed count, a 304, a failure, and one tick after a version. */
function modelEvents(snapshot: unknown): UnreadCountEvent[] {
  const s = snapshot as Snapshot;
  const list: UnreadCountEvent[] = [];
  if (s.matches('streaming')) {
    if (s.context.unread === null) list.push({ type: 'unread.changed', unread: 2 });
    list.push({ type: 'stream.failed' });
  }
  if (s.matches({ polling: 'fetching' })) {
    list.push(
      actorEvent('xstate.done.actor.pollUnread', { output: { changed: true, unread: 4, etag: 'W/"4"' } }),
      actorEvent('xstate.done.actor.pollUnread', { output: { changed: false } }),
      actorEvent('xstate.error.actor.pollUnread', { error: offline }),
    );
  }
  // One tick after the first answer is enough to show the next poll and its ETag.
  if (s.matches({ polling: 'waiting' }) && s.context.etag !== null) list.push(actorEvent(AFTER_POLL));
  return list;
}

const label = (event: { type: string; unread?: number; output?: { changed?: boolean } }) =>
  event.type === AFTER_POLL
    ? '30 s later'
    : `${stepLabel(event.type)}${event.type === 'unread.changed' ? ` ${event.unread}` : ''}${event.output?.changed === false ? ' (304)' : ''}`;

describe('unreadCount model: the live count (stream, then polling with ETag)', () => {
  // The model alone has no feed to tell: its paths are drawn without one (the tests run the real feed).
  const alone = unreadCountMachine.provide({ actions: { tellFeed: () => undefined } });
  const paths = checkedShortestPaths(alone, { events: modelEvents }, checks, 3);
  for (const path of paths) {
    it(`${pathName(path, label)}`, async () => {
      h = renderFeed();
      expect(h.stream.opened).toBe(1);
      await path.test({ states, events });
    });
  }
});
