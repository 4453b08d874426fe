import redaxios from 'redaxios';
import type { z } from 'zod';
import { ApiError, ContractError, NetworkError } from './errors.ts';

/** One API call. */
export interface RequestOptions<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /**
   * The schema of a successful answer; the answer is parsed with it. A promise of it (a schema
   * module still loading) lets the request go out at once, while the module arrives.
   */
  schema: S | Promise<S>;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** `false`: a 401 is this call's own answer (a refused password), not an ended session. */
  reauthenticate?: false;
}

export interface ApiClientOptions {
  /** Absolute base of the API, e.g. `https://portal.example.org/api/v1`. */
  baseUrl: string;
  /** Whether a session is believed to exist (a 401 then means it ended). */
  hasSession: () => boolean;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
  /** Called when the server says the session is no longer valid (401). */
  onUnauthorized?: (error: ApiError) => void;
  /**
   * Asked when a call of a signed-in user gets 401: resolves `true` once the user signed in again
   * (the call is then sent once more, as it was), `false` when they gave up (the 401 stands).
   */
  reauthenticate?: (error: ApiError) => Promise<boolean>;
  fetch?: typeof fetch;
}

export type ApiClient = ReturnType<typeof createApiClient>;

async function messageOf(data: unknown, status: number): Promise<{ message: string; code: string }> {
  // Loaded on the first error only: the login page renders without the schema library.
  const { ApiErrorSchema } = await import('../schemas/common.ts');
  const parsed = ApiErrorSchema.safeParse(data);
  if (!parsed.success) {
    return { message: typeof data === 'string' && data.trim() ? data : `Request failed (${status}).`, code: 'unknown' };
  }
  const m = parsed.data.message;
  const message = typeof m === 'string' ? m : (m[0]?.messages[0]?.message ?? parsed.data.error);
  return { message, code: parsed.data.code ?? 'unknown' };
}

/**
 * The API client: sends JSON (the session travels in its cookie), parses every answer with the call's schema,
 * and turns failures into `ApiError`, `NetworkError` or `ContractError`.
 */
export function createApiClient(options: ApiClientOptions) {
  const baseFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function request<S extends z.ZodType>(req: RequestOptions<S>, retried = false): Promise<z.infer<S>> {
    // A schema still loading is awaited only once the answer is there; a failed request's error wins.
    if (req.schema instanceof Promise) req.schema.catch(() => undefined);
    const signedIn = options.hasSession();
    const query = req.query
      ? Object.fromEntries(
          Object.entries(req.query)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        )
      : undefined;
    let response: { status: number; data: unknown };
    try {
      response = await redaxios(`${options.baseUrl}${req.path}`, {
        method: req.method,
        ...(req.body !== undefined ? { data: req.body } : {}),
        ...(query && Object.keys(query).length > 0 ? { params: query } : {}),
        headers: {
          accept: 'application/json',
          ...options.headers,
        },
        responseType: 'text',
        fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
          baseFetch(input, { ...init, ...(req.signal ? { signal: req.signal } : {}) })) as typeof fetch,
      });
    } catch (failure) {
      // A cancelled request never settles: whoever cancelled it (a state left, a page closed)
      // no longer waits for it, and an actor restarted by React must not receive its abort.
      if (req.signal?.aborted) return NEVER as Promise<z.infer<S>>;
      const res = failure as { status?: unknown; data?: unknown };
      if (typeof res?.status !== 'number' || res.status === 0) throw new NetworkError();
      const text = typeof res.data === 'string' ? res.data : JSON.stringify(res.data ?? '');
      const data = safeJson(text);
      const { message, code } = await messageOf(data, res.status);
      const error = new ApiError(res.status, code, message, text);
      if (res.status === 401 && signedIn && !retried && req.reauthenticate !== false && options.reauthenticate) {
        // The session ended under the user's feet: they sign in again over the page, and the call is sent again.
        if (await options.reauthenticate(error)) {
          if (req.signal?.aborted) return NEVER as Promise<z.infer<S>>;
          return request(req, true);
        }
      }
      if (res.status === 401 && signedIn) options.onUnauthorized?.(error);
      throw error;
    }
    if (req.signal?.aborted) return NEVER as Promise<z.infer<S>>;
    const data = typeof response.data === 'string' ? safeJson(response.data) : response.data;
    const parsed = (await req.schema).safeParse(data);
    if (!parsed.success) throw new ContractError(req.path, parsed.error.issues);
    return parsed.data;
  }

  return { request };
}

/** A promise that never settles (the answer to a cancelled request). */
export const NEVER: Promise<never> = new Promise<never>(() => undefined);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
