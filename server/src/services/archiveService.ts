import { readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { ARCHIVE_VALID_DAYS, type ArchiveJob } from '#schemas/archive';
import type { User } from '#schemas/user';
import type { RunningJob } from '../jobs/jobKind.ts';
import { conflict, notFound } from '../errors.ts';
import { archiveReadyMessage } from '../mail/messages.ts';
import { ARCHIVE_MESSAGES, canDownloadArchive, canKeepArchives } from '../policies/archivePolicy.ts';
import { archiveJobRepository, type ArchiveJobRecord } from '../repositories/archiveJobRepository.ts';
import { archiveContentRepository } from '../repositories/reporting/archiveContentRepository.ts';
import type { ObjectStore } from '../media/objectStore.ts';
import { buildArchive } from './archiveBuilder.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';

/** How the builder runs (tests shorten the times and hold a build mid-way). */
export interface ArchiveWorkerOptions {
  /** How often a build records its progress (and notices that it was taken over). */
  heartbeatMs?: number;
  /** Called after each artifact a build writes. */
  onStep?: () => Promise<void>;
}

/** A failed job stays listed this long (so that its owner sees it failed), then housekeeping removes it. */
const FAILED_KEEP_DAYS = 1;
/** Files in the archives folder that no job names (or half-written ones) are deleted once this old. */
const STRAY_AFTER_MS = 60 * 60 * 1000;
const FAILED_MESSAGE = 'the archive could not be built';
/**
 * Ready archives kept per teacher: each is a full copy of her files outside her quota, so a new
 * one replaces the oldest beyond this (decision 017).
 */
export const READY_ARCHIVES_KEPT = 2;

/** Where a ready archive is, for the download route. */
export interface ArchiveFile {
  /** Where the ZIP is kept (this machine's archives folder, or the bucket every node reads). */
  store: ObjectStore;
  fileName: string;
  /** The name the browser saves it as. */
  downloadName: string;
}

/** Whether a process of this machine runs (one we may not signal runs too). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

class BuildStopped extends Error {
  override name = 'BuildStopped';
}

/**
 * Teachers' archives: ask for one, list them, download one, and build one (the `archives.build`
 * job, on whichever node runs archives). The row in `archive_jobs` is what the teacher sees
 * (queued, building with its progress, ready, failed); the job engine decides who builds and when,
 * retries a failed build, hands a build back when its node stops, and gives a build whose node
 * died (no heartbeat) to another node. A build that fails for good reaches `giveUp`.
 */
export function createArchiveService(
  ctx: ServiceContext,
  folders: { archives: string; uploads: ObjectStore; built: ObjectStore },
  queue: (archiveId: number) => Promise<unknown>,
  options: ArchiveWorkerOptions = {},
) {
  const { db, log } = ctx;
  const heartbeatMs = options.heartbeatMs ?? 1000;

  async function notifyOwner(job: ArchiveJobRecord): Promise<void> {
    const owner = await archiveContentRepository.owner(db, job.ownerId);
    if (!owner || !job.job.expires_at) return;
    const base = ctx.config.publicUrl.replace(/\/+$/, '');
    const message = archiveReadyMessage(
      owner,
      { download: `${base}/api/v1/archives/${job.id}/download`, dashboard: `${base}/dashboard` },
      job.job.expires_at,
    );
    await ctx.mailer
      .send(message)
      .catch((error: unknown) => log.warn({ err: error, job: job.id }, 'could not send the archive e-mail'));
  }

  /**
   * Builds the archive `archiveId` as the engine's job `run`: ready (and e-mailed) at the end. A
   * build stopped by its node hands the row back to the queue; one that fails leaves it queued
   * for the engine's retry (with its error, for `giveUp`) and throws.
   */
  async function build(archiveId: number, run: RunningJob): Promise<void> {
    // The job, and the node that builds it (for an operator, and a test that stops that node).
    const workerId = `${run.id}@${hostname()}:${process.pid}`;
    const job = await archiveJobRepository.take(db, archiveId, workerId);
    if (!job) return; // ready, failed or deleted meanwhile
    const controller = new AbortController();
    const stop = () => controller.abort(new BuildStopped('the server is stopping'));
    run.signal.addEventListener('abort', stop, { once: true });
    let progress = 0;
    let lost = false;
    const recordProgress = async (): Promise<void> => {
      try {
        const ours = await archiveJobRepository.renew(db, job.id, workerId, progress);
        if (!ours && !controller.signal.aborted) {
          lost = true;
          controller.abort(new BuildStopped('the job was taken over'));
        }
      } catch (error) {
        log.warn({ err: error, job: job.id }, 'could not record the progress of an archive');
      }
    };
    const beat = ctx.clock.setInterval(() => void recordProgress(), heartbeatMs);
    try {
      if (run.signal.aborted) stop();
      const built = await buildArchive(db, folders, job.ownerId, {
        signal: controller.signal,
        onProgress: (p) => {
          progress = p;
        },
        onCounts: (counts) => archiveJobRepository.setCounts(db, job.id, workerId, counts),
        ...(options.onStep ? { onStep: options.onStep } : {}),
      });
      // Kept where every node finds it.
      await folders.built.putFile(built.fileName, path.join(folders.archives, built.fileName), 'application/zip');
      beat.cancel();
      // Ready and the older ready ones gone in one step: the owner never sees more than the kept number.
      const { done, replaced } = await db.transaction(async (tx) => {
        const finished = await archiveJobRepository.finish(tx, job.id, workerId, {
          name: built.fileName,
          size: built.size,
          validDays: ARCHIVE_VALID_DAYS,
        });
        return {
          done: finished,
          replaced: finished ? await archiveJobRepository.deleteOlderReady(tx, job.ownerId, READY_ARCHIVES_KEPT) : [],
        };
      });
      if (!done) {
        await folders.built.remove([built.fileName]);
        return;
      }
      log.info({ job: job.id, size: built.size }, 'archive ready');
      await folders.built.remove(replaced);
      await notifyOwner(done);
    } catch (error) {
      beat.cancel();
      if (lost) {
        log.warn({ job: job.id }, 'archive job taken over by another builder');
        return;
      }
      if (controller.signal.aborted) {
        // Not a failed attempt: the engine queues the build again for another node.
        await archiveJobRepository.release(db, job.id, workerId, null);
      } else {
        log.error({ err: error, job: job.id, attempt: run.attempt }, FAILED_MESSAGE);
        await archiveJobRepository.release(
          db,
          job.id,
          workerId,
          error instanceof Error ? error.message : String(error),
        );
      }
      throw error;
    } finally {
      run.signal.removeEventListener('abort', stop);
    }
  }

  return {
    /**
     * The caller's archives, newest first.
     * @throws 403 for researchers.
     */
    async list(actor: User): Promise<ArchiveJob[]> {
      assertAllowed(canKeepArchives(actor));
      return (await archiveJobRepository.listFor(db, actor.id)).map((r) => r.job);
    },

    /**
     * Queues an archive of the caller's own work.
     * @throws 403 for researchers; 409 while one is under way; 503 when too many builds wait.
     */
    async request(actor: User): Promise<ArchiveJob> {
      assertAllowed(canKeepArchives(actor));
      const job = await archiveJobRepository.create(db, actor.id);
      if (!job) throw conflict(ARCHIVE_MESSAGES.active);
      try {
        await queue(job.id);
      } catch (error) {
        // Too many builds waiting (503): nothing is kept, the teacher asks again later.
        await archiveJobRepository.remove(db, job.id);
        throw error;
      }
      return job.job;
    },

    /**
     * A ready archive of the caller's.
     * @throws 404 for anyone but its owner and for an expired one; 409 while it is being built.
     */
    async download(actor: User, id: number): Promise<ArchiveFile> {
      const job = await archiveJobRepository.find(db, id);
      if (!job) throw notFound(ARCHIVE_MESSAGES.notFound);
      assertAllowed(canDownloadArchive(actor, job));
      if (job.status === 'failed') throw notFound(ARCHIVE_MESSAGES.notFound);
      if (job.status !== 'ready' || !job.fileName) throw conflict(ARCHIVE_MESSAGES.notReady);
      if (job.job.expires_at && Date.parse(job.job.expires_at) <= Date.now()) throw notFound(ARCHIVE_MESSAGES.expired);
      if ((await folders.built.size(job.fileName)) === null) throw notFound(ARCHIVE_MESSAGES.expired);
      const day = (job.job.finished_at ?? job.job.created_at).slice(0, 10);
      return { store: folders.built, fileName: job.fileName, downloadName: `practicefolio-archive-${day}.zip` };
    },

    /**
     * Deletes expired archives with their files, and files in the archives folder (where builds
     * are written) that no job names.
     */
    async prune(): Promise<void> {
      await folders.built.remove(await archiveJobRepository.deleteExpired(db));
      const entries = await readdir(folders.archives).catch(() => [] as string[]);
      if (entries.length === 0) return;
      const known = await archiveJobRepository.fileNames(db);
      for (const entry of entries) {
        if (known.has(entry)) continue;
        const file = path.join(folders.archives, entry);
        const info = await stat(file).catch(() => null);
        if (info && Date.now() - info.mtimeMs > STRAY_AFTER_MS) await rm(file, { force: true, recursive: true });
      }
    },

    build,

    /**
     * The builds that processes of this machine held when they died (killed, crashed): their rows
     * and job ids, for the engine to queue again at once rather than wait for a missed heartbeat.
     */
    async orphanedHere(): Promise<{ archiveId: number; jobId: string }[]> {
      const host = hostname();
      const orphans: { archiveId: number; jobId: string }[] = [];
      for (const row of await archiveJobRepository.buildingOn(db, `@${host}:`)) {
        const match = /^(.+)@.+:(\d+)$/.exec(row.claimedBy);
        const pid = Number(match?.[2]);
        if (!match || !Number.isSafeInteger(pid) || pid <= 0 || isAlive(pid)) continue;
        await archiveJobRepository.release(db, row.id, row.claimedBy, null);
        log.info({ job: row.id, builder: row.claimedBy }, 'archive job of a stopped process taken up again');
        orphans.push({ archiveId: row.id, jobId: match[1]! });
      }
      return orphans;
    },

    /** Marks a build that failed for good as failed (the engine's dead letter of `archives.build`). */
    async giveUp(archiveId: number): Promise<void> {
      if (await archiveJobRepository.giveUp(db, archiveId, FAILED_MESSAGE, FAILED_KEEP_DAYS))
        log.error({ job: archiveId }, 'archive given up after repeated failures');
    },
  };
}

export type ArchiveService = ReturnType<typeof createArchiveService>;
