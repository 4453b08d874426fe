import { createActorContext } from '../shared/actorReact.ts';
import { useDeferredValue, useMemo } from 'react';
import { useGuardedMove } from '../typedTextGuard/useTypedTextGuard.ts';
import type { CompareRef } from '../compare/useCompare.ts';
import type { DiscussionChange } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import { portfolioBrowserMachine } from './portfolioBrowserMachine.ts';
import { filterRows, sortRows, type ArtifactRow, type BrowsedArtifact, type SortColumn } from './selectors.ts';

/** The browser's actor; the app provides its logic (navigation, toasts) and the address as input. */
export const PortfolioBrowserActorContext = createActorContext(portfolioBrowserMachine);

export type BrowserStatus = 'listing' | 'listFailed' | 'idle' | 'loading' | 'notFound' | 'loadFailed' | 'loaded';

/** Where the browser stands. */
export function useBrowserStatus(): BrowserStatus {
  return PortfolioBrowserActorContext.useSelector((s) => {
    if (s.matches('listing')) return 'listing';
    if (s.matches('listFailed')) return 'listFailed';
    if (s.matches({ ready: 'loaded' })) return 'loaded';
    if (s.matches({ ready: 'notFound' })) return 'notFound';
    if (s.matches({ ready: 'loadFailed' })) return 'loadFailed';
    if (s.matches({ ready: 'idle' })) return 'idle';
    return 'loading';
  });
}

// The hooks below return parts of the machine's context, typed once in portfolioBrowserTypes.ts.

/** Personal (own portfolios), researcher (read-only) or shared. */
export const useBrowserMode = () => PortfolioBrowserActorContext.useSelector((s) => s.context.mode);

/** The selector's portfolios, by name. */
export const usePortfolioList = () => PortfolioBrowserActorContext.useSelector((s) => s.context.portfolios);

/** The chosen portfolio's id. */
export const useSelectedPortfolioId = (): number | null =>
  PortfolioBrowserActorContext.useSelector((s) => s.context.portfolioId);

/** The chosen portfolio, once loaded. */
export const usePortfolio = () => PortfolioBrowserActorContext.useSelector((s) => s.context.portfolio);

/** The artifact chosen for the detail pane (its id). */
export const useSelectedArtifactId = (): number | null =>
  PortfolioBrowserActorContext.useSelector((s) => s.context.artifactId);

/** The artifact just closed with Back to artifacts (its row takes the focus back). */
export const useClosedArtifactId = (): number | null =>
  PortfolioBrowserActorContext.useSelector((s) => s.context.closedArtifactId);

/** Why the list or the portfolio could not be shown. */
export const useBrowserError = () => PortfolioBrowserActorContext.useSelector((s) => s.context.error);

/** The keyword search as typed. */
export const useSearchText = (): string => PortfolioBrowserActorContext.useSelector((s) => s.context.search);

/** The chosen filters. */
export const useFilters = () => PortfolioBrowserActorContext.useSelector((s) => s.context.filters);

/** The table's order. */
export const useSort = () => PortfolioBrowserActorContext.useSelector((s) => s.context.sort);

/** All rows of the portfolio (before filters). */
export const useAllRows = (): readonly ArtifactRow[] => PortfolioBrowserActorContext.useSelector((s) => s.context.rows);

/** Whether a new artifact is being created. */
export const useCreatingArtifact = (): boolean => PortfolioBrowserActorContext.useSelector((s) => s.hasTag('busy'));

/** Whether Create New Artifact is offered now. */
export const useCanCreateArtifact = (): boolean =>
  PortfolioBrowserActorContext.useSelector((s) => s.matches({ ready: 'loaded' }) && s.context.mode === 'personal');

/** The compare-mode actor of the shown portfolio. */
export function useCompareRef(): CompareRef | undefined {
  // Children are typed as a union of every actor the machine may start; this id is the compare actor's.
  return PortfolioBrowserActorContext.useSelector((s) => s.children.compare as CompareRef | undefined);
}

/**
 * The rows the table shows: sorted when the order or the portfolio changes, then filtered and
 * searched (a keystroke only filters the sorted list; typing stays responsive on big portfolios).
 * Filters and search reach the rows after the tick or keystroke itself is drawn (deferred: the
 * new rows are drawn in a transition that further input may interrupt).
 */
export function useVisibleRows(): readonly ArtifactRow[] {
  const rows = useAllRows();
  const sort = useSort();
  const filters = useDeferredValue(useFilters());
  const search = useDeferredValue(useSearchText());
  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  return useMemo(() => filterRows(sorted, filters, search), [sorted, filters, search]);
}

/** The artifacts of the shown portfolio with these ids, in the order given (missing ones skipped). */
export function useArtifactsById(ids: readonly number[]): BrowsedArtifact[] {
  const rows = useAllRows();
  return useMemo(() => {
    const byId = new Map(rows.map((row) => [row.id, row.artifact]));
    return ids.flatMap((id) => {
      const artifact = byId.get(id);
      return artifact ? [artifact] : [];
    });
  }, [rows, ids]);
}

/** What the page may ask of the browser. */
export function useBrowserEvents() {
  const actor = PortfolioBrowserActorContext.useActorRef();
  // Another portfolio or artifact replaces what is on screen: the leave guards ask first (typed text).
  const guarded = useGuardedMove();
  return useMemo(
    () => ({
      selectPortfolio: (portfolioId: number) => guarded(() => actor.send({ type: 'portfolio.select', portfolioId })),
      routeChanged: (portfolioId: number | null, artifactId: number | null) =>
        actor.send({ type: 'route.change', portfolioId, artifactId }),
      selectArtifact: (artifactId: number) => {
        const select = () => actor.send({ type: 'artifact.select', artifactId });
        // The artifact on screen chosen again leaves nothing.
        if (actor.getSnapshot().context.artifactId === artifactId) select();
        else guarded(select);
      },
      closeArtifact: () => guarded(() => actor.send({ type: 'artifact.close' })),
      createArtifact: () => guarded(() => actor.send({ type: 'artifact.create' })),
      artifactDeleted: (artifactId: number) => actor.send({ type: 'artifact.deleted', artifactId }),
      artifactRemoved: (artifactId: number) => actor.send({ type: 'artifact.removed', artifactId }),
      patchDiscussion: (change: DiscussionChange) => actor.send({ type: 'discussion.changed', change }),
      portfolioLeft: (portfolioId: number) => actor.send({ type: 'portfolio.left', portfolioId }),
      search: (text: string) => actor.send({ type: 'search.change', text }),
      toggleFilter: (key: string, value: string) => actor.send({ type: 'filter.toggle', key, value }),
      setRecent: (on: boolean) => actor.send({ type: 'filter.recent', on, at: Date.now() }),
      clearFilters: () => actor.send({ type: 'filters.clear' }),
      sortBy: (column: SortColumn) => actor.send({ type: 'sort.change', column }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor, guarded],
  );
}
