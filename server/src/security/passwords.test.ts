import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with argon2id at OWASP strength (19 MiB, 2 passes) and a random salt, and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(hash).not.toContain('correct horse');
    expect(await hashPassword('correct horse')).not.toBe(hash);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horse ', hash)).toBe(false);
    expect(await verifyPassword('Correct horse', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('still verifies hashes of the earlier scrypt scheme, and asks for them to be upgraded', async () => {
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync('correct horse', salt, 32, { N: 32768, r: 8, p: 1, maxmem: 128 * 32768 * 8 * 2 });
    const old = `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    expect(await verifyPassword('correct horse', old)).toBe(true);
    expect(await verifyPassword('wrong horse', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0$aGFzaA')).toBe(true);
  });

  it('never matches an account without a usable password, or a malformed hash', async () => {
    for (const password of ['', 'null', 'supersekkrit', 'anything'])
      expect(await verifyPassword(password, null)).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$4$5')).toBe(false);
    expect(await verifyPassword('x', '$argon2id$v=19$m=19456,t=2,p=1$broken')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1$2$3$4$5')).toBe(false);
  });

  it('treats equivalent Unicode forms of a password alike', async () => {
    const hash = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true);
  });

  it('answers every one of many hashes and checks asked for at once (they take turns)', async () => {
    const hash = await hashPassword('in turn');
    const checks = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        i % 3 === 2 ? hashPassword('x').then(Boolean) : verifyPassword(i % 3 ? 'no' : 'in turn', hash),
      ),
    );
    expect(checks).toEqual([true, false, true, true, false, true, true, false, true]);
    expect(await verifyPassword('failed', '$argon2id$v=19$m=19456,t=2,p=1$broken')).toBe(false);
    expect(await verifyPassword('in turn', hash)).toBe(true);
  });
});
