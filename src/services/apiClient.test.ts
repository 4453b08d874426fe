import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApiClient } from './apiClient.ts';
import { ApiError, ContractError, NetworkError, toUiError } from './errors.ts';

function fakeFetch(status: number, body: unknown, capture?: (url: string, init: RequestInit) => void) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    capture?.(String(input), init ?? {});
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof fetch;
}

const Schema = z.object({ id: z.number(), name: z.string() });

describe('apiClient', () => {
  it('sends JSON with its headers (never a token: the session travels in its HttpOnly cookie) and parses the answer with the schema', async () => {
    let seen: { url: string; init: RequestInit } | null = null;
    const client = createApiClient({
      baseUrl: 'http://portal.test/api/v1',
      hasSession: () => true,
      headers: { 'x-practicefolio-client': 'web' },
      fetch: fakeFetch(200, { id: 1, name: 'A', extra: 'dropped' }, (url, init) => (seen = { url, init })),
    });
    const result = await client.request({
      method: 'POST',
      path: '/things',
      body: { name: 'A' },
      query: { q: 'x y', none: undefined },
      schema: Schema,
    });
    expect(result).toEqual({ id: 1, name: 'A' });
    expect(seen!.url).toBe('http://portal.test/api/v1/things?q=x+y');
    const headers = new Headers(seen!.init.headers as HeadersInit);
    expect(headers.get('authorization')).toBeNull();
    expect(headers.get('x-practicefolio-client')).toBe('web');
    expect(headers.get('content-type')).toBe('application/json');
    expect(seen!.init.body).toBe(JSON.stringify({ name: 'A' }));
  });

  it('sends no authorization header without a session either', async () => {
    let headers: Headers | null = null;
    const client = createApiClient({
      baseUrl: 'http://portal.test/api/v1',
      hasSession: () => false,
      fetch: fakeFetch(200, { id: 1, name: 'A' }, (_u, init) => (headers = new Headers(init.headers as HeadersInit))),
    });
    await client.request({ method: 'GET', path: '/x', schema: Schema });
    expect(headers!.get('authorization')).toBeNull();
  });

  it('sends the request before a schema still loading has arrived, and parses the answer with it', async () => {
    let sent = false;
    const client = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => true,
      fetch: fakeFetch(200, { id: 1, name: 'A', extra: 'dropped' }, () => (sent = true)),
    });
    let arrive: (schema: typeof Schema) => void = () => undefined;
    const schema = new Promise<typeof Schema>((resolve) => (arrive = resolve));
    const result = client.request({ method: 'GET', path: '/x', schema });
    await vi.waitFor(() => expect(sent).toBe(true));
    arrive(Schema);
    expect(await result).toEqual({ id: 1, name: 'A' });
  });

  it("reports a failed request's error, not the failure of a schema still loading", async () => {
    const client = createApiClient({ baseUrl: 'http://x/api/v1', hasSession: () => false, fetch: fakeFetch(500, {}) });
    const schema = Promise.reject(new Error('chunk failed'));
    const error = await client.request({ method: 'GET', path: '/x', schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
  });

  it('turns an answer that breaks the contract into a ContractError', async () => {
    const client = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => false,
      fetch: fakeFetch(200, { id: 'one' }),
    });
    const error = await client.request({ method: 'GET', path: '/x', schema: Schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect(toUiError(error).kind).toBe('unexpected');
  });

  it('turns error bodies into ApiError with the plain or nested message', async () => {
    const plain = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => false,
      fetch: fakeFetch(404, {
        statusCode: 404,
        error: 'Not Found',
        message: 'Portfolio not found.',
        code: 'not_found',
      }),
    });
    const e1 = (await plain
      .request({ method: 'GET', path: '/p/1', schema: Schema })
      .catch((e: unknown) => e)) as ApiError;
    expect(e1).toBeInstanceOf(ApiError);
    expect([e1.status, e1.code, e1.message]).toEqual([404, 'not_found', 'Portfolio not found.']);
    expect(toUiError(e1)).toEqual({ kind: 'notFound', status: 404, message: 'Portfolio not found.' });

    const nested = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => false,
      fetch: fakeFetch(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: [{ messages: [{ id: 'Auth.x', message: 'Incorrect code provided.' }] }],
      }),
    });
    const e2 = (await nested
      .request({ method: 'POST', path: '/auth/reset-password', schema: Schema })
      .catch((e: unknown) => e)) as ApiError;
    expect(e2.message).toBe('Incorrect code provided.');
    expect(e2.body).toContain('Incorrect code provided.');
  });

  it('keeps a non-JSON error text as the message', async () => {
    const client = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => false,
      fetch: fakeFetch(502, 'Bad gateway from proxy'),
    });
    const error = (await client
      .request({ method: 'GET', path: '/x', schema: Schema })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('Bad gateway from proxy');
  });

  it('reports a 401 of a signed-in call to the session, and not of an anonymous one', async () => {
    const onUnauthorized = vi.fn();
    const body = { statusCode: 401, error: 'Unauthorized', message: 'Invalid token.' };
    const signedIn = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => true,
      onUnauthorized,
      fetch: fakeFetch(401, body),
    });
    await signedIn.request({ method: 'GET', path: '/users/me', schema: Schema }).catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    const anonymous = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => false,
      onUnauthorized,
      fetch: fakeFetch(401, body),
    });
    await anonymous.request({ method: 'GET', path: '/users/me', schema: Schema }).catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('turns a failed connection into a NetworkError', async () => {
    const client = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => false,
      fetch: vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }) as unknown as typeof fetch,
    });
    const error = await client.request({ method: 'GET', path: '/x', schema: Schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(toUiError(error).kind).toBe('network');
  });

  it('never settles a cancelled request (a restarted actor must not receive its abort)', async () => {
    const controller = new AbortController();
    const client = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => false,
      fetch: vi.fn(
        (_input: RequestInfo | URL, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ) as unknown as typeof fetch,
    });
    const settled = vi.fn();
    void client
      .request({ method: 'GET', path: '/x', schema: Schema, signal: controller.signal })
      .then(settled, settled);
    controller.abort();
    // Everything the abort set going has run: every timer and every promise it queued.
    vi.useFakeTimers();
    try {
      await vi.runAllTimersAsync();
    } finally {
      vi.useRealTimers();
    }
    expect(settled).not.toHaveBeenCalled();
  });
});

describe('apiClient: a session that ended during work', () => {
  const refusal = { statusCode: 401, error: 'Unauthorized', message: 'You need to log in.', code: 'unauthorized' };
  function answers(...list: { status: number; body: unknown }[]) {
    const bodies: unknown[] = [];
    const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(init?.body);
      const next = list.shift()!;
      return new Response(JSON.stringify(next.body), {
        status: next.status,
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof globalThis.fetch;
    return { fetch, bodies };
  }

  it('a 401 waits for the user to sign in again, then the same call is sent again', async () => {
    const { fetch, bodies } = answers({ status: 401, body: refusal }, { status: 200, body: { id: 1, name: 'Saved' } });
    const onUnauthorized = vi.fn();
    const reauthenticate = vi.fn(async () => true);
    const client = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => true,
      fetch,
      onUnauthorized,
      reauthenticate,
    });
    await expect(
      client.request({ method: 'PUT', path: '/things/1', body: { name: 'Saved' }, schema: Schema }),
    ).resolves.toEqual({ id: 1, name: 'Saved' });
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(bodies).toEqual([JSON.stringify({ name: 'Saved' }), JSON.stringify({ name: 'Saved' })]);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('gave up: the 401 stands and the session ends; a refused password never asks', async () => {
    const gaveUp = answers({ status: 401, body: refusal });
    const onUnauthorized = vi.fn();
    const client = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => true,
      fetch: gaveUp.fetch,
      onUnauthorized,
      reauthenticate: async () => false,
    });
    await expect(client.request({ method: 'GET', path: '/things/1', schema: Schema })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    const password = answers({ status: 401, body: refusal });
    const reauthenticate = vi.fn(async () => true);
    const login = createApiClient({
      baseUrl: 'http://x/api/v1',
      hasSession: () => true,
      fetch: password.fetch,
      reauthenticate,
    });
    await expect(
      login.request({ method: 'POST', path: '/auth/local', body: {}, schema: Schema, reauthenticate: false }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(reauthenticate).not.toHaveBeenCalled();
  });
});
