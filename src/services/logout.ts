import { apiBase } from './api.ts';
import { getToken } from './session.ts';

/**
 * Ends the session on the server (`POST /auth/logout`): its token stops working everywhere at
 * once and the browser drops what it cached of it. Sent with `keepalive`, so that the page may
 * reload at once; if it fails, the token is forgotten here all the same.
 */
export function endServerSession(): void {
  const token = getToken();
  if (!token || typeof fetch !== 'function') return;
  fetch(`${apiBase()}/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, keepalive: true }).catch(() => undefined);
}
