import type { LogoutResponse } from '../schemas/sso.ts';
import { apiBase } from './api.ts';
import { hasSession, WEB_CLIENT_HEADERS } from './session.ts';

/** The provider's own sign-out that the server offers after a single sign-on session ends. */
export type ProviderLogout = NonNullable<LogoutResponse['providerLogout']>;

/** How long the page waits for the server's answer before it goes on without the provider's offer. */
const LOGOUT_WAIT_MS = 4000;
/** Where the offer waits across the page load that follows a logout (this tab only). */
const OFFER_KEY = 'pf_provider_logout';

/**
 * Ends the session on the server (`POST /auth/logout`): its token stops working everywhere at
 * once, the server clears its cookie, and the browser drops what it cached of it. Sent with
 * `keepalive`, so that it completes even if the page goes. Answers the provider's own sign-out
 * when the server offers one (a single sign-on session), else `null` — also when the server
 * cannot be reached or is slow: the session is forgotten here all the same.
 */
export async function endServerSession(): Promise<ProviderLogout | null> {
  if (!hasSession() || typeof fetch !== 'function') return null;
  try {
    const res = await fetch(`${apiBase()}/auth/logout`, {
      method: 'POST',
      headers: { ...WEB_CLIENT_HEADERS },
      credentials: 'same-origin',
      keepalive: true,
      signal: AbortSignal.timeout(LOGOUT_WAIT_MS),
    });
    if (!res.ok) return null;
    const { LogoutResponseSchema } = await import('../schemas/sso.ts');
    const parsed = LogoutResponseSchema.safeParse(await res.json());
    return parsed.success ? (parsed.data.providerLogout ?? null) : null;
  } catch {
    return null;
  }
}

/** Keeps the provider's offer for the login page that the next page load shows. */
export function offerProviderLogout(offer: ProviderLogout): void {
  try {
    sessionStorage.setItem(OFFER_KEY, JSON.stringify(offer));
  } catch {
    // Storage refused (private mode): the offer is lost, the logout is not.
  }
}

let taken: ProviderLogout | null | undefined;

/**
 * The provider's offer left by the logout that loaded this page, taken once (the same for the rest
 * of this page load); `null` when there is none. Only an http(s) address is followed.
 */
export function takeProviderLogout(): ProviderLogout | null {
  if (taken !== undefined) return taken;
  taken = null;
  try {
    const text = sessionStorage.getItem(OFFER_KEY);
    sessionStorage.removeItem(OFFER_KEY);
    const offer = text ? (JSON.parse(text) as Partial<ProviderLogout>) : null;
    if (offer && typeof offer.label === 'string' && typeof offer.url === 'string' && /^https?:\/\//.test(offer.url))
      taken = { label: offer.label, url: offer.url };
  } catch {
    taken = null;
  }
  return taken;
}

/** Forgets what this page load took (tests, which load no new page). */
export function resetProviderLogoutForTests(): void {
  taken = undefined;
}
