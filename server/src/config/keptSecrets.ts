import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A random value made once and kept in `DATA_DIR/secrets/<name>`: the JWT secret, the node's id. */
export function keptRandom(dataDir: string, name = 'jwt-secret', bytes = 48): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  const length = Math.ceil((bytes * 4) / 3);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= Math.min(32, length)) return existing;
  } catch {
    // Not generated yet.
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(bytes).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
