import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { ARCHIVE_VALID_DAYS, type ArchiveJob } from '#schemas/archive';
import type { User } from '#schemas/user';
import type { Timer } from '../clock.ts';
import { conflict, notFound } from '../errors.ts';
import { archiveReadyMessage } from '../mail/messages.ts';
import { ARCHIVE_MESSAGES, canDownloadArchive, canKeepArchives } from '../policies/archivePolicy.ts';
import { archiveJobRepository, type ArchiveJobRecord } from '../repositories/archiveJobRepository.ts';
import { archiveContentRepository } from '../repositories/reporting/archiveContentRepository.ts';
import type { ObjectStore } from '../media/objectStore.ts';
import { buildArchive } from './archiveBuilder.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';

/** How the background builder runs (tests shorten the times and hold a build mid-way). */
export interface ArchiveWorkerOptions {
  /** How often an idle builder looks for waiting jobs (a request in this process wakes it at once). */
  pollMs?: number;
  /** How long a claim holds without renewal: a job whose builder died is taken up again after this. */
  leaseMs?: number;
  /** How often a builder renews its lease and records its progress. */
  heartbeatMs?: number;
  /** Called after each artifact a build writes. */
  onStep?: () => Promise<void>;
}

/** A failed job stays listed this long (so that its owner sees it failed), then housekeeping removes it. */
const FAILED_KEEP_DAYS = 1;
/** A job taken up this many times without finishing (its builder died each time) is given up. */
const MAX_ATTEMPTS = 3;
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

class BuildStopped extends Error {
  override name = 'BuildStopped';
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

/**
 * Teachers' archives: ask for one, list them, download one; and the background builder that
 * every server process runs. Jobs live in `archive_jobs`, so they survive restarts and are
 * shared by all processes: each claims one job at a time (`FOR UPDATE SKIP LOCKED`), renews its
 * lease while it builds, hands the job back when it stops, and a job whose builder died is
 * claimed again once the lease lapses.
 */
export function createArchiveService(
  ctx: ServiceContext,
  folders: { archives: string; uploads: ObjectStore; built: ObjectStore },
  options: ArchiveWorkerOptions = {},
) {
  const { db, log } = ctx;
  const pollMs = options.pollMs ?? 5000;
  const leaseMs = options.leaseMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? 1000;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  let running = false;
  let timer: Timer | null = null;
  let loop: Promise<void> | null = null;
  let current: AbortController | null = null;
  /** Whether this process has looked for jobs of dead processes since it started. */
  let reclaimed = false;

  function schedule(ms: number): void {
    if (!running) return;
    timer?.cancel();
    timer = ctx.clock.setTimeout(tick, ms);
  }

  function tick(): void {
    timer = null;
    if (!running || loop) return;
    loop = (async () => {
      try {
        if (!reclaimed) {
          reclaimed = true;
          await reclaimFromDeadProcesses();
        }
        let more = true;
        while (more) more = running && (await runOnce());
      } catch (error) {
        log.warn({ err: error }, 'archive builder could not look for jobs');
      } finally {
        loop = null;
        schedule(pollMs);
      }
    })();
  }

  /**
   * At start: hands back at once the jobs a builder on this machine held when its process died
   * (killed, crashed), instead of waiting for their leases to lapse. A job whose process may be
   * alive is left to its lease.
   */
  async function reclaimFromDeadProcesses(): Promise<void> {
    const host = hostname();
    for (const job of await archiveJobRepository.claimedOn(db, `${host}:`)) {
      const pid = Number(job.claimedBy.split(':')[1]);
      if (!Number.isSafeInteger(pid) || pid <= 0 || isAlive(pid)) continue;
      if (await archiveJobRepository.handBack(db, job.id, job.claimedBy)) {
        log.info({ job: job.id, builder: job.claimedBy }, 'archive job of a stopped process taken up again');
      }
    }
  }

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

  /** Builds one claimed job to its end: ready (and e-mailed), failed, or handed back. */
  async function buildJob(job: ArchiveJobRecord): Promise<void> {
    if (job.attempts > MAX_ATTEMPTS) {
      log.error({ job: job.id }, 'archive job given up after repeated interruptions');
      await archiveJobRepository.fail(db, job.id, workerId, 'interrupted too often', FAILED_KEEP_DAYS);
      return;
    }
    if (!running) {
      // The server began stopping while this job was being claimed.
      await archiveJobRepository.release(db, job.id, workerId);
      return;
    }
    const controller = new AbortController();
    current = controller;
    let progress = 0;
    let lost = false;
    const renewLease = async (): Promise<void> => {
      try {
        const ours = await archiveJobRepository.renew(db, job.id, workerId, progress, leaseMs);
        if (!ours && !controller.signal.aborted) {
          lost = true;
          controller.abort(new BuildStopped('the job was taken over'));
        }
      } catch (error) {
        log.warn({ err: error, job: job.id }, 'could not renew an archive job');
      }
    };
    const beat = ctx.clock.setInterval(() => void renewLease(), heartbeatMs);
    try {
      const built = await buildArchive(db, folders, job.ownerId, {
        signal: controller.signal,
        onProgress: (p) => {
          progress = p;
        },
        onCounts: (counts) => archiveJobRepository.setCounts(db, job.id, workerId, counts),
        ...(options.onStep ? { onStep: options.onStep } : {}),
      });
      // Kept where every node finds it (the lease still renewed while a large ZIP goes to the bucket).
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
      } else if (controller.signal.aborted) {
        await archiveJobRepository.release(db, job.id, workerId);
      } else {
        log.error({ err: error, job: job.id }, FAILED_MESSAGE);
        await archiveJobRepository.fail(
          db,
          job.id,
          workerId,
          error instanceof Error ? error.message : String(error),
          FAILED_KEEP_DAYS,
        );
      }
    } finally {
      current = null;
    }
  }

  /** Claims and builds one job; `false` when none waits. */
  async function runOnce(): Promise<boolean> {
    const job = await archiveJobRepository.claim(db, workerId, leaseMs);
    if (!job) return false;
    await buildJob(job);
    return true;
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
     * Queues an archive of the caller's own work and wakes this process's builder.
     * @throws 403 for researchers; 409 while one is under way.
     */
    async request(actor: User): Promise<ArchiveJob> {
      assertAllowed(canKeepArchives(actor));
      const job = await archiveJobRepository.create(db, actor.id);
      if (!job) throw conflict(ARCHIVE_MESSAGES.active);
      schedule(0);
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

    /** The builder of this process. */
    worker: {
      id: workerId,
      /** Starts looking for jobs (at once, then every `pollMs`). */
      start(): void {
        running = true;
        reclaimed = false;
        schedule(0);
      },
      /** Stops: a build under way is abandoned and its job handed back to the queue. */
      async stop(): Promise<void> {
        running = false;
        timer?.cancel();
        timer = null;
        current?.abort(new BuildStopped('the server is stopping'));
        await loop;
      },
      /** Resolves once the look for jobs under way (if any) has ended: the builder is between looks, or stopped. */
      async idle(): Promise<void> {
        await loop;
      },
      /** Claims one job for this process without building it (tests of the claim). */
      claim: () => archiveJobRepository.claim(db, workerId, leaseMs),
    },
  };
}

export type ArchiveService = ReturnType<typeof createArchiveService>;
