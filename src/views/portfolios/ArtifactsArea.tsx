import { memo, useDeferredValue, useId, useLayoutEffect, useRef } from 'react';
import styled from 'styled-components';
import {
  useCompareEvents,
  useCompareOn,
  useCompareSelection,
  type CompareRef,
} from '../../machines/compare/useCompare.ts';
import {
  useBrowserEvents,
  useBrowserMode,
  useClosedArtifactId,
  useSelectedArtifactId,
  useSort,
  useVisibleRows,
} from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { isSharedPortfolio, type BrowsedPortfolio } from '../../machines/portfolioBrowser/selectors.ts';
import { COMPARE_MAX } from '../../schemas/catalog.ts';
import { Button } from '../components/Button.tsx';
import { ArtifactPane, CompareView } from './ArtifactPane.tsx';
import { ArtifactsTable } from './ArtifactsTable.tsx';
import { focusHeading } from './focusHeading.ts';
import { theme } from '../theme/theme.ts';

const TableBar = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: ${theme.space.sm} ${theme.space.md};
  margin-bottom: ${theme.space.sm};
  h2 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
`;

const Shown = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
`;

const Toggle = styled.label`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.sm};
  font-weight: ${theme.font.weight.medium};
  cursor: pointer;
  input {
    width: 18px;
    height: 18px;
    margin: 0;
  }
`;

/**
 * The table and what it shows. Side by side (900 px and wider): the table keeps its place while
 * the chosen artifact (or the comparison) beside it grows with its content. Stacked (narrower):
 * the chosen artifact takes the table's place, with Back to artifacts; the comparison follows the
 * table and a cue brings it into view.
 */
const Layout = styled.div`
  display: grid;
  gap: ${theme.space.lg};
  align-items: start;
  grid-template-columns: minmax(0, 7fr) minmax(0, 5fr);
  &[data-comparing] {
    grid-template-columns: minmax(0, 5fr) minmax(0, 7fr);
  }
  & > .table-column {
    position: sticky;
    top: ${theme.space.sm};
  }
  @media ${theme.media.stacked} {
    &,
    &[data-comparing] {
      grid-template-columns: minmax(0, 1fr);
    }
    & > .table-column {
      position: static;
    }
    &[data-chosen] > .table-column {
      display: none;
    }
    /* The chosen artifact can always be brought to the top of the window, even while it loads
       (a short page would otherwise end at its top and the artifact open halfway down). */
    &[data-chosen] > .detail-column {
      min-height: 100vh;
      min-height: 100dvh;
    }
    &:not([data-chosen]):not([data-comparing]) > .detail-column {
      display: none;
    }
  }
`;

/** The comparison's cue on stacked layouts: how many are picked, and a way to it. */
const CompareCue = styled.div`
  display: none;
  @media ${theme.media.stacked} {
    display: flex;
    position: sticky;
    bottom: 0;
    z-index: 5;
    align-items: center;
    justify-content: space-between;
    gap: ${theme.space.sm};
    margin-top: ${theme.space.sm};
    padding: ${theme.space.sm} ${theme.space.md};
    background: ${theme.color.headerBackground};
    color: ${theme.color.headerText};
    border-radius: ${theme.radius.md};
    box-shadow: ${theme.shadow.popover};
    p {
      margin: 0;
    }
  }
`;

/** Whether the browser shows one thing at a time (the stacked layout). */
const isStacked = (): boolean =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(max-width: 899px)').matches;

/** Brings an element's top into view when it is not (smoothly unless the user asked for less motion). */
function revealTop(element: HTMLElement | null): void {
  if (!element || typeof element.scrollIntoView !== 'function') return;
  const { top } = element.getBoundingClientRect();
  if (top >= 0 && top < window.innerHeight * 0.6) return;
  element.scrollIntoView({ block: 'start' });
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

/** The artifacts table with compare mode, and beside it (or in its place) the chosen artifact or the comparison. */
export const ArtifactsArea = memo(function ArtifactsArea({
  portfolio,
  compare,
}: {
  portfolio: BrowsedPortfolio;
  compare: CompareRef | undefined;
}) {
  const headingId = useId();
  const mode = useBrowserMode();
  const rows = useVisibleRows();
  const sort = useSort();
  const selectedId = useSelectedArtifactId();
  // The row shows the choice at once; the chosen artifact (and, on narrow screens, the swap of the
  // table for it) follows in a deferred render, so the click paints without waiting for the pane.
  const shownId = useDeferredValue(selectedId);
  const closedId = useClosedArtifactId();
  // The Compare switch is drawn at once; the table's checkboxes and the comparison follow (deferred).
  const comparing = useDeferredValue(useCompareOn(compare));
  const picked = useCompareSelection(compare);
  const { pick } = useCompareEvents(compare);
  const { sortBy, selectArtifact, closeArtifact } = useBrowserEvents();
  const detail = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLDivElement>(null);
  const shared = mode === 'shared';
  const total = rowsTotal(portfolio);
  // Chosen once the pane has caught up; closed at once (Back to artifacts brings the table back in
  // this very render, so its row can be focused and scrolled to).
  const chosen = !comparing && selectedId !== null && shownId !== null;

  // A chosen artifact opens where the teacher is looking: beside the table, or in its place on
  // narrow screens (then the focus moves to it).
  const previous = useRef(shownId);
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = shownId;
    if (before === shownId || comparing || shownId === null) return;
    if (isStacked()) {
      focusHeading(detail.current);
      detail.current?.scrollIntoView?.({ block: 'start' });
    } else {
      revealTop(detail.current);
    }
  }, [shownId, comparing]);

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
    const row = table.current?.querySelector<HTMLElement>(
      '[role="row"][aria-selected="true"], [role="row"][tabindex="0"]',
    );
    row?.focus({ preventScroll: true });
    (row ?? table.current)?.scrollIntoView?.({ block: 'center' });
  };

  return (
    // Busy while the counts are brought up to date after a comment or reaction.
    <section aria-labelledby={headingId}>
      <TableBar>
        <h2 id={headingId}>Artifacts</h2>
        <Shown aria-live="polite">
          {rows.length === total
            ? `${total} ${total === 1 ? 'artifact' : 'artifacts'}`
            : `${rows.length} of ${total} artifacts shown`}
        </Shown>
        {compare ? <CompareToggle compare={compare} /> : null}
      </TableBar>
      <Layout data-comparing={comparing || undefined} data-chosen={chosen || undefined}>
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
                {picked.length === 0
                  ? `Tick up to ${COMPARE_MAX} artifacts to compare.`
                  : `${picked.length} of ${COMPARE_MAX} picked for comparison.`}
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
            <ArtifactPane
              artifactId={shownId}
              portfolio={portfolio}
              readOnly={mode === 'researcher'}
              onBack={closeArtifact}
            />
          )}
        </div>
      </Layout>
    </section>
  );
});

const rowsTotal = (portfolio: BrowsedPortfolio): number =>
  isSharedPortfolio(portfolio) ? portfolio.sharedArtifacts.length : portfolio.artifacts.length;
