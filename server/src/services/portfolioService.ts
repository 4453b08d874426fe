import { MAX_ID } from '#schemas/common';
import type {
  Portfolio,
  PortfolioCreateBody,
  PortfolioListItem,
  PortfolioSummary,
  PortfolioUpdateBody,
} from '#schemas/portfolio';
import type { User } from '#schemas/user';
import { badRequest, notFound } from '../errors.ts';
import {
  canCreatePortfolio,
  canReadPortfolio,
  canWritePortfolio,
  PORTFOLIO_MESSAGES,
} from '../policies/portfolioPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { portfolioFields, portfolioRepository, type PortfolioRecord } from '../repositories/portfolioRepository.ts';
import type { MediaStore } from '../media/mediaStore.ts';
import { deleteArtifacts } from './artifactService.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';

export const DELETE_NOT_EMPTY = 'A portfolio can be deleted only when it has no artifacts.';

const blankToNull = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim();

/** Personal portfolios: list, read, create, change, delete. */
export function createPortfolioService(ctx: ServiceContext, store: Pick<MediaStore, 'discard'>) {
  const { db } = ctx;

  async function load(id: number): Promise<PortfolioRecord> {
    const p = await portfolioRepository.findById(db, id);
    if (!p) throw notFound(PORTFOLIO_MESSAGES.notFound);
    return p;
  }

  async function full(p: PortfolioRecord): Promise<Portfolio> {
    const artifacts = await artifactRepository.load(db, { portfolioIds: [p.id] });
    return { ...portfolioFields(p), artifacts };
  }

  return {
    /** The caller's portfolios; a researcher's: everyone's, or one owner's with `owner`. */
    async list(actor: User, query: { owner?: number }): Promise<PortfolioListItem[]> {
      // No account has an id beyond the database's integers (and the query must not overflow).
      if (query.owner !== undefined && query.owner > MAX_ID) return [];
      if (isResearcher(actor)) return portfolioRepository.list(db, query.owner ?? null);
      if (query.owner !== undefined && query.owner !== actor.id) return [];
      return portfolioRepository.list(db, actor.id);
    },

    /**
     * One portfolio with its artifacts.
     * @throws 404 when missing or not the caller's (researchers read all).
     */
    async get(actor: User, id: number): Promise<Portfolio> {
      const p = await load(id);
      assertAllowed(canReadPortfolio(actor, p));
      return full(p);
    },

    /**
     * One portfolio with its artifacts in brief (the web's table), allowed exactly as `get`.
     * @throws 404 when missing or not the caller's (researchers read all).
     */
    async summary(actor: User, id: number): Promise<PortfolioSummary> {
      const p = await load(id);
      assertAllowed(canReadPortfolio(actor, p));
      return { ...portfolioFields(p), artifacts: await artifactRepository.briefs(db, p.id) };
    },

    /**
     * A new portfolio owned by the caller with the template's questions.
     * @throws 403 for researchers.
     */
    async create(actor: User, body: PortfolioCreateBody): Promise<Portfolio> {
      assertAllowed(canCreatePortfolio(actor));
      const id = await portfolioRepository.createFromTemplate(db, {
        ownerId: actor.id,
        name: body.name.trim(),
        grades: body.grades ?? [],
        subject: blankToNull(body.subject) ?? null,
        topic: blankToNull(body.topic) ?? null,
      });
      return full((await portfolioRepository.findById(db, id))!);
    },

    /**
     * Changes name, grades, subject or topic.
     * @throws 404 / 403 per policy.
     */
    async update(actor: User, id: number, body: PortfolioUpdateBody): Promise<Portfolio> {
      const p = await load(id);
      assertAllowed(canWritePortfolio(actor, p));
      if (body.id !== undefined && body.id !== id) throw badRequest('The id in the body does not match the address.');
      const patch: Parameters<typeof portfolioRepository.update>[2] = {};
      if (body.name !== undefined) patch.name = body.name.trim();
      if (body.grades !== undefined) patch.grades = body.grades;
      if (body.subject !== undefined) patch.subject = blankToNull(body.subject) ?? null;
      if (body.topic !== undefined) patch.topic = blankToNull(body.topic) ?? null;
      await portfolioRepository.update(db, id, patch);
      return full((await portfolioRepository.findById(db, id))!);
    },

    /**
     * Deletes an empty portfolio.
     * @throws 400 while it has artifacts; 404 / 403 per policy.
     */
    async remove(actor: User, id: number): Promise<PortfolioListItem> {
      const p = await load(id);
      assertAllowed(canWritePortfolio(actor, p));
      // A new artifact still waiting for its first save is nobody's work yet: it goes with the portfolio.
      await deleteArtifacts(db, store, await artifactRepository.unsavedIdsIn(db, id));
      const deleted = await portfolioRepository.deleteIfEmpty(db, id);
      if (!deleted) throw badRequest(DELETE_NOT_EMPTY, 'portfolio_not_empty');
      return { ...portfolioFields(p), artifacts: [] };
    },
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;
