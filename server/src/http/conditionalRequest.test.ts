import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isNotModified, type Validators } from './conditionalRequest.ts';

/** Runs the check for a request with these headers; returns its answer and the headers it set. */
function check(headers: Record<string, string>, validators: Validators, method = 'GET') {
  const set: Record<string, string> = {};
  const reply = { header: (name: string, value: string) => (set[name] = value) };
  const notModified = isNotModified({ method, headers } as unknown as FastifyRequest, reply as unknown as FastifyReply, validators);
  return { notModified, set };
}

describe('isNotModified', () => {
  const etag = '"abc"';
  it('sets the validators whatever the request', () => {
    const lastModified = new Date('2026-11-28T01:02:03.456Z');
    expect(check({}, { etag, lastModified })).toEqual({ notModified: false, set: { etag, 'last-modified': 'Sat, 28 Nov 2026 01:02:03 GMT' } });
  });

  it('compares If-None-Match weakly, in a list, with *', () => {
    expect(check({ 'if-none-match': '"abc"' }, { etag }).notModified).toBe(true);
    expect(check({ 'if-none-match': '"other", W/"abc"' }, { etag }).notModified).toBe(true);
    expect(check({ 'if-none-match': '"abc"' }, { etag: 'W/"abc"' }).notModified).toBe(true);
    expect(check({ 'if-none-match': '*' }, { etag }).notModified).toBe(true);
    expect(check({ 'if-none-match': '"other"' }, { etag }).notModified).toBe(false);
  });

  it('reads If-Modified-Since only without If-None-Match, to the second', () => {
    const lastModified = new Date('2026-11-28T01:02:03.456Z');
    expect(check({ 'if-modified-since': 'Sat, 28 Nov 2026 01:02:03 GMT' }, { etag, lastModified }).notModified).toBe(true);
    expect(check({ 'if-modified-since': 'Sat, 28 Nov 2026 01:02:02 GMT' }, { etag, lastModified }).notModified).toBe(false);
    expect(check({ 'if-modified-since': 'not a date' }, { etag, lastModified }).notModified).toBe(false);
    expect(check({ 'if-modified-since': 'Sat, 28 Nov 2026 01:02:03 GMT' }, { etag }).notModified).toBe(false);
    expect(check({ 'if-none-match': '"other"', 'if-modified-since': 'Sat, 28 Nov 2026 01:02:03 GMT' }, { etag, lastModified }).notModified).toBe(false);
  });

  it('answers a GET or HEAD only', () => {
    expect(check({ 'if-none-match': '"abc"' }, { etag }, 'HEAD').notModified).toBe(true);
    expect(check({ 'if-none-match': '"abc"' }, { etag }, 'POST').notModified).toBe(false);
  });
});
