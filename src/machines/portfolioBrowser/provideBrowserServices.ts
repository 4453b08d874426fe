import type { PromiseActorLogic } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { ArtifactCreateMachine } from '../artifactCreate/artifactCreateMachine.ts';
import type { PortfolioListingMachine } from '../portfolioListing/portfolioListingMachine.ts';
import type { PortfolioBrowserMachine } from './portfolioBrowserMachine.ts';
import type { BrowsedPortfolio, BrowsedPortfolioListItem } from './selectors.ts';
import { given } from '../shared/given.ts';

/** Replacements for the browser's service calls: the shared portfolios' endpoints, or a test's fakes. */
export interface BrowserServices {
  listPortfolios?: PromiseActorLogic<BrowsedPortfolioListItem[], { owner: number | null }> | undefined;
  getPortfolio?: PromiseActorLogic<BrowsedPortfolio, { portfolioId: number }> | undefined;
  createArtifact?: PromiseActorLogic<Artifact, { portfolioId: number }> | undefined;
}

/**
 * The browser's logic with other service calls, down to the children that make them: the list and
 * the portfolio of the address (`portfolioListing`, whose portfolio fetch is the browser's own) and
 * Create New Artifact (`artifactCreate`). What `logic` already gave its children (the app's effects,
 * the shared portfolios' services) is kept.
 */
export function provideBrowserServices(
  logic: PortfolioBrowserMachine,
  { listPortfolios, getPortfolio, createArtifact }: BrowserServices,
): PortfolioBrowserMachine {
  // The children as `logic` provides them (a machine's actors are typed as a union of them all).
  const children = logic.implementations.actors as unknown as {
    portfolioListing: PortfolioListingMachine;
    artifactCreate: ArtifactCreateMachine;
  };
  return logic.provide({
    actors: {
      ...given({ getPortfolio }),
      portfolioListing: children.portfolioListing.provide({ actors: given({ listPortfolios, getPortfolio }) }),
      artifactCreate: children.artifactCreate.provide({ actors: given({ createArtifact }) }),
    },
  });
}
