import {
  ArtifactSharesResponseSchema,
  NotificationListResponseSchema,
  NotificationPreferencesSchema,
  UnreadCountSchema,
  UnsubscribeResponseSchema,
  type ArtifactShare,
  type NotificationListResponse,
  type NotificationPreferences,
  type NotificationPreferencesBody,
  type NotificationReadBody,
  type UnreadCount,
  type UnsubscribeResponse,
} from '../schemas/notifications.ts';
import type { Person } from '../schemas/sharedPortfolio.ts';
import { api, apiBase } from './api.ts';
import { NEVER } from './apiClient.ts';
import { ApiError, ContractError, NetworkError } from './errors.ts';
import { getMembers } from './sharedService.ts';
import { WEB_CLIENT_HEADERS } from './session.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/**
 * One page of the feed, newest first: the newest `limit` items, or those older than `before`.
 * @throws ApiError, NetworkError or ContractError
 */
export function listNotifications(page: { before?: number | undefined; limit?: number | undefined }, signal?: AbortSignal): Promise<NotificationListResponse> {
  return api().request({
    method: 'GET',
    path: '/notifications',
    schema: NotificationListResponseSchema,
    query: { before: page.before, limit: page.limit },
    ...withSignal(signal),
  });
}

/**
 * Marks some items (or all of them) read; answers the unread count after it.
 * @throws ApiError, NetworkError or ContractError
 */
export function markNotificationsRead(body: NotificationReadBody, signal?: AbortSignal): Promise<UnreadCount> {
  return api().request({ method: 'POST', path: '/notifications/read', schema: UnreadCountSchema, body, ...withSignal(signal) });
}

/** The answer to a conditional unread count: a new count with its version, or "unchanged". */
export type UnreadPoll = { changed: true; unread: number; etag: string | null } | { changed: false };

/**
 * The unread count, asked with the version last seen (`If-None-Match`): a `304` answers "unchanged"
 * without a body. The request carries the session cookie and the portal's header, as every API call.
 * @throws ApiError, NetworkError or ContractError
 */
export async function pollUnreadCount(etag: string | null, signal?: AbortSignal): Promise<UnreadPoll> {
  const path = '/notifications/unread';
  let response: Response;
  try {
    response = await fetch(`${apiBase()}${path}`, {
      method: 'GET',
      credentials: 'same-origin',
      // The version is compared here, not by the browser's cache (which would turn a 304 into the old 200).
      cache: 'no-store',
      headers: { accept: 'application/json', ...WEB_CLIENT_HEADERS, ...(etag ? { 'if-none-match': etag } : {}) },
      ...withSignal(signal),
    });
  } catch {
    if (signal?.aborted) return NEVER;
    throw new NetworkError();
  }
  if (response.status === 304) return { changed: false };
  const text = await response.text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON: reported below as an API or contract error.
  }
  if (!response.ok) {
    const message = typeof data === 'object' && data !== null && typeof (data as { message?: unknown }).message === 'string' ? (data as { message: string }).message : `Request failed (${response.status}).`;
    throw new ApiError(response.status, 'unknown', message, text);
  }
  const parsed = UnreadCountSchema.safeParse(data);
  if (!parsed.success) throw new ContractError(path, parsed.error.issues);
  return { changed: true, unread: parsed.data.unread, etag: response.headers.get('etag') };
}

/**
 * Listens to the unread count as the server pushes it (`GET /notifications/stream`, server-sent
 * events): `onUnread` hears the count at once and after every change; `onFailure` hears once that
 * the stream failed (it is closed then). Returns the function that closes it.
 */
export function openUnreadStream(onUnread: (count: number) => void, onFailure: (error: Error) => void): () => void {
  if (typeof EventSource === 'undefined') {
    onFailure(new NetworkError('This browser cannot keep a live connection.'));
    return () => undefined;
  }
  const source = new EventSource(`${apiBase()}/notifications/stream`, { withCredentials: true });
  let closed = false;
  const fail = (error: Error) => {
    if (closed) return;
    closed = true;
    source.close();
    onFailure(error);
  };
  source.addEventListener('unread', (event) => {
    let data: unknown;
    try {
      data = JSON.parse((event as MessageEvent<string>).data);
    } catch {
      data = null;
    }
    const parsed = UnreadCountSchema.safeParse(data);
    if (parsed.success) onUnread(parsed.data.unread);
    else fail(new ContractError('/notifications/stream', parsed.success ? [] : parsed.error.issues));
  });
  source.addEventListener('error', () => fail(new NetworkError('The live connection was lost.')));
  return () => {
    closed = true;
    source.close();
  };
}

/**
 * The e-mail settings of every kind of notification.
 * @throws ApiError, NetworkError or ContractError
 */
export function getNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return api().request({ method: 'GET', path: '/notification-preferences', schema: NotificationPreferencesSchema, ...withSignal(signal) });
}

/**
 * Saves e-mail settings (the kinds sent; the others keep theirs); answers all of them.
 * @throws ApiError, NetworkError or ContractError
 */
export function updateNotificationPreferences(body: NotificationPreferencesBody, signal?: AbortSignal): Promise<NotificationPreferences> {
  return api().request({ method: 'PUT', path: '/notification-preferences', schema: NotificationPreferencesSchema, body, ...withSignal(signal) });
}

/**
 * Turns off the e-mail an unsubscribe link names (no session needed: the token is signed).
 * @throws ApiError (400 for a tampered or expired link), NetworkError or ContractError
 */
export function unsubscribe(token: string, signal?: AbortSignal): Promise<UnsubscribeResponse> {
  return api().request({ method: 'POST', path: '/unsubscribe', schema: UnsubscribeResponseSchema, body: { token }, ...withSignal(signal) });
}

/**
 * Where a personal artifact was shared, with the comment count and latest comments of each copy.
 * @throws ApiError, NetworkError or ContractError
 */
export function getArtifactShares(artifactId: number, signal?: AbortSignal): Promise<ArtifactShare[]> {
  return api().request({ method: 'GET', path: `/artifacts/${artifactId}/shares`, schema: ArtifactSharesResponseSchema, ...withSignal(signal) });
}
