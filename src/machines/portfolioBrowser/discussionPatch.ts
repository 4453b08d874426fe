import type { DiscussionChange } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import { isSharedPortfolio, type BrowsedPortfolio } from './selectors.ts';

/**
 * The portfolio with a shared artifact's discussion patched in (its comment count and texts,
 * its reaction flags, and the portfolio's comment count when the change knows it), as the
 * portfolio would answer after the change: nothing is fetched again.
 */
export function withDiscussion(portfolio: BrowsedPortfolio, change: DiscussionChange): BrowsedPortfolio {
  if (!isSharedPortfolio(portfolio)) return portfolio;
  const { artifactId, portfolioCommentCount, ...row } = change;
  return {
    ...portfolio,
    commentCount: portfolioCommentCount ?? portfolio.commentCount,
    sharedArtifacts: portfolio.sharedArtifacts.map((a) => (a.id === artifactId ? { ...a, ...row } : a)),
  };
}
