import { computed, signal } from '@preact/signals-core';
import Cookies from 'js-cookie';
import type { UserAbilities } from '../schemas/abilities.ts';
import type { Me } from '../schemas/user.ts';
import { forgetPrefetched } from './prefetch.ts';

/**
 * The session token lives in an `HttpOnly` cookie that only the server sets and clears (scripts
 * never see it). Beside it the server sets this readable marker, which only says that a session
 * cookie exists, so that the app knows whether to check it at start.
 */
export const SESSION_MARKER = 'pf_session';
/** Sent with every call: marks the portal's own requests (the server's same-origin proof for writes). */
export const WEB_CLIENT_HEADERS = { 'x-practicefolio-client': 'web' } as const;
const ORIGIN_KEY = 'practicefolio.origin';

/** `unknown` until the stored token has been checked with `GET /users/me`. */
export type SessionStatus = 'unknown' | 'anonymous' | 'authenticated';

/** The signed-in user, or `null`. */
export const currentUser = signal<Me | null>(null);
/** Where the session stands. */
export const sessionStatus = signal<SessionStatus>('unknown');
/** What the server says the signed-in user may do, or `null`. */
export const currentAbilities = computed<UserAbilities | null>(() => currentUser.value?.abilities ?? null);

/** Whether the server has given this browser a session cookie (it may have ended since). */
export function hasSession(): boolean {
  return Cookies.get(SESSION_MARKER) !== undefined;
}

/** Forgets the marker (the server clears the session cookie itself at logout). */
export function forgetSession(): void {
  Cookies.remove(SESSION_MARKER, { path: '/' });
}

/** Starts the session of a user who just signed in, or whose session cookie was just checked. */
export function signIn(user: Me): void {
  currentUser.value = user;
  sessionStatus.value = 'authenticated';
}

/** Forgets the session here (`endServerSession` ends it on the server). */
export function signOut(): void {
  forgetSession();
  // Answers sent ahead with the ended session are not another session's.
  forgetPrefetched();
  currentUser.value = null;
  sessionStatus.value = 'anonymous';
}

/** Remembers the private path an anonymous visitor asked for. */
export function storeOrigin(path: string): void {
  try {
    sessionStorage.setItem(ORIGIN_KEY, path);
  } catch {
    // Storage can be disabled; the visitor then lands on the dashboard.
  }
}

/** Takes (and forgets) the remembered origin. */
export function takeOrigin(): string | null {
  try {
    const origin = sessionStorage.getItem(ORIGIN_KEY);
    sessionStorage.removeItem(ORIGIN_KEY);
    return origin;
  } catch {
    return null;
  }
}

/** Reads the remembered origin without forgetting it. */
export function peekOrigin(): string | null {
  try {
    return sessionStorage.getItem(ORIGIN_KEY);
  } catch {
    return null;
  }
}
