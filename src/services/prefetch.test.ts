import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchWithPrefetched, firstRequestsOf, forgetPrefetched, prefetchPage } from './prefetch.ts';

const BASE = 'http://portal.test/api/v1';

/** A `fetch` that answers every request with `status` and records what it was asked. */
function fakeSend(status = 200) {
  const asked: { url: string; init: RequestInit }[] = [];
  const send = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    asked.push({ url: String(input), init: init ?? {} });
    return new Response(JSON.stringify({ n: asked.length }), { status });
  }) as unknown as typeof fetch;
  return { send, asked };
}

afterEach(() => {
  forgetPrefetched();
  vi.useRealTimers();
});

describe('the first requests of a page', () => {
  it('are the GETs each signed-in page sends first, by its address', () => {
    expect(firstRequestsOf('/dashboard')).toEqual(['/portfolios', '/shared-portfolios', '/invitations']);
    expect(firstRequestsOf('/my-portfolios/12')).toEqual(['/portfolios', '/portfolios/12/summary']);
    expect(firstRequestsOf('/my-portfolios/12/artifacts/5/')).toEqual(['/portfolios', '/portfolios/12/summary']);
    expect(firstRequestsOf('/shared-portfolios/3/artifacts/40')).toEqual([
      '/shared-portfolios',
      '/shared-portfolios/3/summary',
      '/shared-artifacts/40',
    ]);
    expect(firstRequestsOf('/shared-portfolios/3')).toEqual(['/shared-portfolios', '/shared-portfolios/3/summary']);
    for (const other of ['/', '/login', '/my-portfolios/12/edit', '/shared-portfolios/new', '/my-portfolios/x'])
      expect(firstRequestsOf(other), other).toEqual([]);
  });
});

describe('answers sent ahead', () => {
  it('answer the same GET once, with the headers of the web app', async () => {
    const ahead = fakeSend();
    prefetchPage(BASE, '/my-portfolios/12', { 'x-practicefolio-client': 'web' }, ahead.send);
    expect(ahead.asked.map((a) => a.url)).toEqual([`${BASE}/portfolios`, `${BASE}/portfolios/12/summary`]);
    const headers = new Headers(ahead.asked[0]!.init.headers as HeadersInit);
    expect(headers.get('x-practicefolio-client')).toBe('web');
    expect(headers.get('accept')).toBe('application/json');

    const later = fakeSend();
    const fetchNow = fetchWithPrefetched(later.send);
    expect(await (await fetchNow(`${BASE}/portfolios`, { method: 'GET' })).json()).toEqual({ n: 1 });
    expect(later.asked).toHaveLength(0);
    // Once only: the next call asks the server.
    await fetchNow(`${BASE}/portfolios`, { method: 'GET' });
    expect(later.asked.map((a) => a.url)).toEqual([`${BASE}/portfolios`]);
  });

  it('never answer another method, and are dropped when not a success (the call is sent as always)', async () => {
    prefetchPage(BASE, '/shared-portfolios/3', {}, fakeSend(401).send);
    const later = fakeSend();
    const fetchNow = fetchWithPrefetched(later.send);
    await fetchNow(`${BASE}/shared-portfolios`, { method: 'POST' });
    const res = await fetchNow(`${BASE}/shared-portfolios/3/summary`, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(later.asked.map((a) => `${a.init.method} ${a.url}`)).toEqual([
      `POST ${BASE}/shared-portfolios`,
      `GET ${BASE}/shared-portfolios/3/summary`,
    ]);
  });

  it('are forgotten when the session ends, and after a few seconds', async () => {
    prefetchPage(BASE, '/dashboard', {}, fakeSend().send);
    forgetPrefetched();
    const later = fakeSend();
    await fetchWithPrefetched(later.send)(`${BASE}/portfolios`, { method: 'GET' });
    expect(later.asked).toHaveLength(1);

    vi.useFakeTimers();
    prefetchPage(BASE, '/dashboard', {}, fakeSend().send);
    vi.advanceTimersByTime(10_001);
    await fetchWithPrefetched(later.send)(`${BASE}/invitations`, { method: 'GET' });
    expect(later.asked).toHaveLength(2);
  });
});
