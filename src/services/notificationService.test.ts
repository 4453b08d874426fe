import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeNotification } from '../test/notificationHarness.tsx';
import { setApiClient } from './api.ts';
import { ApiError, ContractError, NetworkError } from './errors.ts';
import {
  listNotifications,
  markNotificationsRead,
  openUnreadStream,
  pollUnreadCount,
  unsubscribe,
} from './notificationService.ts';

afterEach(() => {
  setApiClient(null);
  vi.unstubAllGlobals();
});

type Call = { url: string; init: RequestInit };

function stubFetch(answer: (call: Call) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const call = { url: String(input), init };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('the feed', () => {
  it('asks for a page older than an item and parses it', async () => {
    const item = makeNotification({ id: 3 });
    const calls = stubFetch(() => json({ items: [item], unread: 1 }));
    expect(await listNotifications({ before: 9, limit: 30 })).toEqual({ items: [item], unread: 1 });
    expect(calls[0]!.url).toMatch(/\/api\/v1\/notifications\?before=9&limit=30$/);
  });

  it('refuses an answer outside the contract', async () => {
    stubFetch(() => json({ items: [{ id: 'x' }], unread: 1 }));
    await expect(listNotifications({})).rejects.toBeInstanceOf(ContractError);
  });

  it('marks items read with the portal header (the same-origin proof) and returns the count', async () => {
    const calls = stubFetch(() => json({ unread: 2 }));
    expect(await markNotificationsRead({ ids: [4, 5] })).toEqual({ unread: 2 });
    expect(calls[0]!.init.method).toBe('POST');
    expect(new Headers(calls[0]!.init.headers).get('x-practicefolio-client')).toBe('web');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ ids: [4, 5] });
  });
});

describe('the polled count', () => {
  it('sends the version it was given and reads the new count and version', async () => {
    const calls = stubFetch(() => json({ unread: 4 }, 200, { etag: 'W/"4"' }));
    expect(await pollUnreadCount('W/"3"')).toEqual({ changed: true, unread: 4, etag: 'W/"4"' });
    const headers = new Headers(calls[0]!.init.headers);
    expect(headers.get('if-none-match')).toBe('W/"3"');
    expect(headers.get('x-practicefolio-client')).toBe('web');
    expect(calls[0]!.init.cache).toBe('no-store');
  });

  it('takes a 304 as "unchanged"', async () => {
    stubFetch(() => new Response(null, { status: 304 }));
    expect(await pollUnreadCount('W/"4"')).toEqual({ changed: false });
  });

  it('turns refusals, an unreachable server and a wrong body into typed errors', async () => {
    stubFetch(() => json({ statusCode: 401, error: 'Unauthorized', message: 'Your session has ended.' }, 401));
    await expect(pollUnreadCount(null)).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
      message: 'Your session has ended.',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(pollUnreadCount(null)).rejects.toBeInstanceOf(NetworkError);
    stubFetch(() => json({ unread: -1 }));
    await expect(pollUnreadCount(null)).rejects.toBeInstanceOf(ContractError);
  });
});

describe('the live stream', () => {
  class FakeEventSource {
    static last: FakeEventSource | null = null;
    listeners = new Map<string, ((event: { data?: string }) => void)[]>();
    closed = false;
    constructor(
      readonly url: string,
      readonly init: { withCredentials?: boolean },
    ) {
      FakeEventSource.last = this;
    }
    addEventListener(type: string, listener: (event: { data?: string }) => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    close() {
      this.closed = true;
    }
    dispatch(type: string, data?: string) {
      for (const listener of this.listeners.get(type) ?? []) listener(data === undefined ? {} : { data });
    }
  }

  it('hears each count, and reports a failure once and closes', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const counts: number[] = [];
    const failures: Error[] = [];
    const close = openUnreadStream(
      (n) => counts.push(n),
      (e) => failures.push(e),
    );
    const source = FakeEventSource.last!;
    expect(source.url).toMatch(/\/api\/v1\/notifications\/stream$/);
    source.dispatch('unread', '{"unread":3}');
    source.dispatch('unread', '{"unread":0}');
    expect(counts).toEqual([3, 0]);
    source.dispatch('error');
    source.dispatch('error');
    expect(failures).toHaveLength(1);
    expect(source.closed).toBe(true);
    close();
  });

  it('takes an event outside the contract as a failure', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const failures: Error[] = [];
    openUnreadStream(
      () => undefined,
      (e) => failures.push(e),
    );
    FakeEventSource.last!.dispatch('unread', '{"unread":"many"}');
    expect(failures[0]).toBeInstanceOf(ContractError);
  });

  it('fails at once where the browser has no EventSource (the feed then polls)', () => {
    vi.stubGlobal('EventSource', undefined);
    const failures: Error[] = [];
    openUnreadStream(
      () => undefined,
      (e) => failures.push(e),
    );
    expect(failures[0]).toBeInstanceOf(NetworkError);
  });
});

describe('unsubscribe', () => {
  it('posts the token and reads what was turned off', async () => {
    const calls = stubFetch(() => json({ kind: 'comment', email: 't***@example.org' }));
    expect(await unsubscribe('signed.token')).toEqual({ kind: 'comment', email: 't***@example.org' });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ token: 'signed.token' });
  });

  it('passes on the clear message of a refused link', async () => {
    stubFetch(() =>
      json({ statusCode: 400, error: 'Bad Request', message: 'This unsubscribe link has expired.' }, 400),
    );
    const failure = await unsubscribe('old').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('This unsubscribe link has expired.');
  });
});
