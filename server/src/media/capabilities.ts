import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How long a media address stays valid: until the end of the next 12-hour window, so between
 * 12 and 24 hours. Long enough for a phone's offline copy of a day's work and for browser
 * caches (the address stays the same within a window); short enough that a leaked address dies
 * within a day. Access is also checked again on every fetch, so a holder who may no longer read
 * the file (left the PLC, artifact deleted, account blocked) is refused at once.
 */
export const CAPABILITY_WINDOW_MS = 12 * 60 * 60 * 1000;

/** The stored file names the uploads folder holds (`<key><ext>`, `<format>_<key>.jpg`). */
const FILE_NAME = /^[A-Za-z0-9_-]{1,80}\.[a-z0-9]{1,5}$/;
/** `<user, base 36>.<expiry in seconds, base 36>.<signature>`. */
const CAPABILITY = /^([0-9a-z]{1,10})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/;

/** A verified capability: whose it is and until when. */
export interface Capability {
  userId: number;
  expiresAt: number;
}

/**
 * Signed, expiring, per-user media addresses. `/uploads/<file>` becomes
 * `/uploads/<capability>/<file>`; the capability binds the user, the expiry and the file name
 * with an HMAC (128 bits) under a key derived from the installation's token secret.
 */
export class MediaCapabilities {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly windowMs = CAPABILITY_WINDOW_MS,
  ) {
    this.key = createHmac('sha256', secret).update('practicefolio media capability v1').digest();
  }

  /** The signed form of an address the API gives out (`/uploads/<file>`, or one signed for someone else), for this user. */
  sign(url: string, userId: number, now = Date.now()): string {
    const fileName = url.slice(url.lastIndexOf('/') + 1);
    const expires = Math.ceil((Math.floor(now / this.windowMs) + 2) * (this.windowMs / 1000));
    const head = `${userId.toString(36)}.${expires.toString(36)}`;
    return `/uploads/${head}.${this.signature(head, fileName)}/${fileName}`;
  }

  /** The capability's holder if it is genuine, for this file, and not expired; else `null`. */
  verify(capability: string, fileName: string, now = Date.now()): Capability | null {
    const match = CAPABILITY.exec(capability);
    if (!match || !FILE_NAME.test(fileName)) return null;
    const head = `${match[1]}.${match[2]}`;
    const expected = Buffer.from(this.signature(head, fileName));
    const given = Buffer.from(match[3]!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const expiresAt = parseInt(match[2]!, 36) * 1000;
    if (expiresAt <= now) return null;
    return { userId: parseInt(match[1]!, 36), expiresAt };
  }

  private signature(head: string, fileName: string): string {
    return createHmac('sha256', this.key).update(`${head}/${fileName}`).digest('base64url').slice(0, 22);
  }
}

const UPLOAD_ADDRESS =
  /^\/uploads\/(?:[0-9a-z]{1,10}\.[0-9a-z]{1,10}\.[A-Za-z0-9_-]{22}\/)?[A-Za-z0-9_-]{1,80}\.[a-z0-9]{1,5}$/;

/** Whether a value is the address of a stored file (`/uploads/<file>`, signed or not). */
export const isUploadAddress = (value: unknown): value is string =>
  typeof value === 'string' && UPLOAD_ADDRESS.test(value);

/**
 * Signs every `url` (and `previewUrl`) of stored files found anywhere in an answer for the
 * caller, in place; an address signed before (for anyone) is signed anew.
 */
export function signAddresses(value: unknown, sign: (url: string) => string): void {
  if (Array.isArray(value)) {
    for (const item of value) signAddresses(item, sign);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if ((key === 'url' || key === 'previewUrl') && isUploadAddress(field)) record[key] = sign(field);
    else if (field !== null && typeof field === 'object') signAddresses(field, sign);
  }
}
