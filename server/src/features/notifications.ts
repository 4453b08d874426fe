import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { notificationRoutes, unsubscribeRoutes } from '../routes/notificationRoutes.ts';
import { NotificationHub } from '../services/notificationHub.ts';
import { createNotificationService } from '../services/notificationService.ts';
import { PushService } from '../services/pushService.ts';

/**
 * The notification feed, its live count, e-mail settings and the unsubscribe link (no session).
 * In the background: live unread counts to this process's event streams, heard from every process
 * through LISTEN/NOTIFY, and the scheduler that sends e-mails and digests (decision 020).
 */
export async function notificationsFeature(app: FastifyInstance): Promise<void> {
  const { config, db, log } = app;
  const notifications = createNotificationService(app.serviceContext, new PushService(db, config.fcm ?? null, log));
  const hub = new NotificationHub(
    db,
    {
      unread: (userId) => notifications.unread(userId),
      alive: (stream) => notifications.streamAlive(stream),
      recorded: () => void notifications.deliverSoon(),
      warn: (error, message) => log.warn({ err: error }, message),
    },
    app.serviceContext.clock,
  );
  app.services.notifications = notifications;
  app.services.notificationHub = hub;

  let stopScheduler = () => undefined as void;
  // After the housekeeping's first run (the background tasks are ready first), so that a
  // starting process runs one statement at a time (decision 020).
  app.addHook('onReady', async () => {
    await hub.start();
    stopScheduler = notifications.startScheduler();
  });
  // Before the server closes: open event streams would otherwise hold it open.
  app.addHook('preClose', async () => {
    stopScheduler();
    await hub.stop();
  });

  await app.register(authenticated(notificationRoutes));
  await app.register(unsubscribeRoutes);
}
