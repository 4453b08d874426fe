import { computed, signal } from '@preact/signals-core';
import Cookies from 'js-cookie';
import type { User } from '../schemas/user.ts';

/** Name of the cookie that keeps the session token (architecture §4). */
export const TOKEN_COOKIE = 'jwt';
const ORIGIN_KEY = 'practicefolio.origin';

/** `unknown` until the stored token has been checked with `GET /users/me`. */
export type SessionStatus = 'unknown' | 'anonymous' | 'authenticated';

/** The signed-in user, or `null`. */
export const currentUser = signal<User | null>(null);
/** Where the session stands. */
export const sessionStatus = signal<SessionStatus>('unknown');
/** The signed-in user's role type, or `null`. */
export const currentRole = computed(() => currentUser.value?.role.type ?? null);

/** The stored session token, if any. */
export function getToken(): string | null {
  return Cookies.get(TOKEN_COOKIE) ?? null;
}

/** Keeps the token for the whole site (`path=/`), `SameSite=Lax`, `Secure` on https. */
export function storeToken(token: string): void {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  Cookies.set(TOKEN_COOKIE, token, { path: '/', sameSite: 'Lax', secure, expires: 30 });
}

/** Forgets the token. */
export function clearToken(): void {
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
}

/** Starts the session of a user whose token was just stored or checked. */
export function signIn(user: User): void {
  currentUser.value = user;
  sessionStatus.value = 'authenticated';
}

/** Forgets the session here (`endServerSession` ends it on the server). */
export function signOut(): void {
  clearToken();
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
