import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors.ts';
import { parseJsonBody } from './requestGuards.ts';

/** The message of the 400 HttpError that parsing `text` throws. */
function refusal(text: string): string {
  let thrown: unknown = null;
  try {
    parseJsonBody(text);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(HttpError);
  expect((thrown as HttpError).statusCode).toBe(400);
  return (thrown as HttpError).message;
}

describe('parseJsonBody', () => {
  it('parses JSON and reads an empty body as no body', () => {
    expect(parseJsonBody('{"a":[1,"x",{"b":null}]}')).toEqual({ a: [1, 'x', { b: null }] });
    expect(parseJsonBody('')).toBeUndefined();
    expect(parseJsonBody(' \n\t')).toBeUndefined();
    expect(parseJsonBody('null')).toBeNull();
  });

  it('refuses invalid JSON', () => {
    expect(refusal('{"a":')).toBe('The request body is not valid JSON.');
    expect(refusal("{'a':1}")).toBe('The request body is not valid JSON.');
  });

  it('refuses NUL characters in strings and keys, however deep', () => {
    const message = 'Text in the request body must not contain NUL characters.';
    expect(refusal('"a\\u0000"')).toBe(message);
    expect(refusal('{"a":[{"b":["x","y\\u0000"]}]}')).toBe(message);
    expect(refusal('{"a\\u0000b":1}')).toBe(message);
    expect(parseJsonBody('{"a":"back\\\\u0000slash"}')).toEqual({ a: 'back\\u0000slash' });
  });

  it('refuses lone surrogates (text that is not Unicode) in strings and keys, and keeps real pairs', () => {
    const message = 'Text in the request body must be valid Unicode.';
    expect(refusal('"\\ud800"')).toBe(message);
    expect(refusal('{"a":["x\\udfffy"]}')).toBe(message);
    expect(refusal('{"\\udc00":1}')).toBe(message);
    expect(refusal('"\\ude00\\ud83d"')).toBe(message);
    expect(parseJsonBody('{"a":"\\ud83d\\ude00 é 中 \\u200b"}')).toEqual({ a: '😀 é 中 \u200b' });
  });

  it('refuses prototype-poisoning keys', () => {
    expect(refusal('{"__proto__":{"isAdmin":true}}')).toMatch(/"__proto__"/);
    expect(refusal('{"a":{"\\u005f_proto__":1}}')).toMatch(/"__proto__"/);
    expect(refusal('{"constructor":{"prototype":{"x":1}}}')).toMatch(/"constructor"/);
    expect(parseJsonBody('{"constructor":"fine"}')).toEqual({ constructor: 'fine' });
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    const depth = 100_000;
    expect(() => parseJsonBody(`${'['.repeat(depth)}"x"${']'.repeat(depth)}`)).not.toThrow();
    expect(refusal(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`)).toMatch(/NUL/);
  });
});
