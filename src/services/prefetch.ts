/**
 * The first data requests of the page a signed-in visitor opens, sent as the app starts: beside
 * the session check and while the page's code arrives, instead of once the page has rendered. The
 * page's own calls take these answers, each once and only soon after the start. An answer that is
 * not a success is dropped and the call is sent again, so a 401 or an error is handled as always;
 * the server authorizes each request as it does every other (the same cookie, the same headers).
 */

/** How long an answer sent ahead waits for its call; after that the call asks afresh. */
const FRESH_MS = 10_000;

const ID = '([0-9]{1,10})';

/** The GET requests (paths under the API base) each page sends first, by its address. */
const PAGE_REQUESTS: [RegExp, (ids: string[]) => string[]][] = [
  [/^\/dashboard$/, () => ['/portfolios', '/shared-portfolios', '/invitations']],
  [
    new RegExp(`^/my-portfolios/${ID}(?:/artifacts/[0-9]{1,10})?$`),
    ([id]) => ['/portfolios', `/portfolios/${id}/summary`],
  ],
  [
    new RegExp(`^/shared-portfolios/${ID}/artifacts/${ID}$`),
    ([id, artifactId]) => ['/shared-portfolios', `/shared-portfolios/${id}/summary`, `/shared-artifacts/${artifactId}`],
  ],
  [new RegExp(`^/shared-portfolios/${ID}$`), ([id]) => ['/shared-portfolios', `/shared-portfolios/${id}/summary`]],
];

interface Sent {
  at: number;
  response: Promise<Response | null>;
}

const sent = new Map<string, Sent>();

/** The requests page `pathName` sends first (paths under the API base); none for other pages. */
export function firstRequestsOf(pathName: string): string[] {
  const trimmed = pathName.length > 1 ? pathName.replace(/\/$/, '') : pathName;
  for (const [pattern, requests] of PAGE_REQUESTS) {
    const match = pattern.exec(trimmed);
    if (match) return requests(match.slice(1));
  }
  return [];
}

/** Sends the first requests of page `pathName` now (call it only with a session). */
export function prefetchPage(
  apiBase: string,
  pathName: string,
  headers: Record<string, string>,
  send: typeof fetch = (...args) => fetch(...args),
): void {
  for (const path of firstRequestsOf(pathName)) {
    const url = `${apiBase}${path}`;
    const response = send(url, { headers: { accept: 'application/json', ...headers } }).catch(() => null);
    sent.set(url, { at: Date.now(), response });
  }
}

/** The answer sent ahead for a GET of `url`, once, while fresh; `undefined` when there is none. */
export function takePrefetched(url: string): Promise<Response | null> | undefined {
  const entry = sent.get(url);
  if (!entry) return undefined;
  sent.delete(url);
  return Date.now() - entry.at <= FRESH_MS ? entry.response : undefined;
}

/** Drops every answer sent ahead (the session ended, or another began). */
export function forgetPrefetched(): void {
  sent.clear();
}

/**
 * A `fetch` that answers a GET with the successful answer sent ahead for its address, if any,
 * and otherwise (or for any other request) sends it.
 */
export function fetchWithPrefetched(send: typeof fetch): typeof fetch {
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const ahead = method === 'GET' && typeof input === 'string' ? takePrefetched(input) : undefined;
    if (ahead) {
      const response = await ahead;
      if (response?.ok) return response;
    }
    return send(input, init);
  };
}
