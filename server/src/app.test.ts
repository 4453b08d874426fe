import { describe, expect, it } from 'vitest';
import { AuthResponseSchema } from '#schemas/auth';
import { AppConfigSchema } from '#schemas/common';
import { createTeacher } from '../test/factories.ts';
import { buildTestApp } from '../test/helper.ts';
import { buildLoggedApp, html, embeddedConfig } from '../test/fixtures/app.ts';

describe('OpenAPI document and docs page', async () => {
  const t = await buildTestApp();

  it('serves an OpenAPI 3 document of every route, generated from the schemas', async () => {
    const res = await t.api({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('PracticeFolio API');
    const routes = Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
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
        'GET /api/v1/coverage',
        'GET /api/v1/coverage/artifacts',
      ]),
    );
    expect(routes.some((r) => r.includes('openapi.json') || r.includes('/docs'))).toBe(false);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.User.properties).toHaveProperty('role');
    expect(doc.components.schemas.User.properties).not.toHaveProperty('password');
    const put = doc.paths['/api/v1/users/{id}'].put;
    expect(put.requestBody.content['application/json'].schema).toMatchObject({
      additionalProperties: false,
      required: ['blocked'],
    });
    expect(put.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/User');
    expect(put.responses['403'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiError');
    const list = doc.paths['/api/v1/users'].get.parameters.map(
      (p: { name: string; in: string }) => `${p.in}:${p.name}`,
    );
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
    expect(Object.keys(json.json().paths)).toEqual(
      Object.keys((await t.api({ method: 'GET', url: '/openapi.json' })).json().paths),
    );
  });
});

describe('single-page app', async () => {
  const s = await buildLoggedApp({
    showcaseUrl: 'https://showcase.example.org/',
    helpUrl: 'https://help.example.org/guide?</script><script>alert(1)</script>',
    feedbackUrl: null,
  });

  it('answers index.html with the embedded run-time configuration for every page of the app', async () => {
    for (const url of [
      '/',
      '/login',
      '/dashboard',
      '/my-portfolios/3/artifacts/9/edit',
      '/reset-password/abc',
      '/home?x=1',
    ]) {
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
    // The page's scripts: the run-time configuration, the ways to sign in and the entry; none closed early.
    expect(res.body.match(/<script[\s>]/g)).toHaveLength(3);
    expect(res.body.match(/<\/script>/g)).toHaveLength(3);
    expect(res.body).not.toContain('<script>alert(1)');
  });

  it('serves the built files, and never lists a folder', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe('console.log("app");\n');
    expect(
      await s.app.inject({ method: 'GET', url: '/assets/', headers: { accept: 'application/json' } }),
    ).toBeApiError(404);
    expect(await s.app.inject({ method: 'GET', url: '/assets/missing.js' })).toBeApiError(404);
    expect(await html(s.app, '/assets/')).toHaveStatus(200);
  });

  it('answers JSON 404 under /api, for other methods and for clients that do not want HTML', async () => {
    for (const url of [
      '/api/v1/nothing-here',
      '/api/v1/users/me/extra',
      '/api',
      '/api/',
      '/api?x=1',
      '/api/v2/health',
    ]) {
      const res = await html(s.app, url);
      expect(res).toBeApiError(404, /^No route GET \/api/);
    }
    expect(await s.app.inject({ method: 'GET', url: '/login', headers: { accept: 'application/json' } })).toBeApiError(
      404,
      'No route GET /login.',
    );
    expect(await s.app.inject({ method: 'POST', url: '/login', headers: { accept: 'text/html' } })).toBeApiError(
      404,
      'No route POST /login.',
    );
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
    for (const name of [
      'content-security-policy',
      'permissions-policy',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'etag',
      'last-modified',
    ]) {
      expect(res.headers[name], name).toBeUndefined();
    }
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
    expect(incoming?.['req']).toEqual({
      method: 'GET',
      url: '/api/v1/health?token=[redacted]',
      remoteAddress: '127.0.0.1',
    });
    const completed = logged.find((e) => e['msg'] === 'request completed');
    expect(completed?.['res']).toMatchObject({ statusCode: 200 });
    expect(logText()).not.toContain('abc123secret');
  });

  it('leaves no password, token, reset code or e-mail address in the log of the whole reset journey', async () => {
    const user = await createTeacher(s);
    s.lines.length = 0;
    const secrets: string[] = [user.password, user.token, user.user.email];

    const good = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local',
      payload: { identifier: user.user.email, password: user.password },
    });
    expect(good.statusCode).toBe(200);
    const jwt = AuthResponseSchema.parse(good.json()).jwt;
    secrets.push(jwt);
    await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local',
      payload: { identifier: user.user.email, password: 'a wrong password' },
    });
    secrets.push('a wrong password');
    await s.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${jwt}`, cookie: `jwt=${jwt}` },
    });

    expect(
      (await s.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: user.user.email } }))
        .statusCode,
    ).toBe(200);
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
    await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { code, password: 'the new password', passwordConfirmation: 'x' },
    });
    await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local',
      payload: { identifier: user.user.email, password: user.password, extra: 'x' },
    });

    const text = logText();
    expect(s.lines.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).toContain('/reset-password/[redacted]');
    expect(text.toLowerCase()).not.toMatch(/authorization|cookie|bearer/);
    for (const entry of entries()) expect(entry).not.toHaveProperty('body');
  });
});
