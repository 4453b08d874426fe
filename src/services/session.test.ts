import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import {
  currentAbilities,
  currentUser,
  forgetSession,
  hasSession,
  peekOrigin,
  SESSION_MARKER,
  sessionStatus,
  signIn,
  signOut,
  storeOrigin,
  takeOrigin,
} from './session.ts';
import { TESS_ME, USER_ABILITIES } from '../test/abilityFixtures.ts';

const user = TESS_ME;

afterEach(() => {
  signOut();
});

describe('session', () => {
  it('never holds the token: it only reads the server’s marker that a session cookie exists, and can forget it', () => {
    expect(hasSession()).toBe(false);
    Cookies.set(SESSION_MARKER, '1', { path: '/' });
    expect(hasSession()).toBe(true);
    expect(document.cookie).not.toContain('jwt=');
    forgetSession();
    expect(hasSession()).toBe(false);
  });

  it('signs in and out: the current user and abilities signals follow', () => {
    signIn(user);
    expect(currentUser.value?.id).toBe(7);
    expect(currentAbilities.value).toEqual(USER_ABILITIES.teacher);
    expect(sessionStatus.value).toBe('authenticated');
    Cookies.set(SESSION_MARKER, '1', { path: '/' });
    signOut();
    expect(currentUser.value).toBeNull();
    expect(currentAbilities.value).toBeNull();
    expect(sessionStatus.value).toBe('anonymous');
    expect(hasSession()).toBe(false);
  });

  it('remembers the origin once', () => {
    storeOrigin('/my-portfolios/3?x=1');
    expect(peekOrigin()).toBe('/my-portfolios/3?x=1');
    expect(takeOrigin()).toBe('/my-portfolios/3?x=1');
    expect(takeOrigin()).toBeNull();
  });
});
