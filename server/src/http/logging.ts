import type { FastifyRequest } from 'fastify';

/**
 * A request URL with secrets removed: reset codes in `/reset-password/<code>`, media capability
 * addresses (`/uploads/<capability>/<file>`, which open the file without a session for hours),
 * and any `code`, `token`, `jwt`, `password`, `capability` or `signature` query parameter.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/reset-password\/)[^/?#]+/gi, '$1[redacted]')
    .replace(/(\/uploads\/)[^/?#]+(?=\/)/gi, '$1[redacted]')
    .replace(/([?&](?:code|token|jwt|password|access_token|capability|cap|sig|signature|t)=)[^&#]*/gi, '$1[redacted]');
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
 * or hashes of secrets). E-mail addresses in the message and stack are replaced.
 */
export function serializeError(error: unknown): LoggedError {
  return describeError(error, 0);
}

/** An e-mail address inside free text (a mail server's refusal often quotes the recipient). */
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}/g;

/** Text with every e-mail address replaced by `[e-mail]`. */
function redactEmails(text: string): string {
  return text.replace(EMAIL_IN_TEXT, '[e-mail]');
}

function describeError(error: unknown, depth: number): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: redactEmails(String(error)), stack: '' };
  const e = error as Error & Record<string, unknown>;
  const out: LoggedError = { type: e.name, message: redactEmails(e.message), stack: redactEmails(e.stack ?? '') };
  for (const key of ['code', 'statusCode', 'constraint', 'table', 'column', 'routine']) {
    if (typeof e[key] === 'string' || typeof e[key] === 'number') out[key] = e[key];
  }
  if (e.cause !== undefined && depth < 3) out['cause'] = describeError(e.cause, depth + 1);
  return out;
}

/**
 * The server's logger: `false` silences it; otherwise at `level` (to `stream` when given), with
 * requests and errors logged without secrets and the credentials' headers removed.
 */
export function loggerOptions(options: false | { level: string; stream?: { write(line: string): void } | undefined }) {
  if (options === false) return false;
  return {
    level: options.level,
    ...(options.stream ? { stream: options.stream } : {}),
    serializers: { req: serializeRequest, err: serializeError },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
  };
}
