import path from 'node:path';
import type { ResumableUploadService } from '../../services/resumableUploadService.ts';
import type { TusWriter } from '../../media/resumable/tusWriter.ts';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { systemClock, type Clock } from '../../clock.ts';
import { counterStoreOf, type CounterStore } from '../../counters/counterStore.ts';
import { createMailer, type Mailer } from '../../mail/mailer.ts';
import { mediaJobs } from '../../media/mediaJobs.ts';
import { MediaStore } from '../../media/mediaStore.ts';
import { checkMediaLocation } from '../../media/mediaLocation.ts';
import { objectStoreOf } from '../../media/objectStore.ts';
import { TokenService } from '../../security/tokens.ts';
import type { ArchiveService } from '../../services/archiveService.ts';
import type { createArtifactService } from '../../services/artifactService.ts';
import type { createAuthService } from '../../services/authService.ts';
import type { createBackupStatusService } from '../../services/backupStatusService.ts';
import type { createBundleService } from '../../services/bundleService.ts';
import type { CoverageService } from '../../services/coverageService.ts';
import type { ServiceContext } from '../../services/context.ts';
import type { createDeviceService } from '../../services/deviceService.ts';
import type { createDiscussionService } from '../../services/discussionService.ts';
import type { createExportService } from '../../services/exportService.ts';
import type { createInvitationService } from '../../services/invitationService.ts';
import type { InsightsService } from '../../services/insightsService.ts';
import type { createMediaService } from '../../services/mediaService.ts';
import type { createMomentService } from '../../services/momentService.ts';
import type { NotificationHub } from '../../services/notificationHub.ts';
import type { NotificationService } from '../../services/notificationService.ts';
import type { createPortfolioService } from '../../services/portfolioService.ts';
import { PrincipalCache } from '../../services/principalCache.ts';
import type { RubricService } from '../../services/rubricService.ts';
import type { ScoreService } from '../../services/scoreService.ts';
import type { createResearchExportService } from '../../services/researchExportService.ts';
import type { createSharedArtifactService } from '../../services/sharedArtifactService.ts';
import type { createSharedPortfolioService } from '../../services/sharedPortfolioService.ts';
import type { SsoService } from '../../services/ssoService.ts';
import type { SignInMethodService } from '../../services/signInMethodService.ts';
import type { createUserService } from '../../services/userService.ts';
import type { VersionService } from '../../services/versionService.ts';

/**
 * The services of the features, by name: the one way a route reaches one (`app.services.x`).
 * Each feature plugin (`server/src/features/`) builds its own and adds them here.
 */
export interface Services {
  auth: ReturnType<typeof createAuthService>;
  users: ReturnType<typeof createUserService>;
  /** Single sign-on through the configured providers. */
  sso: SsoService;
  /** Accounts' sign-in methods (identities, a password for the apps). */
  signInMethods: SignInMethodService;
  portfolios: ReturnType<typeof createPortfolioService>;
  artifacts: ReturnType<typeof createArtifactService>;
  media: ReturnType<typeof createMediaService>;
  exports: ReturnType<typeof createExportService>;
  research: ReturnType<typeof createResearchExportService>;
  /** The numbers behind the charts of researchers and PLC leads. */
  insights: InsightsService;
  shared: ReturnType<typeof createSharedPortfolioService>;
  sharedArtifacts: ReturnType<typeof createSharedArtifactService>;
  resumableUploads: ResumableUploadService;
  /** The writer thread of resumable uploads' bytes (decision 063). */
  resumableWriter: TusWriter;
  /** The history of artifacts and shared artifacts. */
  versions: VersionService;
  discussion: ReturnType<typeof createDiscussionService>;
  moments: ReturnType<typeof createMomentService>;
  /** Rubrics and the rubric a shared portfolio scores with. */
  rubrics: RubricService;
  /** Scores given with rubrics. */
  scores: ScoreService;
  /** The coverage map of tags and rubric levels. */
  coverage: CoverageService;
  invitations: ReturnType<typeof createInvitationService>;
  bundle: ReturnType<typeof createBundleService>;
  devices: ReturnType<typeof createDeviceService>;
  notifications: NotificationService;
  /** Live unread counts to this process's event streams. */
  notificationHub: NotificationHub;
  /** Teachers' archives and this process's builder of them. */
  archives: ArchiveService;
  /** The scheduled backups (`BACKUP_DIR`; `null` without): `runNow` queues one at once. */
  backups: { runNow(): Promise<void> } | null;
  /** What researchers see of the scheduled backups, whether they are on or off. */
  backupStatus: ReturnType<typeof createBackupStatusService>;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** What every service is built from. */
    serviceContext: ServiceContext;
    /** The stored files (uploads) and their previews. */
    mediaStore: MediaStore;
    /** Signed-in principals, kept per process and dropped on every change, here or in another process. */
    principals: PrincipalCache;
    /** The same as `services.archives` (tests drive the builder through it). */
    archives: ArchiveService;
    /** Where the limits shared by every node are counted: PostgreSQL, or Redis with `REDIS_URL`. */
    counters: CounterStore;
  }
}

/**
 * What the features build their services from (database, configuration, tokens, mail, log, the
 * principal cache and the media store), the counters of the shared limits, and the empty registry
 * the features fill.
 */
async function services(
  app: FastifyInstance,
  options: { mailer?: Mailer | undefined; clock?: Clock | undefined },
): Promise<void> {
  const { config, db } = app;
  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log: app.log,
    });
  // Signed-in principals are kept per process and dropped on every change, here or in another process.
  const principals = new PrincipalCache({ ttlMs: 60_000, maxEntries: 20_000 });
  app.decorate('principals', principals);
  const clock = options.clock ?? systemClock;
  app.decorate('serviceContext', {
    db,
    config,
    tokens: new TokenService(config.jwtSecret, clock),
    clock,
    mailer,
    log: app.log,
    principals,
  });
  const mediaStore = new MediaStore(
    db,
    config.dataDir,
    { ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath },
    app.log,
    await objectStoreOf(config),
    config.nodeId,
  );
  // Formats, video checks, posters and lengths are jobs, run by whichever node runs media.
  mediaStore.useProcessor(mediaJobs(app.jobs, mediaStore));
  // Uploads of a node that stopped and never came back: once older than any request may last.
  app.housekeeping.add(() => mediaStore.sweepAbandoned(config.timeouts.requestMs + 10 * 60_000));
  const counters = await counterStoreOf(config, db, app.log);
  app.decorate('counters', counters);
  // What needs the database waits until the server is ready: the app is built while the database
  // starts. Both come before any other background task and before the first request.
  app.background.add({
    name: 'request limit counters',
    // A Redis for the limits that cannot be reached stops the start, as a bucket does.
    start: () => counters.check(),
    stop: () => counters.close(),
  });
  app.background.add({ name: 'principal cache', start: () => principals.start(db), stop: () => principals.stop() });
  app.background.add({
    name: 'media store',
    async start() {
      // The store first (a bucket that cannot be reached is not recorded as the media's place).
      await mediaStore.objects.check();
      await checkMediaLocation(db, config.s3);
      await mediaStore.init();
    },
    // After the jobs had their time to finish: what ffmpeg still runs is killed.
    stop: async () => mediaStore.stop(),
  });
  app.decorate('mediaStore', mediaStore);
  app.decorate('services', {} as Services);
  app.decorate('archives', { getter: () => app.services.archives });
}

export default fastifyPlugin(services, { name: 'services', dependencies: ['database', 'background'] });
