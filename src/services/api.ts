import { createApiClient, type ApiClient } from './apiClient.ts';
import type { ApiError } from './errors.ts';
import { fetchWithPrefetched } from './prefetch.ts';
import { hasSession, sessionStatus, WEB_CLIENT_HEADERS } from './session.ts';

let client: ApiClient | null = null;
let unauthorizedHandler: () => void = () => undefined;
let reauthenticationHandler: ((error: ApiError) => Promise<boolean>) | null = null;

/**
 * What to do when a signed-in user's call gets 401: the app asks them to sign in again over the
 * page and resolves `true` once they did (the call is retried), `false` if they gave up.
 */
export function setReauthenticationHandler(handler: ((error: ApiError) => Promise<boolean>) | null): void {
  reauthenticationHandler = handler;
}

/** What to do when the server says the session is over (the app ends the session). */
export function setUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

/** The API base of this page: same origin, `/api/v1`. */
export function apiBase(): string {
  return `${location.origin}/api/v1`;
}

/** The app's API client (created on first use; tests configure their own). */
export function api(): ApiClient {
  client ??= createApiClient({
    baseUrl: apiBase(),
    // A signed-in user whose cookies are gone (cleared, expired) still had a session.
    hasSession: () => hasSession() || sessionStatus.value === 'authenticated',
    headers: WEB_CLIENT_HEADERS,
    // The first page's first requests may have gone out as the app started (`prefetchPage`).
    fetch: fetchWithPrefetched((...args) => fetch(...args)),
    onUnauthorized: () => unauthorizedHandler(),
    reauthenticate: async (error) =>
      reauthenticationHandler && sessionStatus.value === 'authenticated' ? reauthenticationHandler(error) : false,
  });
  return client;
}

/** Replaces the app's API client (tests). */
export function setApiClient(next: ApiClient | null): void {
  client = next;
}
