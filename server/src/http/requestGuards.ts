import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';

const NUL = '\u0000';
/** A UTF-16 surrogate without its partner: not a character, and refused by PostgreSQL's jsonb. */
const LONE_SURROGATE = /\p{Cs}/u;

/** 400 for a body that cannot be used; PostgreSQL text and jsonb cannot hold NUL characters. */
const nulInBody = () => new HttpError(400, 'invalid_text', 'Text in the request body must not contain NUL characters.');
/** 400 for text that is not Unicode (a `\ud800` escape on its own). */
const brokenUnicode = () => new HttpError(400, 'invalid_text', 'Text in the request body must be valid Unicode.');

function checkText(text: string): void {
  if (text.includes(NUL)) throw nulInBody();
  if (LONE_SURROGATE.test(text)) throw brokenUnicode();
}

/**
 * Parses a JSON request body. An empty body is "no body" (mobile clients send the JSON content
 * type on every call). Refuses invalid JSON, prototype-poisoning keys (`__proto__`,
 * `constructor.prototype`) and NUL characters or lone surrogates (text that is not Unicode) in any key or string.
 * @throws HttpError 400 with a plain message.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  // Walked with an explicit stack: a deeply nested body must not overflow the call stack.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      checkText(item);
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, element] of Object.entries(item)) {
        checkText(key);
        if (
          key === '__proto__' ||
          (key === 'constructor' && element !== null && typeof element === 'object' && 'prototype' in element)
        ) {
          throw new HttpError(400, 'invalid_json', `The request body contains the forbidden field name "${key}".`);
        }
        pending.push(element);
      }
    }
  }
  return value;
}

/** `onRequest` hook: refuses a URL that carries an encoded NUL character (`%00`) anywhere. */
export async function rejectNulInUrl(request: FastifyRequest): Promise<void> {
  if (request.url.includes('%00')) {
    throw new HttpError(400, 'invalid_text', 'The address of the request must not contain NUL characters.');
  }
}
