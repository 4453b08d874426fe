import { Transform, type Readable } from 'node:stream';
import {
  RESEARCH_EXPORT_LOG_LIMIT,
  type ResearchExportFilters,
  type ResearchExportRecord,
  type ResearchExportStatus,
} from '#schemas/researchExport';
import type { User } from '#schemas/user';
import { badRequest, forbidden, HttpError } from '../errors.ts';
import { runResearchExport, type ResearchRun } from '../export/researchRunner.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import * as repo from '../repositories/researchExportRepository.ts';
import type { ServiceContext } from './context.ts';

export const ONLY_RESEARCHERS_PACKAGE = 'Only researchers can export research data.';

/**
 * A stream that passes bytes on and counts them (the package's size for the audit log). Once the
 * last byte went through, `beforeEnd` runs with the count and the stream ends only after it: the
 * response is not over before its export is recorded as completed.
 */
function byteCounter(beforeEnd: (bytes: number) => Promise<void>): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      void (async () => {
        let failure: Error | null = null;
        try {
          await beforeEnd(bytes);
        } catch (error) {
          failure = error instanceof Error ? error : new Error(String(error));
        }
        callback(failure);
      })();
    },
  });
}

/**
 * Bounds on research exports (decision 017): a package may be read slowly by its client while
 * its snapshot stays open, so exports run on a pool of their own (never the connections of
 * requests), at most one per researcher and `total` at once, and each ends after `timeLimitMs`
 * whatever its client's pace.
 */
export const RESEARCH_EXPORT_LIMITS = { perResearcher: 1, total: 2, timeLimitMs: 20 * 60_000 };

export const OWN_EXPORT_RUNNING =
  'Your previous research export is still running. Wait until its download has finished, then start the next.';
export const EXPORTS_BUSY = 'Two research exports are running already. Try again in a few minutes.';

/** The research export package and its audit log (researchers only). */
export function createResearchExportService(ctx: ServiceContext, limits = RESEARCH_EXPORT_LIMITS) {
  const { db, log } = ctx;
  /** The worker threads of the running exports (each with its own connection), ended when the server closes. */
  const runs = new Set<ResearchRun>();
  /** Running exports per researcher, and how to stop each (the server is closing). */
  const running = new Map<number, number>();
  const stoppers = new Set<() => void>();
  const runningTotal = () => [...running.values()].reduce((a, b) => a + b, 0);

  /** Takes a slot for `researcherId`; the returned function gives it back (once). */
  function takeSlot(researcherId: number): () => void {
    if ((running.get(researcherId) ?? 0) >= limits.perResearcher)
      throw new HttpError(409, 'export_running', OWN_EXPORT_RUNNING);
    if (runningTotal() >= limits.total) throw new HttpError(409, 'exports_busy', EXPORTS_BUSY);
    running.set(researcherId, (running.get(researcherId) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (running.get(researcherId) ?? 1) - 1;
      if (left > 0) running.set(researcherId, left);
      else running.delete(researcherId);
    };
  }

  /** Makes sure every id of the filters names a teacher or PLC lead, and a shared portfolio. */
  async function checkFilters(filters: ResearchExportFilters): Promise<void> {
    if (filters.teachers && filters.teachers.length > 0) {
      const unknown = await repo.notTeachers(db, filters.teachers);
      if (unknown.length > 0)
        throw badRequest(`No teacher or PLC lead has the id ${unknown.join(', ')}.`, 'unknown_teacher');
    }
    if (filters.sharedPortfolios && filters.sharedPortfolios.length > 0) {
      const unknown = await repo.missingSharedPortfolios(db, filters.sharedPortfolios);
      if (unknown.length > 0)
        throw badRequest(`No shared portfolio has the id ${unknown.join(', ')}.`, 'unknown_shared_portfolio');
    }
  }

  return {
    /**
     * Streams one research package (a ZIP) for `filters`: every file read page by page from one
     * consistent snapshot and written as it comes, so memory stays flat at any size. The export
     * is recorded in the audit log before the first byte; `signal` (the client went away) stops
     * the work and records it as cancelled.
     * @throws 403 for anyone but a researcher; 400 for ids that name no teacher or shared portfolio.
     */
    async exportPackage(
      actor: User,
      filters: ResearchExportFilters,
      clientGone: AbortSignal,
    ): Promise<{ stream: Readable; fileName: string }> {
      if (!isResearcher(actor)) throw forbidden(ONLY_RESEARCHERS_PACKAGE);
      if (!db.settings) throw new Error('research exports need the PostgreSQL server');
      const connection = db.settings();
      const giveBack = takeSlot(actor.id);
      let secret: Buffer;
      let record: Awaited<ReturnType<typeof repo.insertExport>>;
      try {
        await checkFilters(filters);
        secret = await repo.pseudonymSecret(db);
        record = await repo.insertExport(db, actor.id, filters);
      } catch (error) {
        giveBack();
        throw error;
      }
      // The work stops when the client goes away, when the time limit is over, or when the server closes.
      const ending = new AbortController();
      const signal = AbortSignal.any([clientGone, ending.signal, AbortSignal.timeout(limits.timeLimitMs)]);
      const end = () => ending.abort();
      stoppers.add(end);
      const rowCounts: Record<string, number> = {};
      let settled = false;
      const settle = async (status: Exclude<ResearchExportStatus, 'running'>, bytes: number | null = null) => {
        if (settled) return;
        settled = true;
        stoppers.delete(end);
        giveBack();
        try {
          await repo.finishExport(db, record.id, { status, rowCounts, bytes });
        } catch (error) {
          log.error({ err: error }, 'could not record the end of a research export');
        }
      };
      // The ZIP's last byte comes after every file was written: the package is complete.
      const output = byteCounter((bytes) => settle('completed', bytes));
      // Built in a worker thread with its own heap limit and database connection: the server's
      // heap does not grow with the work (decision 021).
      const run = runResearchExport(
        { connection, filters, secret, record: { id: record.id, startedAt: record.startedAt } },
        (counts) => Object.assign(rowCounts, counts),
        (error) => {
          if (signal.aborted) return;
          log.error({ err: error }, 'research export failed');
          void settle('failed');
          output.destroy(error);
        },
      );
      runs.add(run);
      void run.exited.then(() => runs.delete(run));
      run.zip.on('error', (error: Error) => output.destroy(error));
      run.zip.pipe(output);
      const stop = () => {
        run.stop();
        void settle('cancelled');
        output.destroy();
      };
      // A client gone before this point never fires the event: it is cancelled all the same.
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });

      output.on('close', () => {
        if (!settled) stop();
      });

      const day = record.startedAt.toISOString().slice(0, 10);
      return { stream: output, fileName: `practicefolio-research-${day}-export-${record.id}.zip` };
    },

    /**
     * The audit log of research exports, latest first.
     * @throws 403 for anyone but a researcher.
     */
    async list(actor: User): Promise<ResearchExportRecord[]> {
      if (!isResearcher(actor)) throw forbidden(ONLY_RESEARCHERS_PACKAGE);
      return repo.listExports(db, RESEARCH_EXPORT_LOG_LIMIT);
    },

    /** Stops every running export and closes the exports' own connections (the server is closing). */
    async close(): Promise<void> {
      for (const stop of stoppers) stop();
      await Promise.all([...runs].map((run) => run.exited));
    },
  };
}

export type ResearchExportService = ReturnType<typeof createResearchExportService>;
