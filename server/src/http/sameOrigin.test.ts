import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isSameOrigin, requireSameOrigin, requireSameOriginDownload } from './sameOrigin.ts';
import { CROSS_SITE_MESSAGE } from './webSession.ts';

const PUBLIC_URL = 'https://portal.example.org';
const request = (headers: Record<string, string>, method = 'POST') =>
  ({ method, headers, protocol: 'http', host: 'localhost:3001' }) as unknown as FastifyRequest;

describe('isSameOrigin', () => {
  it('takes what the browser does not say as same-origin', () => {
    expect(isSameOrigin(request({}), PUBLIC_URL)).toBe(true);
  });

  it('accepts the request’s own host or the public address, normalised', () => {
    expect(isSameOrigin(request({ origin: 'http://localhost:3001', 'sec-fetch-site': 'same-origin' }), PUBLIC_URL)).toBe(true);
    expect(isSameOrigin(request({ origin: 'https://portal.example.org:443' }), PUBLIC_URL)).toBe(true);
    expect(isSameOrigin(request({ origin: 'https://evil.example' }), PUBLIC_URL)).toBe(false);
    expect(isSameOrigin(request({ origin: 'null' }), PUBLIC_URL)).toBe(false);
  });

  it('refuses another site, and a typed address unless asked to take it', () => {
    expect(isSameOrigin(request({ 'sec-fetch-site': 'cross-site' }), PUBLIC_URL)).toBe(false);
    expect(isSameOrigin(request({ 'sec-fetch-site': 'same-site' }), PUBLIC_URL)).toBe(false);
    expect(isSameOrigin(request({ 'sec-fetch-site': 'none' }), PUBLIC_URL)).toBe(false);
    expect(isSameOrigin(request({ 'sec-fetch-site': 'none' }), PUBLIC_URL, { typed: true })).toBe(true);
  });
});

describe('requireSameOrigin and requireSameOriginDownload', () => {
  it('let reads through and ask a write for the web app’s header', () => {
    expect(() => requireSameOrigin(request({ 'sec-fetch-site': 'cross-site' }, 'GET'), PUBLIC_URL)).not.toThrow();
    expect(() => requireSameOrigin(request({}), PUBLIC_URL)).toThrow(CROSS_SITE_MESSAGE);
    expect(() => requireSameOrigin(request({ 'x-practicefolio-client': 'web' }), PUBLIC_URL)).not.toThrow();
    expect(() => requireSameOrigin(request({ 'x-practicefolio-client': 'web', 'sec-fetch-site': 'cross-site' }), PUBLIC_URL)).toThrow(CROSS_SITE_MESSAGE);
  });

  it('let a download opened from the portal or typed through, not one from another site', () => {
    expect(() => requireSameOriginDownload(request({ 'sec-fetch-site': 'none' }, 'GET'), PUBLIC_URL)).not.toThrow();
    expect(() => requireSameOriginDownload(request({ 'sec-fetch-site': 'same-origin' }, 'GET'), PUBLIC_URL)).not.toThrow();
    expect(() => requireSameOriginDownload(request({ 'sec-fetch-site': 'cross-site' }, 'GET'), PUBLIC_URL)).toThrow(CROSS_SITE_MESSAGE);
  });
});
