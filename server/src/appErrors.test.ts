import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Db } from './db/client.ts';
import { createResearcher, createTeacher } from '../test/factories.ts';
import { buildTestApp } from '../test/helper.ts';
import { buildLoggedApp } from '../test/fixtures/app.ts';

describe('error answers', async () => {
  const t = await buildTestApp();
  const researcher = await createResearcher(t);
  const raw = (url: string, body: string | Buffer, contentType = 'application/json', token: string | null = null) =>
    t.api({ method: 'POST', url, payload: body, headers: { 'content-type': contentType }, token });

  it('uses the common body for an unknown route and a wrong method', async () => {
    expect(await t.api({ method: 'GET', url: '/nothing-here' })).toBeApiError(404, 'No route GET /api/v1/nothing-here.');
    expect(await t.api({ method: 'DELETE', url: '/users/me', token: researcher.token })).toBeApiError(404, 'No route DELETE /api/v1/users/me.');
  });

  it('refuses invalid JSON, a JSON array, a scalar and null with 400', async () => {
    expect(await raw('/invitations/outside', '{"email":', 'application/json', researcher.token)).toBeApiError(400, 'The request body is not valid JSON.');
    expect(await raw('/auth/local', '{"identifier":"a" "password":"b"}')).toBeApiError(400, 'The request body is not valid JSON.', { nested: true });
    expect(await raw('/auth/local', '[{"identifier":"a","password":"b"}]')).toBeApiError(400, 'The request body must be an object.', { nested: true });
    expect(await raw('/auth/local', '"text"')).toBeApiError(400, 'The request body must be an object.');
    expect(await raw('/auth/local', '42')).toBeApiError(400, 'The request body must be an object.');
    expect(await raw('/auth/local', 'null')).toBeApiError(400, 'The request body is required.');
  });

  it('reads an empty body with a JSON content type as no body', async () => {
    expect(await raw('/auth/local', '')).toBeApiError(400, 'The request body is required.', { nested: true });
    expect(await raw('/invitations/outside', '  \n', 'application/json', researcher.token)).toBeApiError(400, 'The request body is required.');
    const refresh = await raw('/token/refresh', '', 'application/json', researcher.token);
    expect(refresh.statusCode).toBe(200);
    const me = await t.api({ method: 'GET', url: '/users/me', token: researcher.token, headers: { 'content-type': 'application/json' } });
    expect(me.statusCode).toBe(200);
  });

  it('refuses other content types with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/vnd.api+json']) {
      expect(await raw('/auth/local', 'identifier=a&password=b', type)).toBeApiError(415, 'This content type is not accepted here.');
    }
    const ok = await raw('/auth/local', JSON.stringify({ identifier: 'nobody@example.org', password: 'x' }), 'application/json; charset=utf-8');
    expect(ok).toBeApiError(400, 'Identifier or password invalid.');
  });

  it('refuses a body over 1 MiB with 413 and huge strings with 400', async () => {
    expect(await raw('/auth/local', JSON.stringify({ identifier: 'a'.repeat(1_100_000), password: 'x' }))).toBeApiError(413, 'The request body is too large.');
    const big = 'x'.repeat(900_000);
    expect(await t.api({ method: 'POST', url: '/auth/local', payload: { identifier: big, password: 'x' } })).toBeApiError(400, 'identifier must be at most 254 characters.');
    expect(await t.api({ method: 'POST', url: '/auth/forgot-password', payload: { email: big } })).toBeApiError(400, 'email must be at most 254 characters.');
    expect(await t.api({ method: 'POST', url: '/invitations/outside', token: researcher.token, payload: { email: 'big@example.org', username: big, roleId: 1 } })).toBeApiError(400,
      'Field User Name must be at most 100 characters.');
    expect(await t.api({ method: 'POST', url: '/auth/reset-password', payload: { code: big, password: 'x', passwordConfirmation: 'x' } })).toBeApiError(400);
  });

  it('refuses NUL characters in bodies and addresses with 400 instead of failing in the database', async () => {
    const nulMessage = 'Text in the request body must not contain NUL characters.';
    expect(await t.api({ method: 'POST', url: '/auth/local', payload: { identifier: 'a\u0000b@example.org', password: 'x' } })).toBeApiError(400, nulMessage);
    expect(await t.api({ method: 'POST', url: '/auth/local', payload: { identifier: 'user\u0000name', password: 'x' } })).toBeApiError(400, nulMessage);
    expect(await t.api({ method: 'POST', url: '/auth/forgot-password', payload: { email: 'a\u0000@example.org' } })).toBeApiError(400, nulMessage);
    expect(await t.api({ method: 'POST', url: '/invitations/outside', token: researcher.token, payload: { email: 'nul@example.org', username: 'a\u0000b', roleId: 1 } })).toBeApiError(400,
      nulMessage);
    expect(await raw('/auth/local', '{"identifier\\u0000":"a","password":"b"}')).toBeApiError(400, nulMessage);
    expect(await t.api({ method: 'GET', url: '/users?role=1%00', token: researcher.token })).toBeApiError(400, 'The address of the request must not contain NUL characters.');
    // An escaped backslash followed by "u0000" is ordinary text.
    expect(await raw('/auth/local', '{"identifier":"a\\\\u0000b","password":"b"}')).toBeApiError(400, 'Identifier or password invalid.');
  });

  it('refuses prototype-poisoning keys', async () => {
    expect(await raw('/auth/local', '{"identifier":"a","password":"b","__proto__":{"admin":true}}')).toBeApiError(400, /forbidden field name "__proto__"/);
    expect(await raw('/invitations/outside', '{"email":"a@b.org","username":"x","roleId":1,"constructor":{"prototype":{}}}', 'application/json', researcher.token)).toBeApiError(400,
      /forbidden field name "constructor"/);
  });

  it('answers a deeply nested body without overflowing', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const res = await raw('/auth/local', deep);
    expect(res.statusCode).toBe(400);
  });

  it('answers an address that cannot be decoded with the common body', async () => {
    expect(await t.api({ method: 'PUT', url: '/users/%E0%A4%A', token: researcher.token, payload: { blocked: true } })).toBeApiError(400, 'The address of the request is not valid.');
  });

  describe('never answers 5xx, whatever the input', async () => {
    const target = await createTeacher(t);
    const routes = [
      { method: 'POST' as const, url: '/auth/local', token: null },
      { method: 'POST' as const, url: '/auth/forgot-password', token: null },
      { method: 'POST' as const, url: '/auth/reset-password', token: null },
      { method: 'POST' as const, url: '/invitations/outside', token: researcher.token },
      { method: 'PUT' as const, url: `/users/${target.user.id}`, token: researcher.token },
      { method: 'POST' as const, url: '/token/refresh', token: researcher.token },
    ];

    it('for any JSON body', async () => {
      let address = 0;
      for (const route of routes) {
        await fc.assert(
          fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (body) => {
            const res = await t.api({
              method: route.method,
              url: route.url,
              token: route.token,
              payload: JSON.stringify(body),
              headers: { 'content-type': 'application/json' },
              remoteAddress: `10.9.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
            });
            expect(res).toBeHandled();
          }),
          { numRuns: 60 },
        );
      }
    });

    it('for any object with the expected keys', async () => {
      const anything = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.string({ unit: 'binary', maxLength: 300 }));
      const bodies = {
        '/auth/local': fc.record({ identifier: anything, password: anything }),
        '/auth/forgot-password': fc.record({ email: anything }),
        '/auth/reset-password': fc.record({ code: anything, password: anything, passwordConfirmation: anything }),
        '/invitations/outside': fc.record({ email: anything, username: anything, roleId: anything }),
      } as const;
      let address = 0;
      for (const [url, arbitrary] of Object.entries(bodies)) {
        await fc.assert(
          fc.asyncProperty(arbitrary, async (body) => {
            const res = await t.api({
              method: 'POST',
              url,
              token: url === '/invitations/outside' ? researcher.token : null,
              payload: body,
              remoteAddress: `10.8.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
            });
            expect(res).toBeHandled();
          }),
          { numRuns: 60 },
        );
      }
    });

    it('for any raw body and any path or query text', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
          const res = await raw('/auth/local', text);
          expect(res).toBeHandled();
        }),
        { numRuns: 100 },
      );
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), async (text) => {
          const segment = encodeURIComponent(text);
          const put = await t.api({ method: 'PUT', url: `/users/${segment}`, token: researcher.token, payload: { blocked: false } });
          expect(put).toBeHandled();
          const list = await t.api({ method: 'GET', url: `/users?role_ne=${segment}`, token: researcher.token });
          expect(list).toBeHandled();
        }),
        { numRuns: 100 },
      );
    });
  });
});

describe('unexpected failures', async () => {
  // A database that fails the way drivers do: the error carries the statement and its parameters.
  const failing = (db: Db): Db =>
    new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver) as unknown;
        return <T>(fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>) =>
          target.transaction((tx) =>
            fn({
              async query(sql, params) {
                if (sql.includes('SET password_hash')) {
                  throw Object.assign(new Error('could not write the row'), { code: 'XX000', query: sql, params, detail: `Failing row contains (${String(params)})` });
                }
                return tx.query(sql, params);
              },
            }),
          );
      },
    });
  const s = await buildLoggedApp({}, failing);

  it('answers 500 with the common body and logs the failure without the values it carried', async () => {
    const user = await createTeacher(s);
    await s.api({ method: 'POST', url: '/auth/forgot-password', payload: { email: user.user.email } });
    const code = s.mail.lastTo(user.user.email)!.links[0]!.split('/').pop()!;
    s.lines.length = 0;
    const res = await s.api({ method: 'POST', url: '/auth/reset-password', payload: { code, password: 'the new password', passwordConfirmation: 'the new password' } });
    expect(res).toBeApiError(500, 'An internal server error occurred.');
    expect(res.body).not.toMatch(/could not write|password_hash|XX000/);
    const failure = s.lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((e) => e['msg'] === 'unexpected error');
    expect(failure?.['err']).toMatchObject({ type: 'Error', message: 'could not write the row', code: 'XX000' });
    const text = s.lines.join('\n');
    expect(text).not.toContain('scrypt$');
    expect(text).not.toContain('Failing row');
    expect(text).not.toContain('the new password');
    expect(text).not.toContain(code);
  });
});
