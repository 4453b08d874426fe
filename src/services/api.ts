import { createApiClient, type ApiClient } from './apiClient.ts';
import { hasSession, WEB_CLIENT_HEADERS } from './session.ts';

let client: ApiClient | null = null;
let unauthorizedHandler: () => void = () => undefined;

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
    hasSession,
    headers: WEB_CLIENT_HEADERS,
    onUnauthorized: () => unauthorizedHandler(),
  });
  return client;
}

/** Replaces the app's API client (tests). */
export function setApiClient(next: ApiClient | null): void {
  client = next;
}
