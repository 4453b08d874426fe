import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authenticated } from '../http/auth.ts';
import { objectStoreOf } from '../media/objectStore.ts';
import { archiveRoutes } from '../routes/archiveRoutes.ts';
import { createArchiveService, type ArchiveWorkerOptions } from '../services/archiveService.ts';

/** How archive builds run as jobs (tests retry at once). */
export interface ArchiveJobOptions extends ArchiveWorkerOptions {
  /** Seconds before a failed build is tried again (doubled on each further try). */
  retryDelaySeconds?: number;
  /** A build whose node sends no heartbeat for this long (seconds, ≥ 10) goes to another node. */
  heartbeatSeconds?: number;
}

const ArchiveJobData = z.object({ archiveId: z.number().int().positive() }).strict();

/** Builds waiting at once, for the whole installation: beyond that, asking for one answers 503. */
const MAX_QUEUED_BUILDS = 500;
const BUSY = 'Many archives are being made just now. Please ask again in a few minutes.';

/**
 * A teacher's archive of her own work, built by the `archives.build` job on a node that runs
 * archives (`WORKERS`): a build under way when its node stops goes back to the queue, one whose
 * node died goes to another node, and one that fails for good is marked failed. Old archives go
 * with the housekeeping.
 */
export async function archivesFeature(
  app: FastifyInstance,
  options: { worker?: ArchiveJobOptions | undefined },
): Promise<void> {
  const folders = {
    archives: path.join(app.config.dataDir, 'archives'),
    uploads: app.mediaStore.objects,
    built: await objectStoreOf(app.config, 'archives'),
  };
  const giveUp = app.jobs.define({
    name: 'archives.give-up',
    group: 'archives',
    data: ArchiveJobData,
    run: ({ archiveId }) => archives.giveUp(archiveId),
    retryLimit: 10,
    retryDelaySeconds: 30,
    retryBackoff: true,
    maxQueued: MAX_QUEUED_BUILDS,
    busyMessage: BUSY,
    concurrency: 1,
  });
  const build = app.jobs.define({
    name: 'archives.build',
    group: 'archives',
    data: ArchiveJobData,
    run: ({ archiveId }, job) => archives.build(archiveId, job),
    retryLimit: 2,
    retryDelaySeconds: options.worker?.retryDelaySeconds ?? 10,
    retryBackoff: (options.worker?.retryDelaySeconds ?? 10) > 0,
    expireInSeconds: 6 * 3600,
    heartbeatSeconds: options.worker?.heartbeatSeconds ?? 15,
    maxQueued: MAX_QUEUED_BUILDS,
    busyMessage: BUSY,
    // One build per node at a time: each reads every file of a teacher and writes a ZIP.
    concurrency: 1,
    onStop: 'handBack',
    deadLetter: giveUp,
  });
  const archives = createArchiveService(
    app.serviceContext,
    folders,
    (archiveId) => app.jobs.send(build, { archiveId }),
    options.worker,
  );
  app.services.archives = archives;
  // A build a killed process of this machine held is queued again as soon as the engine runs here.
  app.jobs.onStarted(async () => {
    for (const orphan of await archives.orphanedHere()) await app.jobs.handBack(build, orphan.jobId);
  });
  app.housekeeping.add(() => archives.prune());
  await app.register(authenticated(archiveRoutes));
}
