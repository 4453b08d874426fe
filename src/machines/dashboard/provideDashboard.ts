import type { PromiseActorLogic } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { Portfolio, PortfolioCreateBody, PortfolioListItem } from '../../schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { portfolioCreateMachine } from '../portfolioCreate/portfolioCreateMachine.ts';
import type { Notice } from '../shared/notice.ts';
import { dashboardMachine } from './dashboardMachine.ts';

/** What the dashboard needs from outside: how to tell the user things, and (tests) other services. */
export interface DashboardImplementations {
  /** Shows a message (a toast; errors as alerts). */
  notify: (notice: Notice) => void;
  /** Replacements for the service calls (tests); the real services otherwise. */
  actors?: {
    listPortfolios?: PromiseActorLogic<PortfolioListItem[]>;
    listSharedPortfolios?: PromiseActorLogic<SharedPortfolioListItem[]>;
    listInvitations?: PromiseActorLogic<Invitation[]>;
    createPortfolio?: PromiseActorLogic<Portfolio, PortfolioCreateBody>;
  };
}

/** The dashboard logic with its outward effects supplied, down to the add row it starts. */
export function provideDashboard({ notify, actors = {} }: DashboardImplementations) {
  const { createPortfolio, ...lists } = actors;
  const portfolioCreate = portfolioCreateMachine.provide({
    actions: { notify: (_, notice) => notify(notice) },
    ...(createPortfolio ? { actors: { createPortfolio } } : {}),
  });
  return dashboardMachine.provide({ actors: { portfolioCreate, ...lists } });
}
