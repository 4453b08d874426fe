import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { IMMUTABLE_CACHE, preferredCoding } from './spa.ts';

const INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><title>PracticeFolio</title>
<!--app-config-->
<script type="module" crossorigin src="/assets/x-abc123.js"></script>
</head><body><div id="root"></div></body></html>`;

/** A bundle large enough to be worth compressing, as the build writes it. */
const BUNDLE = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word number ${i}`))};\n`;
const SMALL = 'export const x = 1;\n';
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>\n`;

/** A built SPA: the page, one hashed bundle with its `.br` and `.gz` copies, a small bundle and an icon without. */
function spaDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-spa-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dir, 'assets', 'x-abc123.js'), BUNDLE);
  writeFileSync(path.join(dir, 'assets', 'x-abc123.js.br'), brotliCompressSync(BUNDLE));
  writeFileSync(path.join(dir, 'assets', 'x-abc123.js.gz'), gzipSync(BUNDLE));
  writeFileSync(path.join(dir, 'assets', 'small-def456.js'), SMALL);
  writeFileSync(path.join(dir, 'favicon.svg'), ICON);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const staticDir = spaDir();
const t = await buildTestApp({ staticDir });
const get = (url: string, headers: InjectOptions['headers'] = {}) => t.app.inject({ method: 'GET', url, headers });
const page = (url: string, headers: InjectOptions['headers'] = {}) =>
  get(url, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', ...headers });

describe('built files', () => {
  it('lets browsers keep hashed bundles for a year and revalidate every other file', async () => {
    for (const url of ['/assets/x-abc123.js', '/assets/small-def456.js']) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const res = await get(url, { 'accept-encoding': encoding });
        expect(res).toHaveStatus(200);
        expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE);
      }
    }
    const icon = await get('/favicon.svg', { 'accept-encoding': 'br, gzip' });
    expect(icon).toHaveStatus(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sends the brotli or gzip copy the build wrote, as the client accepts, and says it varies with it', async () => {
    const br = await get('/assets/x-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    // The stored copy as it is: not compressed a second time on the way out.
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BUNDLE);

    const gz = await get('/assets/x-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BUNDLE);
    expect((await get('/assets/x-abc123.js', { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe(
      'gzip',
    );

    for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
      const plain = await get('/assets/x-abc123.js', headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['vary']).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(BUNDLE);
    }
  });

  it('sends files without a compressed copy as they are (nothing is compressed per request outside the API)', async () => {
    for (const url of ['/assets/small-def456.js', '/favicon.svg']) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(url === '/favicon.svg' ? ICON : SMALL);
    }
  });

  it('answers HEAD with the headers of GET and byte ranges of the file as stored', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/assets/x-abc123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head).toHaveStatus(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(brotliCompressSync(BUNDLE).length);
    expect(head.body).toBe('');
    const part = await get('/assets/x-abc123.js', { range: 'bytes=0-9' });
    expect(part).toHaveStatus(206);
    expect(part.body).toBe(BUNDLE.slice(0, 10));
  });
});

describe('the SPA page', () => {
  it('is revalidated on every use, with a strong validator of the final HTML, and 304 when unchanged', async () => {
    const first = await page('/login');
    expect(first).toHaveStatus(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['vary']).toMatch(/accept-encoding/i);
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(first.body).toContain('<script id="app-config"');

    for (const url of ['/', '/login', '/dashboard', '/my-portfolios/3']) {
      const again = await page(url, { 'if-none-match': etag });
      expect(again, url).toHaveStatus(304);
      expect(again.body).toBe('');
      expect(again.headers['etag']).toBe(etag);
      expect(again.headers['cache-control']).toBe('no-cache');
    }
    expect(await page('/login', { 'if-none-match': `"other", W/${etag}` })).toHaveStatus(304);
    expect(await page('/login', { 'if-none-match': '"other"' })).toHaveStatus(200);
  });

  it('is sent compressed when the client accepts it, each coding with its own validator', async () => {
    const plain = await page('/login');
    const br = await page('/login', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await page('/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    const tags = new Set([plain.headers['etag'], br.headers['etag'], gz.headers['etag']]);
    expect(tags.size).toBe(3);
    expect(await page('/login', { 'accept-encoding': 'br', 'if-none-match': String(br.headers['etag']) })).toHaveStatus(
      304,
    );
    // A copy in another coding is not the representation this client gets.
    expect(
      await page('/login', { 'accept-encoding': 'br', 'if-none-match': String(plain.headers['etag']) }),
    ).toHaveStatus(200);
  });

  it('gets a new validator when the build changes the page', async () => {
    const before = await page('/login');
    const file = path.join(staticDir, 'index.html');
    writeFileSync(file, INDEX_HTML.replace('x-abc123.js', 'x-fed321.js'));
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    const after = await page('/login', { 'if-none-match': String(before.headers['etag']) });
    expect(after).toHaveStatus(200);
    expect(after.body).toContain('x-fed321.js');
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
  });
});

describe('preferredCoding', () => {
  it('picks brotli over gzip unless the client ranks gzip higher or refuses brotli', () => {
    expect(preferredCoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredCoding('gzip')).toBe('gzip');
    expect(preferredCoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(preferredCoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredCoding('*')).toBe('br');
    expect(preferredCoding('identity')).toBeNull();
    expect(preferredCoding('gzip;q=0, *;q=0')).toBeNull();
    expect(preferredCoding(undefined)).toBeNull();
    expect(preferredCoding('')).toBeNull();
  });
});
