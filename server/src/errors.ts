import type { FastifyError } from 'fastify';
import type { z } from 'zod';

/** An error the API answers with its own status and message (never a 5xx detail). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Answer in the nested `message[0].messages[0].message` shape (the `/auth/*` routes). */
    readonly nested = false,
  ) {
    super(message);
  }
}

/** 400: the request is well-formed but breaks a rule. */
export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, code, message);
/** 400 in the nested shape of the `/auth/*` routes. */
export const authError = (message: string, code = 'auth_error') => new HttpError(400, code, message, true);
/** 401: no valid session. */
export const unauthorized = (message = 'You need to log in.') => new HttpError(401, 'unauthorized', message);
/** 403: the caller may see the object but not do this. */
export const forbidden = (message = 'You are not allowed to do this.') => new HttpError(403, 'forbidden', message);
/** 404: missing, or hidden from the caller. */
export const notFound = (message = 'Not Found') => new HttpError(404, 'not_found', message);
/** 409: the stored version is newer than the one the caller edited. */
export const conflict = (message: string) => new HttpError(409, 'conflict', message);
/** 413: an upload over the size limit. */
export const tooLarge = (message: string) => new HttpError(413, 'too_large', message);
/** 429: too many attempts. */
export const tooManyRequests = (message: string, nested = false) =>
  new HttpError(429, 'too_many_requests', message, nested);
/** 502: a service we depend on (mail) failed. */
export const badGateway = (message: string) => new HttpError(502, 'bad_gateway', message);

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The HTTP reason phrase of a status. */
export function reasonOf(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}

const where = (parts: readonly PropertyKey[]) => parts.map(String).join('.');

/**
 * Describes one Zod issue in plain words, naming the field it concerns. Messages written in the
 * schemas win: a sentence (ending with a full stop) is used as it is, a predicate ("must be …",
 * lower-case first letter) gets the field name in front. Zod's own messages never end with a full
 * stop and start with a capital, so they are replaced by the wording below.
 */
export function describeIssue(issue: z.core.$ZodIssue, part?: string): string {
  const field = where(issue.path);
  const subject = field || (part === 'body' ? 'The request body' : part === 'querystring' ? 'The query' : 'The value');
  if (/[.!?]$/.test(issue.message)) return issue.message;
  if (/^[a-z]/.test(issue.message)) return `${subject} ${issue.message}.`;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const keys = issue.keys.map((k) => `"${k}"`).join(', ');
      const inWhat = field ? ` in ${field}` : part === 'querystring' ? ' in the query' : '';
      return issue.keys.length > 1
        ? `Unknown fields ${keys}${inWhat}; they are not accepted.`
        : `Unknown field ${keys}${inWhat}; it is not accepted.`;
    }
    case 'invalid_type':
      if (issue.input === undefined) return `${subject} is required.`;
      return `${subject} must be ${article(issue.expected)}.`;
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? `${subject} is required.`
          : `${subject} must be at least ${min} characters.`;
      }
      if (issue.origin === 'array') return `${subject} must have at least ${min} item(s).`;
      return issue.inclusive === false
        ? `${subject} must be greater than ${min}.`
        : `${subject} must be at least ${min}.`;
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `${subject} must be at most ${max} characters.`;
      if (issue.origin === 'array') return `${subject} must have at most ${max} item(s).`;
      return issue.inclusive === false ? `${subject} must be less than ${max}.` : `${subject} must be at most ${max}.`;
    }
    case 'invalid_value':
      return `${subject} must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'invalid_format':
      return `${subject} is not valid.`;
    default:
      return `${subject} is not valid.`;
  }
}

function article(expected: string): string {
  const words: Record<string, string> = {
    string: 'a text',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    array: 'a list',
    object: 'an object',
    record: 'an object',
    nan: 'a number',
  };
  return words[expected] ?? expected;
}

/** Whether an error thrown by Fastify or a plugin is a client error (wrong content type, body too large). */
export function isFastifyClientError(error: unknown): error is FastifyError {
  const e = error as Partial<FastifyError> | null;
  return typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500;
}
