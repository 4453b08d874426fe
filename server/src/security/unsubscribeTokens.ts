import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '#schemas/notifications';

/** How long the unsubscribe link of an e-mail keeps working. */
export const UNSUBSCRIBE_TTL_DAYS = 90;

/** What an unsubscribe link turns off: one kind of e-mail, or all of them, for one person. */
export interface UnsubscribeClaims {
  userId: number;
  kind: NotificationKind | 'all';
  /** Seconds since 1970 after which the link no longer works. */
  expires: number;
}

/** Why a token was refused. */
export type UnsubscribeRefusal = 'invalid' | 'expired';

const VERSION = 'u1';

/**
 * Signs and checks the tokens of unsubscribe links: `u1.<user>.<kind>.<expires>.<signature>`,
 * the signature an HMAC-SHA256 (under a key derived from the server secret for this use only)
 * of everything before it. A link works without a session, so the token is all the proof there is.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('practicefolio unsubscribe links').digest();
  }

  /** A token for `userId` and `kind`, valid for `UNSUBSCRIBE_TTL_DAYS` from `now`. */
  sign(userId: number, kind: NotificationKind | 'all', now = Date.now()): string {
    const expires = Math.floor(now / 1000) + UNSUBSCRIBE_TTL_DAYS * 86_400;
    const body = `${VERSION}.${userId}.${kind}.${expires}`;
    return `${body}.${this.mac(body)}`;
  }

  /** The claims of a genuine token that has not expired, or why it is refused. */
  verify(token: string, now = Date.now()): UnsubscribeClaims | UnsubscribeRefusal {
    const parts = token.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) return 'invalid';
    const [, user, kind, expires, signature] = parts as [string, string, string, string, string];
    const expected = Buffer.from(this.mac(parts.slice(0, 4).join('.')));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    if (!/^[1-9][0-9]{0,9}$/.test(user) || !/^[0-9]{1,12}$/.test(expires)) return 'invalid';
    if (kind !== 'all' && !(NOTIFICATION_KINDS as readonly string[]).includes(kind)) return 'invalid';
    if (Number(expires) * 1000 <= now) return 'expired';
    return { userId: Number(user), kind: kind as NotificationKind | 'all', expires: Number(expires) };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
