import {
  DEFAULT_EMAIL_PREFERENCES,
  NOTIFICATION_KINDS,
  NOTIFICATIONS_PAGE_DEFAULT,
  type ArtifactShare,
  type NotificationKind,
  type NotificationListResponse,
  type NotificationPreferences,
  type NotificationPreferencesBody,
  type NotificationReadBody,
  type UnsubscribeResponse,
} from '#schemas/notifications';
import { UNNAMED_ARTIFACT } from '#schemas/catalog';
import type { User } from '#schemas/user';
import { badRequest, notFound } from '../errors.ts';
import {
  digestMessage,
  notificationMessage,
  threadMessage,
  UNSUBSCRIBE_LABELS,
  type MailItem,
} from '../mail/notificationMessages.ts';
import { canReadArtifact, PORTFOLIO_MESSAGES } from '../policies/portfolioPolicy.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { artifactShareRepository } from '../repositories/artifactShareRepository.ts';
import { notificationDeliveryRepository, type DeliveryRecord } from '../repositories/notificationDeliveryRepository.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import type { NotificationRecord } from '../repositories/notificationRows.ts';
import { iso } from '../repositories/sql.ts';
import { sessionRepository } from '../repositories/sessionRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import { UnsubscribeTokens } from '../security/unsubscribeTokens.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import type { FeedStream } from './notificationHub.ts';
import {
  KIND_TITLES,
  linkOf,
  mailGroups,
  mobileMessage,
  opensInApp,
  present,
  summaryOf,
  threadTitle,
} from './notificationPresenter.ts';
import type { PushService } from './pushService.ts';
import { EMAIL_MASKS, maskEmail } from '../security/maskEmail.ts';

/** Items taken for delivery at a time. */
const DELIVERY_BATCH = 100;
/** Immediate deliveries still waiting after this long (a failure, a restart) are taken by the scheduled run. */
export const STALE_DELIVERY_MS = 60_000;
/** When the scheduled run looks for due digests and stale deliveries: every five minutes (cron, UTC). */
export const SCHEDULER_CRON = '*/5 * * * *';
/**
 * At most one immediate e-mail per person and thread (shared artifact) in this time; what arrives
 * meanwhile goes out together in the next one, which the scheduled run sends after the window.
 */
export const MAIL_WINDOW_MS = 10 * 60_000;

export const NOTIFICATION_MESSAGES = {
  invalidToken:
    'This unsubscribe link is not valid. Copy the whole address from the e-mail, or change your e-mail settings on the Notifications page after signing in.',
  expiredToken: 'This unsubscribe link has expired. Sign in and change your e-mail settings on the Notifications page.',
} as const;

/** The UTC day of `now` (`YYYY-MM-DD`) and its start: a digest covers what happened before that start. */
export function digestDay(now: Date): { day: string; start: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { day: start.toISOString().slice(0, 10), start };
}

/** The feed, read marks, e-mail settings, unsubscribe links, delivery (mail, push, digests) and where an artifact was shared. */
export function createNotificationService(ctx: ServiceContext, push: PushService) {
  const { db } = ctx;
  const unsubscribeTokens = new UnsubscribeTokens(ctx.config.jwtSecret);
  const absolute = (path: string) => `${ctx.config.publicUrl}${path}`;
  const unsubscribeLink = (userId: number, kind: NotificationKind | 'all') =>
    absolute(`/unsubscribe?token=${encodeURIComponent(unsubscribeTokens.sign(userId, kind))}`);
  const mailItem = (r: NotificationRecord): MailItem => ({ summary: summaryOf(r), href: absolute(linkOf(r)) });

  async function deliver(olderThanMs: number, now: Date | null = null): Promise<void> {
    for (;;) {
      const batch = await db.transaction((tx) =>
        notificationDeliveryRepository.claimDeliveries(
          tx,
          DELIVERY_BATCH,
          olderThanMs,
          push.enabled,
          MAIL_WINDOW_MS,
          now,
        ),
      );
      if (batch.length === 0) return;
      const failed: number[] = [];
      for (const group of mailGroups(batch)) {
        try {
          await ctx.mailer.send(mailOf(group));
        } catch (error) {
          ctx.log.warn({ err: error }, 'could not send a notification e-mail; it will be tried again');
          failed.push(...group.map((item) => item.id));
        }
      }
      for (const item of batch) if (item.push) await sendPush(item);
      await notificationDeliveryRepository.retryMail(db, failed);
      if (batch.length < DELIVERY_BATCH || failed.length > 0) return;
    }
  }

  /** One e-mail: the item itself, or the items of one thread collected during its window. */
  function mailOf(group: DeliveryRecord[]) {
    const first = group[0]!;
    const kinds = new Set(group.map((item) => item.kind));
    const kind = kinds.size === 1 ? first.kind : null;
    const links = {
      kind: kind ? { href: unsubscribeLink(first.userId, kind), label: UNSUBSCRIBE_LABELS[kind] } : null,
      all: unsubscribeLink(first.userId, 'all'),
    };
    return group.length === 1
      ? notificationMessage(first, mailItem(first), links)
      : threadMessage(first, threadTitle(group), group.map(mailItem), links);
  }
  async function sendPush(item: DeliveryRecord): Promise<void> {
    if (!opensInApp(item)) return;
    const message = mobileMessage(item);
    try {
      await push.sendToUser(item.userId, {
        title: KIND_TITLES[item.kind],
        body: message.body,
        data: { messageId: message.messageId, destination: message.destination },
      });
    } catch (error) {
      ctx.log.warn({ err: error }, 'could not send a push notification');
    }
  }

  const service = {
    /** A page of the caller's feed, newest first, and the unread count. */
    async list(
      actor: User,
      query: { before?: number | undefined; limit?: number | undefined },
    ): Promise<NotificationListResponse> {
      const [items, unread] = await Promise.all([
        notificationRepository.list(db, actor.id, query.before ?? null, query.limit ?? NOTIFICATIONS_PAGE_DEFAULT),
        notificationRepository.unread(db, actor.id),
      ]);
      return { items: items.map(present), unread };
    },

    /** The caller's unread count. */
    unread(actor: User | number): Promise<number> {
      return notificationRepository.unread(db, typeof actor === 'number' ? actor : actor.id);
    },

    /** Marks some or all of the caller's items read; ids of items that are not the caller's change nothing. */
    async markRead(actor: User, body: NotificationReadBody): Promise<{ unread: number }> {
      await notificationRepository.markRead(db, actor.id, 'all' in body ? null : body.ids);
      return { unread: await notificationRepository.unread(db, actor.id) };
    },

    /** The caller's e-mail settings, every kind. */
    async preferences(actor: User): Promise<NotificationPreferences> {
      return { email: { ...DEFAULT_EMAIL_PREFERENCES, ...(await notificationRepository.preferences(db, actor.id)) } };
    },

    /** Changes some e-mail settings; answers with all of them. */
    async setPreferences(actor: User, body: NotificationPreferencesBody): Promise<NotificationPreferences> {
      const settings = Object.fromEntries(Object.entries(body.email).filter(([, v]) => v !== undefined));
      await db.transaction((tx) => notificationRepository.setPreferences(tx, actor.id, settings));
      return service.preferences(actor);
    },

    /**
     * Turns off the e-mail of an unsubscribe link (one kind, or all) without a session.
     * @throws 400 for a tampered, unknown or expired token (nothing changes).
     */
    async unsubscribe(token: string): Promise<UnsubscribeResponse> {
      const claims = unsubscribeTokens.verify(token);
      if (claims === 'invalid') throw badRequest(NOTIFICATION_MESSAGES.invalidToken, 'invalid_token');
      if (claims === 'expired') throw badRequest(NOTIFICATION_MESSAGES.expiredToken, 'expired_token');
      const record = await userRepository.findById(db, claims.userId);
      if (!record) throw badRequest(NOTIFICATION_MESSAGES.invalidToken, 'invalid_token');
      const kinds = claims.kind === 'all' ? NOTIFICATION_KINDS : [claims.kind];
      await db.transaction((tx) =>
        notificationRepository.setPreferences(
          tx,
          claims.userId,
          Object.fromEntries(kinds.map((k) => [k, 'off' as const])),
        ),
      );
      return { kind: claims.kind, email: maskEmail(record.user.email, EMAIL_MASKS.own) };
    },

    /** The caller's feed in the mobile apps' shape (the items they can open: those about a shared artifact). */
    async mobileList(actor: User) {
      const items = await notificationRepository.list(db, actor.id, null, 100);
      return items.filter(opensInApp).map(mobileMessage);
    },

    /** The mobile apps' "mark as read" (an id that is not the caller's item changes nothing). */
    async mobileMarkRead(actor: User, messageId: string | number): Promise<void> {
      const id = Number(messageId);
      if (Number.isInteger(id) && id > 0 && id <= 2_147_483_647)
        await notificationRepository.markRead(db, actor.id, [id]);
    },

    /**
     * Where a personal artifact was shared: each copy with its comment count and latest comments.
     * @throws 404 unless the caller owns the artifact (researchers read it too).
     */
    async shares(actor: User, artifactId: number): Promise<ArtifactShare[]> {
      const record = await artifactRepository.findRecord(db, artifactId);
      if (!record || !record.saved) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      assertAllowed(canReadArtifact(actor, record));
      const copies = await artifactShareRepository.sharesOf(db, artifactId);
      const latest = await artifactShareRepository.latestComments(
        db,
        copies.map((c) => c.saId),
      );
      return copies.map((c) => ({
        sharedPortfolio: { id: c.spId, name: c.spName },
        sharedArtifact: { id: c.saId, title: c.title?.trim() ? c.title : UNNAMED_ARTIFACT },
        shared_at: iso(c.sharedAt),
        commentCount: c.commentCount,
        latestComments: (latest.get(c.saId) ?? []).map((m) => ({
          id: m.id,
          text: m.text,
          owner: m.owner,
          created_at: iso(m.createdAt),
        })),
      }));
    },

    /** Whether an event stream may stay open: its account not blocked, not signed out everywhere, its session open. */
    async streamAlive(stream: Pick<FeedStream, 'userId' | 'sessionId' | 'epoch'>): Promise<boolean> {
      const record = await userRepository.findById(db, stream.userId);
      if (!record || record.user.blocked || record.sessionEpoch !== stream.epoch) return false;
      return stream.sessionId ? (await sessionRepository.findOpen(db, stream.sessionId, stream.userId)) !== null : true;
    },

    /** The account's session epoch (for a stream opening now). */
    async epochOf(userId: number): Promise<number> {
      return (await userRepository.findById(db, userId))?.sessionEpoch ?? -1;
    },

    /**
     * Sends what waits for immediate e-mail or push (each item is taken by one process only): the
     * `notifications.deliver` job, queued whenever an item is recorded.
     */
    deliverNow(): Promise<void> {
      return deliver(0);
    },

    /**
     * Sends the daily digests due at `now`: each person's items waiting for the digest from before
     * the start of that UTC day, once. The (person, day) row is claimed in the transaction that
     * sends the mail: a second process waits for the first and then finds it taken; a failed send
     * rolls the claim back, so the next run tries again. Resolves with how many digests went out.
     */
    async runDigests(now = new Date()): Promise<number> {
      const { day, start } = digestDay(now);
      let sent = 0;
      for (const userId of await notificationDeliveryRepository.digestCandidates(db, day, start)) {
        try {
          const done = await db.transaction(async (tx) => {
            const digest = await notificationDeliveryRepository.claimDigest(tx, userId, day, start);
            if (!digest || digest.items.length === 0) return false;
            await ctx.mailer.send(
              digestMessage(digest, digest.items.map(mailItem), { kind: null, all: unsubscribeLink(userId, 'all') }),
            );
            return true;
          });
          if (done) sent += 1;
        } catch (error) {
          ctx.log.warn({ err: error }, 'could not send a digest; it will be tried again');
        }
      }
      return sent;
    },

    /**
     * One scheduled run (the `notifications.tick` job): deliveries left behind (and those held back by a thread's window that
     * has passed), then due digests. `now` defaults to the database's clock for deliveries.
     */
    async tick(now?: Date): Promise<void> {
      await deliver(STALE_DELIVERY_MS, now ?? null);
      await service.runDigests(now ?? new Date());
    },
  };
  return service;
}

export type NotificationService = ReturnType<typeof createNotificationService>;
