import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, currentRole, currentUser, getToken, peekOrigin, sessionStatus, signIn, signOut, storeOrigin, storeToken, takeOrigin } from './session.ts';
import type { User } from '../schemas/user.ts';

const user: User = {
  id: 7,
  username: 'Tess Teacher',
  email: 'tess@example.org',
  provider: 'local',
  confirmed: true,
  blocked: false,
  role: { id: 1, name: 'Teacher', description: 'Teacher', type: 'authenticated' },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

afterEach(() => {
  signOut();
});

describe('session', () => {
  it('keeps the token in the jwt cookie for the whole site, SameSite=Lax', () => {
    const set = vi.spyOn(Cookies, 'set');
    storeToken('abc');
    expect(getToken()).toBe('abc');
    expect(set).toHaveBeenCalledWith('jwt', 'abc', expect.objectContaining({ path: '/', sameSite: 'Lax', secure: false }));
    clearToken();
    expect(getToken()).toBeNull();
  });

  it('signs in and out: the current user and role signals follow', () => {
    signIn(user);
    expect(currentUser.value?.id).toBe(7);
    expect(currentRole.value).toBe('authenticated');
    expect(sessionStatus.value).toBe('authenticated');
    storeToken('abc');
    signOut();
    expect(currentUser.value).toBeNull();
    expect(sessionStatus.value).toBe('anonymous');
    expect(getToken()).toBeNull();
  });

  it('remembers the origin once', () => {
    storeOrigin('/my-portfolios/3?x=1');
    expect(peekOrigin()).toBe('/my-portfolios/3?x=1');
    expect(takeOrigin()).toBe('/my-portfolios/3?x=1');
    expect(takeOrigin()).toBeNull();
  });
});
