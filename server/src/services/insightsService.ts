import type { Insights, InsightsQuery } from '#schemas/insights';
import type { User } from '#schemas/user';
import { notFound } from '../errors.ts';
import { canSeeInsights, canSeePortfolioInsights } from '../policies/insightsPolicy.ts';
import { SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { insightsRepository, type InsightsScope } from '../repositories/insightsRepository.ts';
import { sharedPortfolioRepository } from '../repositories/sharedPortfolioRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';

/**
 * The charts' numbers (decision 057): researchers see the installation or one shared portfolio;
 * a portfolio's owner sees hers. A constant number of statements per request (at most seven),
 * whatever the size of the data.
 */
export function createInsightsService(ctx: ServiceContext) {
  const { db } = ctx;
  return {
    /**
     * @throws 403 for a teacher who owns no shared portfolio, and for a member naming her
     *   portfolio; 404 for a portfolio the caller may not know.
     */
    async get(actor: User, query: InsightsQuery): Promise<Insights> {
      const researcher = isResearcher(actor);
      const ownerId = researcher ? null : actor.id;
      const portfolios = await insightsRepository.portfolios(db, ownerId);
      if (query.sharedPortfolio !== undefined) {
        const sp = await sharedPortfolioRepository.findById(db, query.sharedPortfolio);
        if (!sp) throw notFound(SHARED_MESSAGES.notFound);
        assertAllowed(canSeePortfolioInsights(actor, sp));
      } else assertAllowed(canSeeInsights(actor, portfolios.length > 0));
      const scope: InsightsScope = {
        sharedPortfolioId: query.sharedPortfolio ?? null,
        ownerId,
        from: query.from ?? null,
        to: query.to ?? null,
      };
      const [activity, discussion, levels, agreement] = await Promise.all([
        insightsRepository.activity(db, scope),
        insightsRepository.discussion(db, scope),
        insightsRepository.levels(db, scope),
        insightsRepository.agreement(db, scope),
      ]);
      return {
        scope: researcher && query.sharedPortfolio === undefined ? 'installation' : 'portfolios',
        portfolios,
        activity,
        discussion: discussion.items,
        discussionMore: discussion.more,
        levels,
        agreement,
      };
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
