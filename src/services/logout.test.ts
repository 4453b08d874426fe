import { afterEach, describe, expect, it, vi } from 'vitest';
import { endServerSession, offerProviderLogout, resetProviderLogoutForTests, takeProviderLogout } from './logout.ts';
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
    expect(await endServerSession()).toBeNull();
    expect(fetch).toHaveBeenCalledWith(`${location.origin}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { 'x-practicefolio-client': 'web' },
      credentials: 'same-origin',
      keepalive: true,
      signal: expect.any(AbortSignal),
    });
  });

  it('answers the provider’s sign-out the server offers; an answer of another shape offers none', async () => {
    const offer = { label: 'District ADFS', url: 'https://adfs.example/ls?SAMLRequest=x' };
    const answer = (body: unknown) =>
      vi.stubGlobal(
        'fetch',
        async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
      );
    Cookies.set(SESSION_MARKER, '1', { path: '/' });
    answer({ providerLogout: offer });
    expect(await endServerSession()).toEqual(offer);
    answer({});
    expect(await endServerSession()).toBeNull();
    answer({ providerLogout: { label: 3 } });
    expect(await endServerSession()).toBeNull();
  });

  it('calls nothing without a session', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    void endServerSession();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('the provider’s sign-out across the reload', () => {
  afterEach(() => {
    sessionStorage.clear();
    resetProviderLogoutForTests();
  });

  it('is taken once, and stays the same for the rest of the page load', () => {
    const offer = { label: 'District ADFS', url: 'https://adfs.example/ls?SAMLRequest=x' };
    offerProviderLogout(offer);
    expect(takeProviderLogout()).toEqual(offer);
    expect(sessionStorage.length).toBe(0);
    expect(takeProviderLogout()).toEqual(offer);
    resetProviderLogoutForTests();
    expect(takeProviderLogout()).toBeNull();
  });

  it('only an http(s) address is followed', () => {
    offerProviderLogout({ label: 'x', url: 'javascript:alert(1)' });
    expect(takeProviderLogout()).toBeNull();
  });
});
