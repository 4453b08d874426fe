import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import { useCompareEvents, useCompareOn, useCompareSelection, type CompareRef } from '../../machines/compare/useCompare.ts';
import {
  useBrowserError,
  useBrowserEvents,
  useBrowserMode,
  useBrowserStatus,
  useCanCreateArtifact,
  useClosedArtifactId,
  useCompareRef,
  useCreatingArtifact,
  usePortfolio,
  useRefreshingPortfolio,
  usePortfolioList,
  useSearchText,
  useSelectedArtifactId,
  useSelectedPortfolioId,
  useSort,
  useVisibleRows,
} from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { isSharedPortfolio, type BrowsedPortfolio } from '../../machines/portfolioBrowser/selectors.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { COMPARE_MAX } from '../../schemas/catalog.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { Input, Label } from '../components/Field.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { paths } from '../paths.ts';
import { SharedPortfolioSummary } from '../shared/browser/SharedPortfolioSummary.tsx';
import { ArtifactPane, CompareView } from './ArtifactPane.tsx';
import { ArtifactsTable } from './ArtifactsTable.tsx';
import { ActiveFilters, FilterBy } from './FilterBy.tsx';
import { focusHeading } from './focusHeading.ts';
import { Hint, Problem } from './Notices.tsx';
import { PortfolioSummary } from './PortfolioSummary.tsx';

/** The message for a portfolio that does not exist or is not the viewer's (spec §5, §8). */
export const PORTFOLIO_NOT_FOUND = 'Portfolio not found.';

/** The message for a shared portfolio that does not exist or that the viewer may not see (spec §5). */
export const SHARED_PORTFOLIO_NOT_FOUND = 'Shared portfolio not found.';

/** The row of selects (and the search) above the portfolio. */
export const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 0 ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.sm};
  & > * { flex: 1 1 220px; max-width: 360px; }
  & > button { flex: 0 0 auto; margin-bottom: ${({ theme }) => theme.space.md}; }
`;

const SearchWrap = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.xs};
  margin-bottom: ${({ theme }) => theme.space.md};
`;

const TableBar = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.sm};
  h2 { margin: 0; font-size: ${({ theme }) => theme.font.size.lg}; }
`;

const Shown = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.color.textMuted};
`;

const Toggle = styled.label`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  font-weight: ${({ theme }) => theme.font.weight.medium};
  cursor: pointer;
  input { width: 18px; height: 18px; margin: 0; }
`;

/**
 * The table and what it shows. Side by side (900 px and wider): the table keeps its place while
 * the chosen artifact (or the comparison) beside it grows with its content. Stacked (narrower):
 * the chosen artifact takes the table's place, with Back to artifacts; the comparison follows the
 * table and a cue brings it into view.
 */
const Layout = styled.div<{ $comparing: boolean; $chosen: boolean }>`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  align-items: start;
  grid-template-columns: ${({ $comparing }) => ($comparing ? 'minmax(0, 5fr) minmax(0, 7fr)' : 'minmax(0, 7fr) minmax(0, 5fr)')};
  & > .table-column {
    position: sticky;
    top: ${({ theme }) => theme.space.sm};
  }
  @media ${({ theme }) => theme.media.stacked} {
    grid-template-columns: minmax(0, 1fr);
    & > .table-column {
      position: static;
      ${({ $chosen }) => ($chosen ? 'display: none;' : '')}
    }
    & > .detail-column {
      ${({ $chosen, $comparing }) => (!$chosen && !$comparing ? 'display: none;' : '')}
    }
  }
`;

/** The comparison's cue on stacked layouts: how many are picked, and a way to it. */
const CompareCue = styled.div`
  display: none;
  @media ${({ theme }) => theme.media.stacked} {
    display: flex;
    position: sticky;
    bottom: 0;
    z-index: 5;
    align-items: center;
    justify-content: space-between;
    gap: ${({ theme }) => theme.space.sm};
    margin-top: ${({ theme }) => theme.space.sm};
    padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
    background: ${({ theme }) => theme.color.headerBackground};
    color: ${({ theme }) => theme.color.headerText};
    border-radius: ${({ theme }) => theme.radius.md};
    box-shadow: ${({ theme }) => theme.shadow.popover};
    p { margin: 0; }
  }
`;

/** Whether the browser shows one thing at a time (the stacked layout). */
const isStacked = (): boolean => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 899px)').matches;

/** Brings an element's top into view when it is not (smoothly unless the user asked for less motion). */
function revealTop(element: HTMLElement | null): void {
  if (!element || typeof element.scrollIntoView !== 'function') return;
  const { top } = element.getBoundingClientRect();
  if (top >= 0 && top < window.innerHeight * 0.6) return;
  element.scrollIntoView({ block: 'start' });
}


/** The portfolio selector: the viewer's (or the teacher's, or the shared) portfolios by name. */
function PortfolioSelect() {
  const shared = useBrowserMode() === 'shared';
  const portfolios = usePortfolioList();
  const selected = useSelectedPortfolioId();
  const { selectPortfolio } = useBrowserEvents();
  return (
    <SelectField
      label={shared ? 'Select Shared Portfolio' : 'Select Portfolio'}
      placeholder={shared ? 'Select a shared portfolio' : 'Select a portfolio'}
      options={portfolios.map((p) => ({ value: String(p.id), label: p.name }))}
      value={selected === null ? '' : String(selected)}
      onChange={(event) => {
        if (event.target.value) selectPortfolio(Number(event.target.value));
      }}
    />
  );
}

/** Keyword search over every answer and comment of the portfolio's artifacts. */
function KeywordSearch() {
  const id = useId();
  const text = useSearchText();
  const { search } = useBrowserEvents();
  return (
    <SearchWrap role="search">
      <Label htmlFor={id}>Search artifacts</Label>
      <Input id={id} type="search" placeholder="Keyword" value={text} onChange={(event) => search(event.target.value)} />
    </SearchWrap>
  );
}

/** 'Create New Artifact' (the viewer's own portfolio): a parking-lot artifact, then its edit page. */
export function CreateArtifactButton() {
  const can = useCanCreateArtifact();
  const busy = useCreatingArtifact();
  const { createArtifact } = useBrowserEvents();
  if (!can) return null;
  return (
    <BusyButton type="button" busy={busy} busyLabel="Creating a new artifact…" onClick={createArtifact}>
      Create New Artifact
    </BusyButton>
  );
}

function CompareToggle({ compare }: { compare: CompareRef }) {
  const on = useCompareOn(compare);
  const { toggle } = useCompareEvents(compare);
  return (
    <Toggle>
      <input type="checkbox" checked={on} onChange={toggle} />
      Compare
    </Toggle>
  );
}

function ArtifactsArea({ portfolio, compare }: { portfolio: BrowsedPortfolio; compare: CompareRef | undefined }) {
  const headingId = useId();
  const mode = useBrowserMode();
  const rows = useVisibleRows();
  const sort = useSort();
  const selectedId = useSelectedArtifactId();
  const closedId = useClosedArtifactId();
  const comparing = useCompareOn(compare);
  const picked = useCompareSelection(compare);
  const { pick } = useCompareEvents(compare);
  const { sortBy, selectArtifact, closeArtifact } = useBrowserEvents();
  const refreshing = useRefreshingPortfolio();
  const detail = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLDivElement>(null);
  const shared = mode === 'shared';
  const total = rowsTotal(portfolio);
  const chosen = !comparing && selectedId !== null;

  // A chosen artifact opens where the teacher is looking: beside the table, or in its place on
  // narrow screens (then the focus moves to it).
  const previous = useRef(selectedId);
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = selectedId;
    if (before === selectedId || comparing || selectedId === null) return;
    if (isStacked()) {
      focusHeading(detail.current);
      detail.current?.scrollIntoView?.({ block: 'start' });
    } else {
      revealTop(detail.current);
    }
  }, [selectedId, comparing]);

  // After Back to artifacts the table returns with the focus on the closed artifact's row.
  useLayoutEffect(() => {
    if (closedId === null) return;
    const row = table.current?.querySelector<HTMLElement>(`[data-row-key="${closedId}"]`);
    row?.focus({ preventScroll: true });
    row?.scrollIntoView?.({ block: 'center' });
  }, [closedId]);

  // The comparison brings itself into view once it is complete (side by side it already is).
  const pairs = picked.length;
  const lastPairs = useRef(pairs);
  useLayoutEffect(() => {
    const before = lastPairs.current;
    lastPairs.current = pairs;
    if (comparing && pairs === COMPARE_MAX && before < pairs) {
      if (isStacked()) detail.current?.scrollIntoView?.({ block: 'start' });
      else revealTop(detail.current);
    }
  }, [pairs, comparing]);

  const showComparison = () => {
    detail.current?.scrollIntoView?.({ block: 'start' });
    focusHeading(detail.current);
  };
  const backToTable = () => {
    const row = table.current?.querySelector<HTMLElement>('[role="row"][aria-selected="true"], [role="row"][tabindex="0"]');
    row?.focus({ preventScroll: true });
    (row ?? table.current)?.scrollIntoView?.({ block: 'center' });
  };

  return (
    // Busy while the counts are brought up to date after a comment or reaction.
    <section aria-labelledby={headingId} aria-busy={refreshing || undefined}>
      <TableBar>
        <h2 id={headingId}>Artifacts</h2>
        <Shown aria-live="polite">{rows.length === total ? `${total} ${total === 1 ? 'artifact' : 'artifacts'}` : `${rows.length} of ${total} artifacts shown`}</Shown>
        {compare ? <CompareToggle compare={compare} /> : null}
      </TableBar>
      <Layout $comparing={comparing} $chosen={chosen}>
        <div className="table-column" ref={table}>
          <ArtifactsTable
            showParkingLot={!shared}
            rows={rows}
            sort={sort}
            onSort={sortBy}
            selectedId={selectedId}
            onSelect={selectArtifact}
            comparing={comparing}
            picked={picked}
            onPick={pick}
          />
          {comparing ? (
            <CompareCue>
              <p role="status">
                {picked.length === 0 ? `Tick up to ${COMPARE_MAX} artifacts to compare.` : `${picked.length} of ${COMPARE_MAX} picked for comparison.`}
              </p>
              <Button type="button" $variant="secondary" $small onClick={showComparison}>
                Show comparison
              </Button>
            </CompareCue>
          ) : null}
        </div>
        <div className="detail-column" ref={detail}>
          {comparing && compare ? (
            <CompareView compare={compare} onBackToTable={backToTable} />
          ) : (
            <ArtifactPane artifactId={selectedId} portfolio={portfolio} readOnly={mode === 'researcher'} onBack={closeArtifact} />
          )}
        </div>
      </Layout>
    </section>
  );
}

const rowsTotal = (portfolio: BrowsedPortfolio): number =>
  isSharedPortfolio(portfolio) ? portfolio.sharedArtifacts.length : portfolio.artifacts.length;

function NoSharedPortfolioYet() {
  const user = useCurrentUser();
  const portfolios = usePortfolioList();
  if (portfolios.length > 0) return <Hint>Choose a shared portfolio to see its artifacts.</Hint>;
  return (
    <Hint>
      {user?.abilities.readAllSharedPortfolios ? 'There are no shared portfolios yet.' : 'You are not a member of any shared portfolio yet.'}{' '}
      {user?.abilities.createSharedPortfolio ? <Link href={paths.sharedPortfolioNew}>Create a shared portfolio.</Link> : null}
    </Hint>
  );
}

function NoPortfolioYet() {
  const mode = useBrowserMode();
  const portfolios = usePortfolioList();
  if (mode === 'shared') return <NoSharedPortfolioYet />;
  if (portfolios.length > 0) return <Hint>Choose a portfolio to see its artifacts.</Hint>;
  if (mode === 'researcher') return <Hint>This teacher has no portfolios yet.</Hint>;
  return (
    <Hint>
      You have no portfolios yet. <Link href={paths.dashboard}>Add one on the dashboard.</Link>
    </Hint>
  );
}

/**
 * The artifact browser of My Portfolios, Teacher Portfolios and Shared Portfolios: the portfolio
 * selector, Filter By, keyword search, the portfolio's summary, its artifacts table with compare
 * mode and the detail pane. `leading` goes before the portfolio selector (the teacher selector).
 */
export function PortfolioBrowser({ leading }: { leading?: ReactNode }) {
  const status = useBrowserStatus();
  const mode = useBrowserMode();
  const error = useBrowserError();
  const portfolio = usePortfolio();
  const compare = useCompareRef();
  const { retry } = useBrowserEvents();
  const shared = mode === 'shared';

  if (status === 'listFailed') {
    return (
      <>
        {leading ? <Controls>{leading}</Controls> : null}
        <Problem title={shared ? 'The shared portfolios could not be loaded' : 'The portfolios could not be loaded'} message={error?.message} onRetry={retry} />
      </>
    );
  }
  if (status === 'listing') {
    return (
      <>
        {leading ? <Controls>{leading}</Controls> : null}
        <PageSkeleton label={shared ? 'Loading shared portfolios' : 'Loading portfolios'} />
      </>
    );
  }
  const loaded = status === 'loaded' && portfolio !== null;
  return (
    <>
      <Controls>
        {leading}
        <PortfolioSelect />
        {loaded ? <KeywordSearch /> : null}
        {loaded ? <FilterBy /> : null}
      </Controls>
      {status === 'idle' ? <NoPortfolioYet /> : null}
      {status === 'loading' ? <PageSkeleton label={shared ? 'Loading shared portfolio' : 'Loading portfolio'} /> : null}
      {status === 'notFound' ? <Problem title={shared ? SHARED_PORTFOLIO_NOT_FOUND : PORTFOLIO_NOT_FOUND} /> : null}
      {status === 'loadFailed' ? (
        <Problem title={shared ? 'The shared portfolio could not be loaded' : 'The portfolio could not be loaded'} message={error?.message} onRetry={retry} />
      ) : null}
      {loaded ? (
        <>
          <ActiveFilters />
          {isSharedPortfolio(portfolio) ? (
            <SharedPortfolioSummary key={portfolio.id} portfolio={portfolio} />
          ) : (
            <PortfolioSummary portfolio={portfolio} editable={mode === 'personal'} />
          )}
          <ArtifactsArea portfolio={portfolio} compare={compare} />
        </>
      ) : null}
    </>
  );
}
