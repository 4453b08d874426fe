import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LoginBodySchema } from '#schemas/auth';
import { SESSION_TTL_SECONDS } from '../security/tokens.ts';
import { setSessionCookies } from './webSession.ts';

/** The cookies a reply was asked to set, with their options. */
function recordCookies(persistent: boolean, protocol = 'http') {
  const set: { name: string; value: string; options: Record<string, unknown> }[] = [];
  const reply = {
    setCookie: (name: string, value: string, options: Record<string, unknown>) => set.push({ name, value, options }),
  };
  setSessionCookies(
    { protocol } as FastifyRequest,
    reply as unknown as FastifyReply,
    'h.p.s',
    'http://portal.test',
    persistent,
  );
  return set;
}

describe('setSessionCookies', () => {
  it('gives a session that is not kept browser-session cookies: no maxAge, no expires', () => {
    const set = recordCookies(false);
    expect(set.map((c) => c.name)).toEqual(['jwt', 'pf_session']);
    for (const cookie of set) {
      expect(cookie.options, cookie.name).not.toHaveProperty('maxAge');
      expect(cookie.options, cookie.name).not.toHaveProperty('expires');
    }
    expect(set[0]!.options).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/', secure: false });
  });

  it('gives a kept session ("keep me signed in") cookies that live as long as a token', () => {
    const set = recordCookies(true, 'https');
    expect(set.map((c) => [c.name, c.options['maxAge'], c.options['secure']])).toEqual([
      ['jwt', SESSION_TTL_SECONDS, true],
      ['pf_session', SESSION_TTL_SECONDS, true],
    ]);
  });
});

describe('LoginBodySchema', () => {
  it('takes an optional boolean remember and still refuses unknown fields', () => {
    const body = { identifier: 'tess@example.org', password: 'secret' };
    expect(LoginBodySchema.parse(body)).toEqual(body);
    expect(LoginBodySchema.parse({ ...body, remember: true })).toEqual({ ...body, remember: true });
    expect(LoginBodySchema.safeParse({ ...body, remember: 'true' }).success).toBe(false);
    expect(LoginBodySchema.safeParse({ ...body, keep: true }).success).toBe(false);
  });
});
