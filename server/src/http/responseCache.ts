import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from './auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The cache generation when a cacheable request arrived (its answer may be kept under it). */
    cacheGeneration?: number;
  }
}

/** How a cached answer is found again: the exact token and the exact URL (with its query). */
const keyOf = (token: string, url: string): string => `${token}\n${url}`;

/** The `exp` claim of a token already verified once, in milliseconds (0 when unreadable). */
function expiresAt(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
  } catch {
    return 0;
  }
}

interface Entry {
  generation: number;
  expires: number;
  body: string;
}

/**
 * Answers of a few read routes kept in memory, per session token and URL, for the embedded
 * database, where this process is the only writer. Every request that may write (any method but
 * GET, HEAD and OPTIONS) empties the cache when it begins and when it ends, and nothing is kept
 * while one is under way; the pruning of expired rows empties it too. An answer computed across a
 * change belongs to the generation it started in and is dropped. Entries also expire after
 * `ttlMs` and with their token (a bound on staleness should a write outlive its abandoned
 * request), and the cache holds at most `maxEntries` answers, `maxBytes` in all.
 */
export class ResponseCache {
  private current = 0;
  private bytes = 0;
  private writes = 0;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly limits: { ttlMs: number; maxEntries: number; maxBytes: number; maxEntryBytes: number }) {}

  get generation(): number {
    return this.current;
  }

  /** A request that may write has begun: forget everything, keep nothing until it ends. */
  beginWrite(): void {
    this.writes += 1;
    this.invalidate();
  }

  /** A request that may write has ended (answered or abandoned). */
  endWrite(): void {
    this.writes -= 1;
    this.invalidate();
  }

  /** Forgets every answer: something may have changed. */
  invalidate(): void {
    this.current += 1;
    this.entries.clear();
    this.bytes = 0;
  }

  /** The kept answer for this token and URL, if it is still good. */
  get(token: string, url: string, now = Date.now()): string | null {
    const key = keyOf(token, url);
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.generation !== this.current || entry.expires <= now) {
      this.remove(key, entry);
      return null;
    }
    // Most recently used last, so that eviction takes the least recently used first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  /** Keeps an answer computed in `generation`, unless something changed since or it is too large. */
  set(token: string, url: string, generation: number, body: string, now = Date.now()): void {
    const size = Buffer.byteLength(body);
    if (this.writes > 0 || generation !== this.current || size > this.limits.maxEntryBytes) return;
    const expires = Math.min(now + this.limits.ttlMs, expiresAt(token));
    if (expires <= now) return;
    const key = keyOf(token, url);
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    this.entries.set(key, { generation, expires, body });
    this.bytes += size;
    for (const [oldKey, oldEntry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.remove(oldKey, oldEntry);
    }
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= Buffer.byteLength(entry.body);
  }
}

/** The read routes whose answers depend only on the caller and the database (no clock, no files). */
export const CACHEABLE_ROUTES: ReadonlySet<string> = new Set([
  '/api/v1/users/me',
  '/api/v1/portfolios',
  '/api/v1/portfolios/:id',
  '/api/v1/shared-portfolios',
  '/api/v1/shared-portfolios/:id',
]);

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const cacheable = (request: FastifyRequest): boolean => request.method === 'GET' && CACHEABLE_ROUTES.has(request.routeOptions.url ?? '');

/**
 * Serves and keeps the answers of `CACHEABLE_ROUTES`. Registered after the security headers and
 * before the routes: a kept answer skips authentication and the handler, which is safe because
 * any change to accounts or sessions (blocking, a new password) is a write that empties the cache.
 */
export function registerResponseCache(app: FastifyInstance, cache: ResponseCache): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!READS.has(request.method)) {
      cache.beginWrite();
      // 'close' comes once per response: after it was sent, or when the client went away.
      reply.raw.once('close', () => cache.endWrite());
      return;
    }
    if (!cacheable(request)) return;
    const token = bearerToken(request);
    if (!token) return;
    const body = cache.get(token, request.url);
    if (body === null) {
      request.cacheGeneration = cache.generation;
      return;
    }
    return reply.type('application/json; charset=utf-8').header('x-response-cache', 'hit').send(body);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.cacheGeneration === undefined || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const token = bearerToken(request);
    if (token) cache.set(token, request.url, request.cacheGeneration, payload);
    return payload;
  });
}
