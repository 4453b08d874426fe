import { createHash, randomBytes } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { systemClock, type Clock } from '../clock.ts';

/** How long a session token lives. `POST /token/refresh` issues a new one. */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

/** A session ends at the latest this long after its sign-in, however often its token is refreshed. */
export const SESSION_ABSOLUTE_SECONDS = 90 * 24 * 60 * 60;

/**
 * What a session token carries: the user id, the session epoch it was issued in, and its
 * server-side session (`sid`; absent only in tokens issued before sessions were kept).
 */
export interface SessionClaims {
  id: number;
  epoch: number;
  sid?: string | undefined;
  /** The session's token generation (raised by every refresh; 0 in tokens from before rotation). */
  gen?: number | undefined;
}

/** A token replaced by a refresh keeps working this long, for requests already under way. */
export const ROTATION_GRACE_MS = 60_000;

/**
 * Whether a token of generation `tokenGen` is still good for a session now at `current`: the
 * current one, or the one just replaced within the grace period.
 */
export function generationAccepted(
  tokenGen: number,
  session: { generation: number; rotatedAt: Date | null },
  now = Date.now(),
): boolean {
  if (tokenGen === session.generation) return true;
  return (
    tokenGen === session.generation - 1 &&
    session.rotatedAt !== null &&
    now - session.rotatedAt.getTime() < ROTATION_GRACE_MS
  );
}

/** How many verified tokens are remembered (about 300 bytes each). */
const VERIFIED_TOKENS_KEPT = 4096;

/**
 * Signs and verifies session tokens (HS256). Both run synchronously on Node's own HMAC: every
 * authenticated request verifies a token, and a WebCrypto round trip through the thread pool per
 * request cost more than the rest of a small request.
 */
export class TokenService {
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => Record<string, unknown>;
  /**
   * The claims of the tokens verified lately, by the token's exact text (the oldest forgotten
   * first): a client sends the same token with every request, and its HMAC was a tenth of a small
   * request's CPU. Only a byte-for-byte copy of a verified token is found here; what follows (its
   * end, by the service's clock, and the shape of its claims) is checked every time.
   */
  private readonly verified = new Map<string, Record<string, unknown>>();
  constructor(
    secret: string,
    private readonly clock: Clock = systemClock,
  ) {
    const key = Buffer.from(secret, 'utf8');
    this.signer = createSigner({ key, algorithm: 'HS256', header: { alg: 'HS256', typ: 'JWT' } });
    // A token must say when it ends: one without `exp` (never issued by us) is no session. The
    // end is checked below against the service's clock.
    this.verifier = createVerifier({
      key,
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'iat'],
      ignoreExpiration: true,
    });
  }

  /** A new token for the user. */
  sign(claims: SessionClaims, ttlSeconds = SESSION_TTL_SECONDS): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    const payload = {
      id: claims.id,
      ep: claims.epoch,
      ...(claims.sid ? { sid: claims.sid, gn: claims.gen ?? 0 } : {}),
      iat: now,
      exp: now + ttlSeconds,
    };
    return Promise.resolve(this.signer(payload));
  }

  /** The claims of a valid, unexpired token, or `null`. */
  verify(token: string): Promise<SessionClaims | null> {
    let payload = this.verified.get(token);
    if (!payload) {
      try {
        payload = this.verifier(token);
      } catch {
        return Promise.resolve(null); // expired, tampered or malformed: all mean "no session"
      }
      if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, payload);
    }
    const exp = payload['exp'];
    if (typeof exp !== 'number' || this.clock.now() > exp * 1000) return Promise.resolve(null);
    const id = payload['id'];
    const epoch = payload['ep'];
    const sid = payload['sid'];
    const gen = payload['gn'] ?? 0;
    if (typeof id !== 'number' || !Number.isInteger(id) || typeof epoch !== 'number') return Promise.resolve(null);
    if (sid !== undefined && typeof sid !== 'string') return Promise.resolve(null);
    if (typeof gen !== 'number' || !Number.isInteger(gen) || gen < 0) return Promise.resolve(null);
    return Promise.resolve({ id, epoch, sid, gen });
  }
}

/** A new random one-time code (URL-safe) and the hash that is stored in its place. */
export function newOneTimeCode(): { code: string; hash: string } {
  const code = randomBytes(32).toString('base64url');
  return { code, hash: hashCode(code) };
}

/** The stored form of a one-time code. */
export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}
