import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { PortfolioListItem } from '../../schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import type { UiError } from '../../services/errors.ts';
import type { PortfolioCreateRef } from '../portfolioCreate/usePortfolioCreate.ts';
import { dashboardMachine, type DashboardSection } from './dashboardMachine.ts';
import {
  invitationRows,
  sortPortfolios,
  sortSharedPortfolios,
  summarize,
  type InvitationRow,
  type PortfolioSortColumn,
  type PortfolioSummary,
  type SharedSortColumn,
  type Sort,
} from './selectors.ts';

/** The page's actor; the app provides its logic (`provideDashboard`) and the role as input. */
export const DashboardActorContext = createActorContext(dashboardMachine);

/** Where a section stands; `hidden` is My Portfolios for researchers. */
export type SectionStatus = 'hidden' | 'loading' | 'failed' | 'ready';

/** Where one section stands. */
export function useSectionStatus(section: DashboardSection): SectionStatus {
  // The parallel region's own state name, read directly: every subscribed view asks on every
  // snapshot, and `matches` parses the state value it is given each time.
  return DashboardActorContext.useSelector((s) => sectionStatus(s.value[section]));
}

const SECTION_STATUSES: ReadonlySet<string> = new Set<SectionStatus>(['ready', 'failed', 'hidden']);

/** A section region's state name as the views know it (`loading` for anything else). */
function sectionStatus(state: string): SectionStatus {
  return SECTION_STATUSES.has(state) ? (state as SectionStatus) : 'loading';
}

/** Why a section could not be loaded. */
export const useSectionError = (section: DashboardSection): UiError | null =>
  DashboardActorContext.useSelector((s) => s.context.errors[section]);

/** Whether the signed-in user has personal portfolios (My Portfolios; otherwise the summary instead). */
export const useOwnsPortfolios = (): boolean => DashboardActorContext.useSelector((s) => s.context.ownPortfolios);

/** The order of My Portfolios. */
export const usePortfolioSort = (): Sort<PortfolioSortColumn> =>
  DashboardActorContext.useSelector((s) => s.context.portfolioSort);

/** The order of Shared Portfolios. */
export const useSharedSort = (): Sort<SharedSortColumn> =>
  DashboardActorContext.useSelector((s) => s.context.sharedSort);

/** My Portfolios in the table's order (sorted again only when the list or the order changes). */
export function usePortfolioRows(): PortfolioListItem[] {
  const portfolios = DashboardActorContext.useSelector((s) => s.context.portfolios);
  const sort = usePortfolioSort();
  return useMemo(() => sortPortfolios(portfolios, sort), [portfolios, sort]);
}

/** Shared Portfolios in the table's order. */
export function useSharedRows(): SharedPortfolioListItem[] {
  const shared = DashboardActorContext.useSelector((s) => s.context.shared);
  const sort = useSharedSort();
  return useMemo(() => sortSharedPortfolios(shared, sort), [shared, sort]);
}

/** The researcher's counts over the shared portfolios. */
export function usePortfolioSummary(): PortfolioSummary {
  const shared = DashboardActorContext.useSelector((s) => s.context.shared);
  return useMemo(() => summarize(shared), [shared]);
}

/** The invitations the table shows, newest first. */
export function useInvitationRows(): InvitationRow[] {
  const invitations = DashboardActorContext.useSelector((s) => s.context.invitations);
  return useMemo(() => invitationRows(invitations), [invitations]);
}

/** The portfolio added last on this page, to highlight it. */
export const useAddedPortfolioId = (): number | null => DashboardActorContext.useSelector((s) => s.context.addedId);

/** The add row's actor, while My Portfolios is shown. */
export function usePortfolioCreateRef(): PortfolioCreateRef | undefined {
  // Children are typed as a union of every actor the machine may start; this id is the add row's.
  return DashboardActorContext.useSelector((s) => s.children.portfolioCreate as PortfolioCreateRef | undefined);
}

/** What the page may ask. */
export function useDashboardEvents() {
  const actor = DashboardActorContext.useActorRef();
  return useMemo(
    () => ({
      retry: (section: DashboardSection) => actor.send({ type: `${section}.retry` }),
      sortPortfolios: (column: PortfolioSortColumn) => actor.send({ type: 'portfolios.sort', column }),
      sortShared: (column: SharedSortColumn) => actor.send({ type: 'shared.sort', column }),
    }),
    [actor],
  );
}
