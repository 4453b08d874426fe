import { fromPromise } from 'xstate';
import { getSharedPortfolio, listSharedPortfolios } from '../../services/sharedService.ts';
import { portfolioBrowserMachine, type PortfolioBrowserMachine } from './portfolioBrowserMachine.ts';
import { provideBrowserServices } from './provideBrowserServices.ts';
import type { BrowsedPortfolio, BrowsedPortfolioListItem } from './selectors.ts';

/** The browser of shared portfolios: the same chart (and its listing child) over the shared portfolio services. */
export const sharedPortfolioBrowserMachine: PortfolioBrowserMachine = provideBrowserServices(portfolioBrowserMachine, {
  listPortfolios: fromPromise<BrowsedPortfolioListItem[], { owner: number | null }>(({ signal }) =>
    listSharedPortfolios(signal),
  ),
  getPortfolio: fromPromise<BrowsedPortfolio, { portfolioId: number }>(({ input, signal }) =>
    getSharedPortfolio(input.portfolioId, signal),
  ),
});
