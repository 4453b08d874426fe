import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../test/clock.ts';
import { hashCode, newOneTimeCode, SESSION_TTL_SECONDS, TokenService } from './tokens.ts';

const SECRET = 's'.repeat(40);

describe('TokenService', () => {
  it('signs a token that verifies to its claims, valid for the session time', async () => {
    const tokens = new TokenService(SECRET);
    const token = await tokens.sign({ id: 7, epoch: 2 });
    expect(await tokens.verify(token)).toEqual({ id: 7, epoch: 2, gen: 0 });
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
      exp: number;
      iat: number;
    };
    expect(payload.exp - payload.iat).toBe(SESSION_TTL_SECONDS);
  });

  it('refuses expired, foreign, tampered and malformed tokens', async () => {
    const tokens = new TokenService(SECRET);
    expect(await tokens.verify(await tokens.sign({ id: 7, epoch: 0 }, -1))).toBeNull();
    expect(await tokens.verify(await new TokenService('o'.repeat(40)).sign({ id: 7, epoch: 0 }))).toBeNull();
    const token = await tokens.sign({ id: 7, epoch: 0 });
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ id: 8, ep: 0, exp: 4_000_000_000 })).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    for (const garbage of ['', 'x', 'a.b.c', `${token}.`]) expect(await tokens.verify(garbage)).toBeNull();
  });

  it('refuses signed tokens whose claims are not a session', async () => {
    const tokens = new TokenService(SECRET);
    const key = new TextEncoder().encode(SECRET);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
    expect(await tokens.verify(await sign({ id: '7', ep: 0 }))).toBeNull();
    expect(await tokens.verify(await sign({ id: 7.5, ep: 0 }))).toBeNull();
    expect(await tokens.verify(await sign({ id: 7 }))).toBeNull();
    expect(await tokens.verify(await sign({ sub: '7', ep: 0 }))).toBeNull();
  });
});

describe('one-time codes', () => {
  it('are random, URL-safe, and stored as their SHA-256', () => {
    const a = newOneTimeCode();
    const b = newOneTimeCode();
    expect(a.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.code).not.toBe(b.code);
    expect(a.hash).toBe(hashCode(a.code));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.code);
  });

  it('verifies a token again as the first time (remembered by its exact text), and its end still by the clock', async () => {
    const clock = new TestClock();
    const tokens = new TokenService(SECRET, clock);
    const token = await tokens.sign({ id: 7, epoch: 2, sid: 'abc', gen: 1 }, 60);
    for (let i = 0; i < 3; i += 1) expect(await tokens.verify(token)).toEqual({ id: 7, epoch: 2, sid: 'abc', gen: 1 });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
    expect(await tokens.verify(` ${token}`)).toBeNull();
    clock.advance(61_000);
    expect(await tokens.verify(token)).toBeNull();
  });
});
