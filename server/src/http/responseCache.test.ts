import { describe, expect, it } from 'vitest';
import { createResearcher, createTeacher, createUser } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { ResponseCache } from './responseCache.ts';

/** A token whose (unverified) payload expires at `exp` seconds. */
const tokenExpiring = (exp: number) => `h.${Buffer.from(JSON.stringify({ id: 1, exp })).toString('base64url')}.s`;
const LIMITS = { ttlMs: 5_000, maxEntries: 3, maxBytes: 1_000, maxEntryBytes: 400 };
const NOW = 1_800_000_000_000;
const LATER = tokenExpiring(NOW / 1000 + 3600);

describe('ResponseCache', () => {
  it('gives back what it kept, for the same token and URL only', () => {
    const cache = new ResponseCache(LIMITS);
    cache.set(LATER, '/a', cache.generation, '{"a":1}', NOW);
    expect(cache.get(LATER, '/a', NOW + 1)).toBe('{"a":1}');
    expect(cache.get(LATER, '/a?x=1', NOW + 1)).toBeNull();
    expect(cache.get(tokenExpiring(NOW / 1000 + 3600) + 'x', '/a', NOW + 1)).toBeNull();
  });

  it('forgets everything when a write begins, keeps nothing while it runs, and forgets again when it ends', () => {
    const cache = new ResponseCache(LIMITS);
    cache.set(LATER, '/a', cache.generation, '{"a":1}', NOW);
    const before = cache.generation;
    cache.beginWrite();
    expect(cache.get(LATER, '/a', NOW)).toBeNull();
    cache.set(LATER, '/a', cache.generation, '{"a":2}', NOW);
    expect(cache.size).toBe(0);
    cache.endWrite();
    // An answer computed before or during the write belongs to an older generation.
    cache.set(LATER, '/a', before, '{"a":1}', NOW);
    expect(cache.size).toBe(0);
    cache.set(LATER, '/a', cache.generation, '{"a":3}', NOW);
    expect(cache.get(LATER, '/a', NOW)).toBe('{"a":3}');
  });

  it('lets entries expire after the time to live and with their token', () => {
    const cache = new ResponseCache(LIMITS);
    cache.set(LATER, '/a', cache.generation, '{}', NOW);
    expect(cache.get(LATER, '/a', NOW + 4_999)).toBe('{}');
    expect(cache.get(LATER, '/a', NOW + 5_000)).toBeNull();
    const soon = tokenExpiring(NOW / 1000 + 2);
    cache.set(soon, '/a', cache.generation, '{}', NOW);
    expect(cache.get(soon, '/a', NOW + 1_999)).toBe('{}');
    expect(cache.get(soon, '/a', NOW + 2_000)).toBeNull();
    cache.set('not-a-token', '/a', cache.generation, '{}', NOW);
    expect(cache.get('not-a-token', '/a', NOW)).toBeNull();
  });

  it('keeps at most the limits, evicting the least recently used first', () => {
    const cache = new ResponseCache(LIMITS);
    for (const url of ['/1', '/2', '/3']) cache.set(LATER, url, cache.generation, '{}', NOW);
    expect(cache.get(LATER, '/1', NOW)).toBe('{}');
    cache.set(LATER, '/4', cache.generation, '{}', NOW);
    expect([cache.get(LATER, '/1', NOW), cache.get(LATER, '/2', NOW), cache.get(LATER, '/3', NOW), cache.get(LATER, '/4', NOW)]).toEqual(['{}', null, '{}', '{}']);
    cache.set(LATER, '/big', cache.generation, 'x'.repeat(401), NOW);
    expect(cache.get(LATER, '/big', NOW)).toBeNull();
    for (const url of ['/5', '/6', '/7']) cache.set(LATER, url, cache.generation, 'y'.repeat(390), NOW);
    expect(cache.size).toBe(2);
  });
});

describe('the response cache of the embedded server', async () => {
  const t = await buildTestApp({ responseCache: true });

  it('answers a repeated read from memory, byte for byte, with the security headers', async () => {
    const teacher = await createTeacher(t);
    const first = await t.api({ method: 'GET', url: '/portfolios', token: teacher.token });
    const second = await t.api({ method: 'GET', url: '/portfolios', token: teacher.token });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-response-cache']).toBeUndefined();
    expect(second.headers['x-response-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['x-content-type-options']).toBe('nosniff');
    expect(second.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('shows a change made through the API at once', async () => {
    const teacher = await createTeacher(t);
    await t.api({ method: 'GET', url: '/portfolios', token: teacher.token });
    const created = await t.api({ method: 'POST', url: '/portfolios', token: teacher.token, payload: { name: 'Waves and sound' } });
    expect(created.statusCode).toBe(200);
    const after = await t.api({ method: 'GET', url: '/portfolios', token: teacher.token });
    expect(after.headers['x-response-cache']).toBeUndefined();
    expect(after.json().map((p: { name: string }) => p.name)).toContain('Waves and sound');
  });

  it('refuses a blocked account at once, though its answers were kept', async () => {
    const teacher = await createTeacher(t);
    const researcher = await createResearcher(t);
    await t.api({ method: 'GET', url: '/users/me', token: teacher.token });
    expect((await t.api({ method: 'GET', url: '/users/me', token: teacher.token })).headers['x-response-cache']).toBe('hit');
    const blocked = await t.api({ method: 'PUT', url: `/users/${teacher.user.id}`, token: researcher.token, payload: { blocked: true } });
    expect(blocked.statusCode).toBe(200);
    expect((await t.api({ method: 'GET', url: '/users/me', token: teacher.token })).statusCode).toBe(401);
  });

  it('never answers one caller with what another was told, nor a caller without a token', async () => {
    const one = await createTeacher(t);
    const other = await createUser(t, { roleId: 1 });
    const mine = await t.api({ method: 'GET', url: '/users/me', token: one.token });
    await t.api({ method: 'GET', url: '/users/me', token: one.token });
    const theirs = await t.api({ method: 'GET', url: '/users/me', token: other.token });
    expect(theirs.headers['x-response-cache']).toBeUndefined();
    expect(theirs.json().id).toBe(other.user.id);
    expect(mine.json().id).toBe(one.user.id);
    expect((await t.api({ method: 'GET', url: '/users/me', token: null })).statusCode).toBe(401);
  });

  it('keeps no refusal and no route outside its list', async () => {
    const teacher = await createTeacher(t);
    for (let i = 0; i < 2; i++) {
      const missing = await t.api({ method: 'GET', url: '/portfolios/999999', token: teacher.token });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['x-response-cache']).toBeUndefined();
      const invitations = await t.api({ method: 'GET', url: '/invitations', token: teacher.token });
      expect(invitations.headers['x-response-cache']).toBeUndefined();
    }
  });
});
