import { afterEach, describe, expect, it, vi } from 'vitest';
import { endServerSession } from './logout.ts';
import { clearToken, storeToken } from './session.ts';

describe('endServerSession', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearToken();
  });

  it('ends the session on the server with its token, and survives an unreachable server', async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError('offline')));
    vi.stubGlobal('fetch', fetch);
    storeToken('the-token');
    endServerSession();
    expect(fetch).toHaveBeenCalledWith(`${location.origin}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: 'Bearer the-token' }, keepalive: true });
    await Promise.resolve();
  });

  it('calls nothing without a session', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    endServerSession();
    expect(fetch).not.toHaveBeenCalled();
  });
});
