import {
  COVERAGE_COLUMNS,
  COVERAGE_PAGE_MAX,
  type Coverage,
  type CoverageArtifactPage,
  type CoverageCellQuery,
  type CoverageQuery,
} from '#schemas/coverage';
import type { User } from '#schemas/user';
import { badRequest, notFound } from '../errors.ts';
import {
  canSeeInstallationCoverage,
  canSeeSharedCoverage,
  canSeeTeacherCoverage,
  COVERAGE_MESSAGES,
  seesAllPortfolioScores,
} from '../policies/coveragePolicy.ts';
import { SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { coverageRepository, type CoverageFilter } from '../repositories/coverageRepository.ts';
import { sharedPortfolioRepository } from '../repositories/sharedPortfolioRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';

/** The coverage map of a teacher, a shared portfolio or the installation, and the artifacts behind a cell. */
export function createCoverageService(ctx: ServiceContext) {
  const { db } = ctx;

  /** Checks the caller may see this map; what it covers and its name. */
  async function resolve(actor: User, q: CoverageQuery): Promise<{ filter: CoverageFilter; name: string | null }> {
    if (q.scope === 'installation') {
      assertAllowed(canSeeInstallationCoverage(actor));
      const source = q.rows === 'teachers' ? 'personalByOwner' : 'sharedByPortfolio';
      return { filter: { source, teacherId: null, sharedPortfolioId: null, viewerId: null }, name: null };
    }
    const id = q.id!;
    if (q.scope === 'teacher') {
      assertAllowed(canSeeTeacherCoverage(actor, id));
      const teacher = await userRepository.findById(db, id);
      if (!teacher || isResearcher(teacher.user)) throw notFound(COVERAGE_MESSAGES.teacherNotFound);
      const source = q.rows === 'teachers' ? 'personalByOwner' : 'personalByPortfolio';
      return {
        filter: { source, teacherId: id, sharedPortfolioId: null, viewerId: null },
        name: teacher.user.username,
      };
    }
    const sp = await sharedPortfolioRepository.findById(db, id);
    if (!sp) throw notFound(SHARED_MESSAGES.notFound);
    assertAllowed(canSeeSharedCoverage(actor, sp));
    const source = q.rows === 'teachers' ? 'sharedByOwner' : 'sharedByPortfolio';
    const viewerId = seesAllPortfolioScores(actor, sp) ? null : actor.id;
    return { filter: { source, teacherId: null, sharedPortfolioId: id, viewerId }, name: sp.name };
  }

  return {
    /** The map: one row per teacher or portfolio of the scope, one column per item of the dimension. */
    async map(actor: User, q: CoverageQuery): Promise<Coverage> {
      const { filter, name } = await resolve(actor, q);
      const columns = COVERAGE_COLUMNS[q.dimension];
      const rows = await coverageRepository.map(
        db,
        filter,
        columns.map((c) => c.key),
      );
      return { scope: q.scope, name, rowKind: q.rows, dimension: q.dimension, columns: [...columns], rows };
    },

    /** One page of the artifacts behind a cell, newest change first. */
    async cell(actor: User, q: CoverageCellQuery): Promise<CoverageArtifactPage> {
      if (!COVERAGE_COLUMNS[q.dimension].some((c) => c.key === q.column))
        throw badRequest(`There is no column ${q.column} among the ${q.dimension}.`);
      const { filter } = await resolve(actor, q);
      const page = await coverageRepository.cell(db, filter, q.row, q.column, {
        limit: COVERAGE_PAGE_MAX,
        offset: (q.page - 1) * COVERAGE_PAGE_MAX,
      });
      return { ...page, page: q.page, pageSize: COVERAGE_PAGE_MAX };
    },
  };
}

export type CoverageService = ReturnType<typeof createCoverageService>;
