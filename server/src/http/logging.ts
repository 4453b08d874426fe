import type { FastifyRequest } from 'fastify';

/**
 * A request URL with secrets removed: reset codes in `/reset-password/<code>` and any
 * `code`, `token`, `jwt` or `password` query parameter.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/reset-password\/)[^/?#]+/gi, '$1[redacted]')
    .replace(/([?&](?:code|token|jwt|password|access_token)=)[^&#]*/gi, '$1[redacted]');
}

/** The request fields written to the log: never headers, cookies or bodies. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    remoteAddress: request.ip,
  };
}

/** An error as the log shows it. */
export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

/**
 * The error fields written to the log: what identifies the failure, never the values it carried
 * (database drivers attach the query parameters and row details, which may hold personal data
 * or hashes of secrets).
 */
export function serializeError(error: unknown): LoggedError {
  return describeError(error, 0);
}

function describeError(error: unknown, depth: number): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const e = error as Error & Record<string, unknown>;
  const out: LoggedError = { type: e.name, message: e.message, stack: e.stack ?? '' };
  for (const key of ['code', 'statusCode', 'constraint', 'table', 'column', 'routine']) {
    if (typeof e[key] === 'string' || typeof e[key] === 'number') out[key] = e[key];
  }
  if (e.cause !== undefined && depth < 3) out['cause'] = describeError(e.cause, depth + 1);
  return out;
}
