import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { createArtifact, createPortfolio, createResearcher, createTeacher } from '../../test/factories.ts';
import { multipart } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';

const t = await buildTestApp();
const researcher = await createResearcher(t);
// Enough accounts that the list of users is well over the threshold.
for (let i = 0; i < 12; i += 1) await createTeacher(t);

const asResearcher = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.api({ method, url, token: researcher.token, headers });

/** The body as the client reads it once decoded. */
function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
  return res.body;
}

describe('compressed API answers', () => {
  it('compresses JSON over the threshold with brotli, or gzip, as the client accepts', async () => {
    const plain = await asResearcher('/users');
    expect(plain).toHaveStatus(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.byteLength(plain.body)).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);

    const br = await asResearcher('/users', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br).toHaveStatus(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe(plain.headers['content-type']);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.body) / 2);
    expect(JSON.parse(decoded(br))).toEqual(plain.json());

    const gz = await asResearcher('/users', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gz))).toEqual(plain.json());

    for (const encoding of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await asResearcher('/users', { 'accept-encoding': encoding });
      expect(res.headers['content-encoding'], encoding).toBeUndefined();
      expect(res.json()).toEqual(plain.json());
    }
  });

  it('sends answers under the threshold as they are', async () => {
    const me = await asResearcher('/users/me', { 'accept-encoding': 'br, gzip' });
    expect(me).toHaveStatus(200);
    expect(Buffer.byteLength(me.body)).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(me.headers['content-encoding']).toBeUndefined();
    expect(me.json()).toMatchObject({ id: researcher.user.id });
  });

  it('answers HEAD without a body, describing the plain answer (no coding is computed for it)', async () => {
    const plain = await asResearcher('/users');
    const head = await asResearcher('/users', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head).toHaveStatus(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.headers['content-length']).toBe(plain.headers['content-length']);
    expect(head.body).toBe('');
  });

  it('keeps the common error body', async () => {
    const headers = { 'accept-encoding': 'br, gzip' };
    expect(await t.api({ method: 'GET', url: '/users', headers })).toBeApiError(401);
    expect(await t.api({ method: 'GET', url: `/nothing/${'x'.repeat(2000)}`, headers })).toBeApiError(404);
    const invalid = await t.api({ method: 'GET', url: '/users?role=nine', token: researcher.token, headers });
    expect(invalid.statusCode).toBe(400);
    expect(JSON.parse(decoded(invalid))).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      code: 'validation_error',
    });
  });

  it('streams a CSV export compressed', async () => {
    const plain = await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token });
    const br = await t.api({
      method: 'GET',
      url: '/portfolios/export',
      token: researcher.token,
      headers: { 'accept-encoding': 'br' },
    });
    expect(br).toHaveStatus(200);
    expect(br.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-length']).toBeUndefined();
    expect(decoded(br)).toBe(plain.body);
  });
});

describe('stored files', () => {
  it('are sent exactly as stored: no coding, their own length, byte ranges and HEAD', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio);
    // Text (sent as application/octet-stream), which would compress well.
    const content = Buffer.from('Lesson notes, line after line.\n'.repeat(200));
    const uploaded = await t.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`,
      token: teacher.token,
      ...multipart('file', 'notes.txt', content, 'text/plain'),
    });
    expect(uploaded).toHaveStatus(200);
    const url = `/api/v1${ArtifactMediaResponseSchema.parse(uploaded.json()).url}`;
    const headers = { 'accept-encoding': 'gzip, deflate, br' };

    const whole = await t.app.inject({ method: 'GET', url, headers });
    expect(whole).toHaveStatus(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.headers['content-length']).toBe(String(content.length));
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(Buffer.compare(whole.rawPayload, content)).toBe(0);

    const part = await t.app.inject({ method: 'GET', url, headers: { ...headers, range: 'bytes=100-1099' } });
    expect(part).toHaveStatus(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${content.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(Buffer.compare(part.rawPayload, content.subarray(100, 1100))).toBe(0);

    const head = await t.app.inject({ method: 'HEAD', url, headers });
    expect(head).toHaveStatus(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.headers['content-length']).toBe(String(content.length));
    expect(head.body).toBe('');
  });
});
