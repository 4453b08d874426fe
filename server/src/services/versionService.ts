import type { Structure } from '#schemas/structure';
import type { User } from '#schemas/user';
import {
  VERSIONS_PAGE_DEFAULT,
  type VersionDetail,
  type VersionListResponse,
  type VersionSummary,
} from '#schemas/versions';
import { notFound } from '../errors.ts';
import { canReadArtifact, PORTFOLIO_MESSAGES } from '../policies/portfolioPolicy.ts';
import { canWorkInShared, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import type { Holder } from '../repositories/mediaRepository.ts';
import { sharedArtifactRepository } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository } from '../repositories/sharedPortfolioRepository.ts';
import { versionRepository, type VersionRow } from '../repositories/versionRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import { VERSION_MESSAGES } from './versionFiles.ts';
import { summarise } from './versionSummary.ts';

/**
 * Reading the history of artifacts and shared artifacts (restores: the artifact services, which
 * guard them as saves). A personal artifact's history: its owner and researchers (read-only); a
 * shared artifact's: current members and researchers. Everyone else is told it does not exist.
 */
export function createVersionService(ctx: ServiceContext) {
  const { db } = ctx;

  /** The questions that name the changes, once the caller may read the holder's history. @throws 404 otherwise. */
  async function readable(actor: User, holder: Holder, id: number): Promise<Structure> {
    if (holder === 'artifact') {
      const record = await artifactRepository.findRecord(db, id);
      if (!record) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      assertAllowed(canReadArtifact(actor, record));
      // A never-saved artifact exists only for its owner's editor.
      if (!record.saved && record.ownerId !== actor.id) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      return record.structure;
    }
    const record = await sharedArtifactRepository.findRecord(db, id);
    if (!record) throw notFound(SHARED_MESSAGES.artifactNotFound);
    const sp = await sharedPortfolioRepository.findById(db, record.sharedPortfolioId);
    if (!sp) throw notFound(SHARED_MESSAGES.artifactNotFound);
    assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.artifactNotFound));
    return record.structure;
  }

  /** The list items of `rows` (newest first); the last row only serves as the one before the others. */
  async function summaries(rows: VersionRow[], count: number, structure: Structure): Promise<VersionSummary[]> {
    const kinds = await versionRepository.kinds(db, [...new Set(rows.flatMap((r) => r.files))]);
    return rows.slice(0, count).map((row, i) => ({
      number: row.number,
      author: row.author,
      created_at: row.createdAt,
      client: row.client,
      restoredFrom: row.restoredFrom,
      summary: summarise(row, rows[i + 1], structure, kinds),
    }));
  }

  return {
    /**
     * A page of the history, newest first: `limit` versions (default 20) older than version
     * `before` (the newest when absent). @throws 404 unless the caller may read the history.
     */
    async list(
      actor: User,
      holder: Holder,
      id: number,
      query: { before?: number | undefined; limit?: number | undefined },
    ): Promise<VersionListResponse> {
      const structure = await readable(actor, holder, id);
      const limit = query.limit ?? VERSIONS_PAGE_DEFAULT;
      const [rows, total] = await Promise.all([
        versionRepository.page(db, holder, id, { before: query.before ?? null, limit }),
        versionRepository.latestNumber(db, holder, id),
      ]);
      const items = await summaries(rows, limit, structure);
      const last = items.at(-1);
      return { items, total, nextBefore: last && last.number > 1 ? last.number : null };
    },

    /** Version `number` whole: its answers and its files. @throws 404 without it, or unless the caller may read the history. */
    async get(actor: User, holder: Holder, id: number, number: number): Promise<VersionDetail> {
      const structure = await readable(actor, holder, id);
      const rows = await versionRepository.withPrevious(db, holder, id, number);
      const version = rows[0];
      if (!version) throw notFound(VERSION_MESSAGES.notFound);
      const [[summary], responses, files] = await Promise.all([
        summaries(rows, 1, structure),
        versionRepository.answersAt(db, holder, id, number),
        versionRepository.keptFiles(db, holder, id, version.files),
      ]);
      return { ...summary!, responses, ...files };
    },
  };
}

export type VersionService = ReturnType<typeof createVersionService>;
