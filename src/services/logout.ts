import { apiBase } from './api.ts';
import { hasSession, WEB_CLIENT_HEADERS } from './session.ts';

/**
 * Ends the session on the server (`POST /auth/logout`): its token stops working everywhere at
 * once, the server clears its cookie, and the browser drops what it cached of it. Sent with
 * `keepalive`, so that the page may reload at once; if it fails, the session is forgotten here
 * all the same.
 */
export function endServerSession(): void {
  if (!hasSession() || typeof fetch !== 'function') return;
  fetch(`${apiBase()}/auth/logout`, {
    method: 'POST',
    headers: { ...WEB_CLIENT_HEADERS },
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => undefined);
}
