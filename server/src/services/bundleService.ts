import type { LoginResponse } from '#schemas/loginBundle';
import type { User } from '#schemas/user';
import { abilitiesFor } from '../policies/abilities.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { portfolioRepository } from '../repositories/portfolioRepository.ts';
import { discussionRepository } from '../repositories/discussionRepository.ts';
import { sharedArtifactRepository } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository } from '../repositories/sharedPortfolioRepository.ts';
import type { ServiceContext } from './context.ts';

/** What the mobile apps cache after logging in: the user's own and shared content. */
export function createBundleService(ctx: ServiceContext) {
  const { db } = ctx;
  return {
    /** The login answer's `user` with the caller's portfolios, artifacts, shared portfolios, shared artifacts, comments and reactions. */
    async forUser(user: User): Promise<LoginResponse['user']> {
      const [portfolios, artifacts, sharedPortfolios, sharedArtifacts, comments, reactions] = await Promise.all([
        portfolioRepository.list(db, user.id),
        artifactRepository.load(db, { ownerId: user.id }),
        sharedPortfolioRepository.list(db, { memberId: user.id }),
        sharedArtifactRepository.load(db, { memberId: user.id }),
        discussionRepository.commentsForMember(db, user.id),
        discussionRepository.reactionsForMember(db, user.id),
      ]);
      return {
        ...user,
        abilities: abilitiesFor.user(user),
        portfolios,
        artifacts: artifacts.map((a) => ({ ...a, portfolio: a.portfolio.id })),
        sharedPortfolios,
        sharedArtifacts,
        comments,
        reactions,
      };
    },
  };
}
