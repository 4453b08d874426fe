import { afterEach, describe, expect, it, vi } from 'vitest';
import { setApiClient } from './api.ts';
import { ApiError, ContractError } from './errors.ts';
import { listSignInMethods, unlinkIdentity } from './userService.ts';

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

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const identity = {
  id: 7,
  provider: 'school',
  label: 'Springfield Schools',
  email: 'tess@springfield.example',
  linked_at: '2026-11-02T09:30:00.000Z',
};

describe('an account’s sign-in methods', () => {
  it('asks for one account’s methods and parses them with the shared contract', async () => {
    const calls = stubFetch(() => json({ password: false, identities: [identity] }));
    expect(await listSignInMethods(12)).toEqual({ password: false, identities: [identity] });
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url).pathname).toBe('/api/v1/users/12/sign-in-methods');
    expect(calls[0]!.init.method).toBe('GET');
  });

  it('an answer of another shape is refused, not shown', async () => {
    stubFetch(() => json({ password: 'yes', identities: [{ ...identity, linked_at: undefined }] }));
    await expect(listSignInMethods(12)).rejects.toBeInstanceOf(ContractError);
  });

  it('unlinks with DELETE and returns the methods the account keeps', async () => {
    const calls = stubFetch(() => json({ password: true, identities: [] }));
    expect(await unlinkIdentity(12, 7)).toEqual({ password: true, identities: [] });
    expect(new URL(calls[0]!.url).pathname).toBe('/api/v1/users/12/identities/7');
    expect(calls[0]!.init.method).toBe('DELETE');
  });

  it('a refusal carries the server’s message', async () => {
    stubFetch(() => json({ statusCode: 404, error: 'Not Found', message: 'That sign-in is not linked.' }, 404));
    const failure = await unlinkIdentity(12, 7).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('That sign-in is not linked.');
  });
});
