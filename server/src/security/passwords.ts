import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';

/**
 * argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1): about 20 ms per hash with
 * the native implementation, off the event loop.
 */
export const ARGON2_PARAMS = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$`;

/**
 * How many hashes run at once. Each takes one of the threads of libuv's pool (4 unless
 * `UV_THREADPOOL_SIZE` says otherwise) and a core for its whole time: more hashes at once than
 * cores only make each one slower, and a pool full of hashes holds up everything else that uses it
 * (compressing answers, reading and writing files, the database's SCRAM sign-in). One thread of
 * the pool is always left to the rest.
 */
const HASH_SLOTS = Math.max(1, Math.min(availableParallelism(), (Number(process.env['UV_THREADPOOL_SIZE']) || 4) - 1));
let hashing = 0;
const waiting: (() => void)[] = [];

/** Runs `work` (one hash) when a slot is free; the others wait in turn. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (hashing < HASH_SLOTS) hashing += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The slot goes straight to the next in line, if any.
    const next = waiting.shift();
    if (next) next();
    else hashing -= 1;
  }
}

/** Hashes a password with argon2id; the result carries its own parameters and salt. */
export function hashPassword(password: string): Promise<string> {
  return inTurn(() => argon2Hash(password.normalize('NFKC'), ARGON2_PARAMS));
}

/** Whether a stored hash should be replaced by one at the current parameters (at the next login). */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}

// A hash of nothing anyone knows, compared against when the account does not exist or has
// no usable password, so that a failed login takes the same time either way.
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored` (argon2id, or an older scrypt hash); `null` (no usable password) never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const hash = stored ?? (await (decoy ??= hashPassword(randomBytes(24).toString('hex'))));
  let matches = false;
  if (hash.startsWith('$argon2'))
    matches = await inTurn(() => argon2Verify(hash, password.normalize('NFKC'))).catch(() => false);
  else if (hash.startsWith('scrypt$')) matches = await inTurn(() => verifyScrypt(password, hash));
  return stored !== null && matches;
}

/** Hashes of earlier versions: `scrypt$N$r$p$salt$key`. */
async function verifyScrypt(password: string, hash: string): Promise<boolean> {
  const parts = hash.split('$');
  if (parts.length !== 6) return false;
  const [, n, r, p, saltText, keyText] = parts as [string, string, string, string, string, string];
  const options: ScryptOptions = { N: Number(n), r: Number(r), p: Number(p) };
  const expected = Buffer.from(keyText, 'base64url');
  const actual = await new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      Buffer.from(saltText, 'base64url'),
      expected.length || 32,
      { ...options, maxmem: 128 * options.N! * options.r! * 2 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  }).catch(() => Buffer.alloc(0));
  return expected.length > 0 && expected.length === actual.length && timingSafeEqual(expected, actual);
}
