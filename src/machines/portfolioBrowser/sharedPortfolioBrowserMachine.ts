import { fromPromise } from 'xstate';
import { getSharedPortfolioSummary, listSharedPortfolios } from '../../services/sharedService.ts';
import { portfolioBrowserMachine, type PortfolioBrowserMachine } from './portfolioBrowserMachine.ts';
import { provideBrowserServices } from './provideBrowserServices.ts';
import type { BrowsedPortfolio, BrowsedPortfolioListItem } from './selectors.ts';

/**
 * The browser of shared portfolios: the same chart (and its listing child) over the shared portfolio
 * services. The portfolio is read in brief (`GET /shared-portfolios/{id}/summary`); an artifact is
 * read whole when it is opened.
 */
export const sharedPortfolioBrowserMachine: PortfolioBrowserMachine = provideBrowserServices(portfolioBrowserMachine, {
  listPortfolios: fromPromise<BrowsedPortfolioListItem[], { owner: number | null }>(({ signal }) =>
    listSharedPortfolios(signal),
  ),
  getPortfolio: fromPromise<BrowsedPortfolio, { portfolioId: number }>(({ input, signal }) =>
    getSharedPortfolioSummary(input.portfolioId, signal),
  ),
});
