import { createSign } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { FcmConfig } from '../config/pushConfig.ts';
import type { Db } from '../db/client.ts';
import { pushTokenRepository } from '../repositories/pushTokenRepository.ts';

/** One push message: what the phone shows, and what the app opens when it is tapped. */
export interface PushMessage {
  title: string;
  body: string;
  /** String values only (FCM's `data`). */
  data: Record<string, string>;
}

/** FCM calls give up after this long, so a slow Google never holds delivery up. */
const FCM_TIMEOUT_MS = 10_000;
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Sends push notifications to the phones the mobile apps registered, through FCM HTTP v1 with
 * an OAuth access token from the service account (a signed JWT exchanged at the token URL and
 * kept until shortly before it expires). A token FCM no longer knows (404, `UNREGISTERED`) is
 * forgotten; other failures are logged and the feed stays as it is.
 */
export class PushService {
  private accessToken: { value: string; until: number } | null = null;

  constructor(
    private readonly db: Db,
    private readonly config: FcmConfig | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether push is configured at all. */
  get enabled(): boolean {
    return this.config !== null;
  }

  /** Sends `message` to every phone of the user; resolves with how many accepted it. */
  async sendToUser(userId: number, message: PushMessage): Promise<number> {
    if (!this.config) return 0;
    const devices = await pushTokenRepository.forUser(this.db, userId);
    let delivered = 0;
    for (const device of devices) {
      if (await this.sendOne(this.config, device.fcmToken, message)) delivered += 1;
    }
    return delivered;
  }

  private async sendOne(config: FcmConfig, token: string, message: PushMessage): Promise<boolean> {
    let response: Response;
    try {
      response = await fetch(`${config.endpoint}/v1/projects/${encodeURIComponent(config.projectId)}/messages:send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await this.token(config)}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          message: { token, notification: { title: message.title, body: message.body }, data: message.data },
        }),
        signal: AbortSignal.timeout(FCM_TIMEOUT_MS),
      });
    } catch (error) {
      this.log.warn({ err: error }, 'push notification could not be sent');
      return false;
    }
    if (response.ok) return true;
    const text = await response.text().catch(() => '');
    if (response.status === 401) this.accessToken = null;
    if (response.status === 404 || text.includes('UNREGISTERED')) {
      await pushTokenRepository.forget(this.db, token);
      this.log.info('push token no longer registered: forgotten');
      return false;
    }
    this.log.warn({ status: response.status }, 'push notification refused');
    return false;
  }

  /** An OAuth access token for FCM, fetched with a service-account JWT when none is held. */
  private async token(config: FcmConfig): Promise<string> {
    if (this.accessToken && this.accessToken.until > Date.now() + 60_000) return this.accessToken.value;
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ iss: config.clientEmail, scope: SCOPE, aud: config.tokenUrl, iat: now, exp: now + 3600 })}`;
    const signature = createSign('RSA-SHA256').update(unsigned).sign(config.privateKey, 'base64url');
    const response = await fetch(config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: `${unsigned}.${signature}`,
      }).toString(),
      signal: AbortSignal.timeout(FCM_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`FCM token request refused (${response.status})`);
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string') throw new Error('FCM token answer without access_token');
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    this.accessToken = { value: body.access_token, until: Date.now() + seconds * 1000 };
    return body.access_token;
  }
}
