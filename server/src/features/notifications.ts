import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { authenticated } from '../http/auth.ts';
import { notificationRoutes, unsubscribeRoutes } from '../routes/notificationRoutes.ts';
import { NotificationHub } from '../services/notificationHub.ts';
import { createNotificationService, SCHEDULER_CRON } from '../services/notificationService.ts';
import { PushService } from '../services/pushService.ts';

/**
 * The notification feed, its live count, e-mail settings and the unsubscribe link (no session).
 * In the background: live unread counts to this process's event streams, heard from every process
 * through LISTEN/NOTIFY, and the jobs that send e-mails, push and digests (decisions 020, 037).
 */
export async function notificationsFeature(app: FastifyInstance): Promise<void> {
  const { config, db, log } = app;
  const notifications = createNotificationService(app.serviceContext, new PushService(db, config.fcm ?? null, log));
  // Immediate e-mails and push: "deliver soon" signals, at most one waiting (decision 037).
  const deliver = app.jobs.define({
    name: 'notifications.deliver',
    group: 'notifications',
    data: z.object({}).strict(),
    run: () => notifications.deliverNow(),
    retryLimit: 5,
    retryDelaySeconds: 30,
    retryBackoff: true,
    maxQueued: 1,
    busyMessage: 'Notifications are already waiting to be sent.',
    concurrency: 1,
    policy: 'stately',
  });
  // Deliveries left behind and held back by a thread's window, then the digests due: every
  // five minutes on one node; a digest goes out once per person and UTC day.
  const tick = app.jobs.define({
    name: 'notifications.tick',
    group: 'notifications',
    data: z.object({}).strict(),
    run: () => notifications.tick(),
    retryLimit: 2,
    retryDelaySeconds: 60,
    maxQueued: 1,
    busyMessage: 'Notifications are already waiting to be sent.',
    concurrency: 1,
    policy: 'stately',
    cron: SCHEDULER_CRON,
  });
  const signal = (kind: typeof deliver) => {
    void app.jobs.send(kind, {}).catch((error: unknown) => {
      // A full queue means a run is already waiting: it will send this too.
      if (!(error instanceof HttpError)) log.warn({ err: error }, 'could not queue notification delivery');
    });
  };
  const hub = new NotificationHub(
    db,
    {
      unread: (userId) => notifications.unread(userId),
      alive: (stream) => notifications.streamAlive(stream),
      recorded: () => signal(deliver),
      warn: (error, message) => log.warn({ err: error }, message),
    },
    app.serviceContext.clock,
  );
  app.services.notifications = notifications;
  app.services.notificationHub = hub;

  app.background.add({
    name: 'notification hub',
    async start() {
      await hub.start();
    },
    // Open event streams are told to reconnect (elsewhere) and closed: they would hold the server open.
    stop: () => hub.stop(),
    holdsRequests: true,
  });
  app.background.add({
    name: 'notification catch-up',
    // What waits (the installation may have stopped before sending it) and the digests due.
    start: async () => signal(tick),
    stop: async () => undefined,
  });

  await app.register(authenticated(notificationRoutes));
  await app.register(unsubscribeRoutes);
}
