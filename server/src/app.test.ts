import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { AppConfigSchema } from '#schemas/common';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { createResearcher, createTeacher } from '../test/factories.ts';
import { buildTestApp, CapturingMailer, createTestDb, testAppOf, testConfig, type TestApp } from '../test/helper.ts';

const INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><title>PracticeFolio</title>
<!--app-config-->
</head><body><div id="root"></div><script type="module" src="/assets/app-1234.js"></script></body></html>`;

/** A built SPA in a temporary folder: `index.html` with the configuration placeholder, and one asset. */
function spaDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-spa-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log("app");\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The whole server with the SPA, writing its log (every level) into `lines`. */
async function buildLoggedApp(overrides: Partial<Config> = {}, wrapDb: (db: Db) => Db = (db) => db): Promise<TestApp & { lines: string[] }> {
  const db = wrapDb(await createTestDb());
  const config = testConfig({ staticDir: spaDir(), ...overrides });
  const mail = new CapturingMailer();
  const lines: string[] = [];
  const app = await buildApp({ config, db, mailer: mail, logger: { level: 'trace', stream: { write: (line) => lines.push(line) } } });
  await app.ready();
  afterAll(() => app.close());
  return { ...testAppOf(app, db, mail, config), lines };
}

const html = (app: FastifyInstance, url: string, extra: Partial<InjectOptions> = {}) =>
  app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, ...extra });

/** The run-time configuration embedded in a served page. */
function embeddedConfig(page: string): unknown {
  const match = /<script id="app-config" type="application\/json">(.*?)<\/script>/s.exec(page);
  expect(match, 'app-config script').not.toBeNull();
  return JSON.parse(match![1]!);
}

describe('OpenAPI document and docs page', async () => {
  const t = await buildTestApp();

  it('serves an OpenAPI 3 document of every route, generated from the schemas', async () => {
    const res = await t.api({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('PracticeFolio API');
    const routes = Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/v1/health',
        'GET /api/v1/config',
        'POST /api/v1/auth/local',
        'POST /api/v1/auth/forgot-password',
        'POST /api/v1/auth/reset-password',
        'GET /api/v1/users/me',
        'POST /api/v1/token/refresh',
        'GET /api/v1/users',
        'PUT /api/v1/users/{id}',
        'POST /api/v1/invitations/outside',
      ]),
    );
    expect(routes.some((r) => r.includes('openapi.json') || r.includes('/docs'))).toBe(false);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.User.properties).toHaveProperty('role');
    expect(doc.components.schemas.User.properties).not.toHaveProperty('password');
    const put = doc.paths['/api/v1/users/{id}'].put;
    expect(put.requestBody.content['application/json'].schema).toMatchObject({ additionalProperties: false, required: ['blocked'] });
    expect(put.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/User');
    expect(put.responses['403'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiError');
    const list = doc.paths['/api/v1/users'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(list.sort()).toEqual(['query:role', 'query:role_ne']);
  });

  it('serves a docs page that loads the same document without inline scripts', async () => {
    const page = await t.api({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger-ui');
    // The page works under our CSP (script-src 'self'): every script is a file.
    const scripts = page.body.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/ src="\/api\/v1\/docs\//);
    for (const tag of scripts) {
      const src = / src="([^"]+)"/.exec(tag)![1]!;
      expect((await t.app.inject({ method: 'GET', url: src })).statusCode).toBe(200);
    }
    const json = await t.api({ method: 'GET', url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(Object.keys(json.json().paths)).toEqual(Object.keys((await t.api({ method: 'GET', url: '/openapi.json' })).json().paths));
  });
});

describe('single-page app', async () => {
  const s = await buildLoggedApp({
    showcaseUrl: 'https://showcase.example.org/',
    helpUrl: 'https://help.example.org/guide?</script><script>alert(1)</script>',
    feedbackUrl: null,
  });

  it('answers index.html with the embedded run-time configuration for every page of the app', async () => {
    for (const url of ['/', '/login', '/dashboard', '/my-portfolios/3/artifacts/9/edit', '/reset-password/abc', '/home?x=1']) {
      const res = await html(s.app, url);
      expect(res).toHaveStatus(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('<!--app-config-->');
      expect(AppConfigSchema.parse(embeddedConfig(res.body))).toEqual({
        showcaseUrl: 'https://showcase.example.org/',
        helpUrl: 'https://help.example.org/guide?</script><script>alert(1)</script>',
        feedbackUrl: null,
        contactEmail: 'support@example.org',
        researchEmail: null,
        aboutVideoId: null,
        learnMoreUrl: null,
        iosAppUrl: null,
        androidAppUrl: null,
      });
    }
  });

  it('keeps the embedded configuration from closing its script element', async () => {
    const res = await html(s.app, '/');
    expect(res.body.match(/<\/script>/g)).toHaveLength(2);
    expect(res.body).not.toContain('<script>alert(1)');
  });

  it('serves the built files, and never lists a folder', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe('console.log("app");\n');
    expect(await s.app.inject({ method: 'GET', url: '/assets/', headers: { accept: 'application/json' } })).toBeApiError(404);
    expect(await s.app.inject({ method: 'GET', url: '/assets/missing.js' })).toBeApiError(404);
    expect(await html(s.app, '/assets/')).toHaveStatus(200);
  });

  it('answers JSON 404 under /api, for other methods and for clients that do not want HTML', async () => {
    for (const url of ['/api/v1/nothing-here', '/api/v1/users/me/extra', '/api', '/api/', '/api?x=1', '/api/v2/health']) {
      const res = await html(s.app, url);
      expect(res).toBeApiError(404, /^No route GET \/api/);
    }
    expect(await s.app.inject({ method: 'GET', url: '/login', headers: { accept: 'application/json' } })).toBeApiError(404, 'No route GET /login.');
    expect(await s.app.inject({ method: 'POST', url: '/login', headers: { accept: 'text/html' } })).toBeApiError(404, 'No route POST /login.');
    const res = await s.app.inject({ method: 'GET', url: '/api/v1/missing?code=secret-code' });
    expect(res.body).not.toContain('secret-code');
  });

  it('sends the security headers on pages, the API and errors', async () => {
    const responses = [
      await html(s.app, '/dashboard'),
      await html(s.app, '/assets/missing.js'),
      await s.app.inject({ method: 'GET', url: '/api/v1/health' }),
      await s.app.inject({ method: 'GET', url: '/api/v1/users/me' }),
      await html(s.app, '/api/v1/nope'),
      await s.app.inject({ method: 'GET', url: '/api/v1/docs' }),
    ];
    for (const res of responses) {
      const csp = String(res.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "connect-src 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // frame-ancestors says it; X-Frame-Options would repeat it (issue 21 #17).
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['permissions-policy']).toContain('camera=()');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it("sends a built file only the headers a page's file obeys", async () => {
    const res = await s.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    // Plain HTTP: no HSTS (browsers ignore it there; it is sent over HTTPS only).
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const name of ['content-security-policy', 'permissions-policy', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'etag', 'last-modified']) {
      expect(res.headers[name], name).toBeUndefined();
    }
  });
});

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

describe('request logging', async () => {
  const s = await buildLoggedApp();
  const entries = () => s.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const logText = () => s.lines.join('\n');

  it('logs every request with its method, redacted address and status', async () => {
    s.lines.length = 0;
    await s.app.inject({ method: 'GET', url: '/api/v1/health?token=abc123secret' });
    const logged = entries();
    const incoming = logged.find((e) => e['msg'] === 'incoming request');
    expect(incoming?.['req']).toEqual({ method: 'GET', url: '/api/v1/health?token=[redacted]', remoteAddress: '127.0.0.1' });
    const completed = logged.find((e) => e['msg'] === 'request completed');
    expect(completed?.['res']).toMatchObject({ statusCode: 200 });
    expect(logText()).not.toContain('abc123secret');
  });

  it('leaves no password, token, reset code or e-mail address in the log of the whole reset journey', async () => {
    const user = await createTeacher(s);
    s.lines.length = 0;
    const secrets: string[] = [user.password, user.token, user.user.email];

    const good = await s.app.inject({ method: 'POST', url: '/api/v1/auth/local', payload: { identifier: user.user.email, password: user.password } });
    expect(good.statusCode).toBe(200);
    const jwt = AuthResponseSchema.parse(good.json()).jwt;
    secrets.push(jwt);
    await s.app.inject({ method: 'POST', url: '/api/v1/auth/local', payload: { identifier: user.user.email, password: 'a wrong password' } });
    secrets.push('a wrong password');
    await s.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${jwt}`, cookie: `jwt=${jwt}` } });

    expect((await s.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: user.user.email } })).statusCode).toBe(200);
    const link = s.mail.lastTo(user.user.email)!.links[0]!;
    const code = link.split('/').pop()!;
    secrets.push(code);

    const page = await html(s.app, `/reset-password/${code}`);
    expect(page.statusCode).toBe(200);
    await html(s.app, `/reset-password/${code}?from=mail`);

    const reset = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { code, password: 'the new password', passwordConfirmation: 'the new password' },
    });
    expect(reset.statusCode).toBe(200);
    secrets.push('the new password', AuthResponseSchema.parse(reset.json()).jwt);
    // A wrong reset and an invalid body echo nothing into the log either.
    await s.app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { code, password: 'the new password', passwordConfirmation: 'x' } });
    await s.app.inject({ method: 'POST', url: '/api/v1/auth/local', payload: { identifier: user.user.email, password: user.password, extra: 'x' } });

    const text = logText();
    expect(s.lines.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).toContain('/reset-password/[redacted]');
    expect(text.toLowerCase()).not.toMatch(/authorization|cookie|bearer/);
    for (const entry of entries()) expect(entry).not.toHaveProperty('body');
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
