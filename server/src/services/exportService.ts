import type { User } from '#schemas/user';
import { forbidden } from '../errors.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { headerOf, summaryCells } from '../repositories/reporting/columns.ts';
import { SHARED_SUMMARY, TEACHER_SUMMARY } from '../repositories/reporting/summaryColumns.ts';
import { sharedSummaryRows, teacherSummaryRows } from '../repositories/reporting/summaryRepository.ts';
import type { ServiceContext } from './context.ts';

export const ONLY_RESEARCHERS_EXPORT = 'Only researchers can export summaries.';

/** The header of `teacher portfolios.csv` (its columns: `TEACHER_SUMMARY`). */
export const TEACHER_CSV_HEADER = headerOf(TEACHER_SUMMARY);

/** The header of `shared portfolios.csv` (its columns: `SHARED_SUMMARY`). */
export const SHARED_CSV_HEADER = headerOf(SHARED_SUMMARY);

/** CSV summaries for researchers, read in batches so that memory stays flat. */
export function createExportService(ctx: ServiceContext) {
  const { db } = ctx;
  return {
    /**
     * One row per personal portfolio of every teacher and PLC lead (researchers keep none),
     * ordered by teacher and portfolio. "Completed" means submitted to the portfolio. `signal`
     * (the client went away) stops the reading.
     * @throws 403 for anyone but a researcher.
     */
    teacherPortfolios(actor: User, signal?: AbortSignal): AsyncIterable<(string | number)[]> {
      if (!isResearcher(actor)) throw forbidden(ONLY_RESEARCHERS_EXPORT);
      return summaryCells(TEACHER_SUMMARY, teacherSummaryRows(db, signal));
    },

    /**
     * One row per shared portfolio. "Artifacts with Bonus Questions Answered" counts artifacts
     * that answered every team question, and none when there are no team questions. `signal`
     * (the client went away) stops the reading.
     * @throws 403 for anyone but a researcher.
     */
    sharedPortfolios(actor: User, signal?: AbortSignal): AsyncIterable<(string | number)[]> {
      if (!isResearcher(actor)) throw forbidden(ONLY_RESEARCHERS_EXPORT);
      return summaryCells(SHARED_SUMMARY, sharedSummaryRows(db, signal));
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
