import { afterEach, describe, expect, it, vi } from 'vitest';
import { endServerSession } from './logout.ts';
import Cookies from 'js-cookie';
import { forgetSession, SESSION_MARKER } from './session.ts';

describe('endServerSession', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetSession();
  });

  it('ends the session on the server (its cookie, as the portal’s own request), and survives an unreachable server', async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError('offline')));
    vi.stubGlobal('fetch', fetch);
    Cookies.set(SESSION_MARKER, '1', { path: '/' });
    endServerSession();
    expect(fetch).toHaveBeenCalledWith(`${location.origin}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { 'x-practicefolio-client': 'web' },
      credentials: 'same-origin',
      keepalive: true,
    });
    await Promise.resolve();
  });

  it('calls nothing without a session', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    endServerSession();
    expect(fetch).not.toHaveBeenCalled();
  });
});
