import { describe, expect, it } from 'vitest';
import { redactUrl, serializeError } from './logging.ts';

describe('redactUrl', () => {
  it.each([
    ['/reset-password/abcDEF_123-xyz', '/reset-password/[redacted]'],
    ['/reset-password/abc?from=mail#top', '/reset-password/[redacted]?from=mail#top'],
    ['/RESET-PASSWORD/abc/extra', '/RESET-PASSWORD/[redacted]/extra'],
    ['/api/v1/x?code=abc&keep=1', '/api/v1/x?code=[redacted]&keep=1'],
    [
      '/api/v1/x?keep=1&token=abc&jwt=def&password=ghi&access_token=jkl',
      '/api/v1/x?keep=1&token=[redacted]&jwt=[redacted]&password=[redacted]&access_token=[redacted]',
    ],
    ['/api/v1/users?role_ne=4', '/api/v1/users?role_ne=4'],
    ['/my-portfolios/3', '/my-portfolios/3'],
    // Issue 21 #13: media capability addresses open a file without a session for 12–24 h.
    ['/uploads/12.1900000000.abcDEF_-sig/3f2a.png', '/uploads/[redacted]/3f2a.png'],
    ['/api/v1/uploads/12.1900000000.abc/3f2a.mp4?download=1', '/api/v1/uploads/[redacted]/3f2a.mp4?download=1'],
    ['/videos/uploads/12.1900000000.abc/3f2a.mp4', '/videos/uploads/[redacted]/3f2a.mp4'],
    ['/media?capability=12.abc&sig=x', '/media?capability=[redacted]&sig=[redacted]'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('serializeError', () => {
  it('keeps what identifies a failure and drops the values it carried', () => {
    const cause = Object.assign(new Error('socket closed'), { code: 'ECONNRESET' });
    const error = Object.assign(new Error('duplicate key', { cause }), {
      code: '23505',
      constraint: 'users_email_key',
      params: ['a@b.org', 'scrypt$hash'],
      query: 'INSERT INTO users …',
      detail: 'Key (email)=(a@b.org) already exists.',
      response: '550 mailbox unavailable',
    });
    const out = serializeError(error);
    expect(out).toMatchObject({
      type: 'Error',
      message: 'duplicate key',
      code: '23505',
      constraint: 'users_email_key',
    });
    expect(out['cause']).toMatchObject({ message: 'socket closed', code: 'ECONNRESET' });
    expect(typeof out['stack']).toBe('string');
    expect(JSON.stringify(out)).not.toMatch(/a@b\.org|scrypt|INSERT|550/);
  });

  it('describes values that are not errors', () => {
    expect(serializeError('plain')).toEqual({ type: 'string', message: 'plain', stack: '' });
  });
});
