import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type UIEvent } from 'react';
import styled, { css } from 'styled-components';

/** One column of a `VirtualTable`. */
export interface VirtualColumn {
  /** Stable key. */
  id: string;
  /** The header text. */
  header: ReactNode;
  /** A CSS grid track, e.g. `minmax(0, 3fr)` or `96px`. */
  width: string;
  align?: 'start' | 'center' | 'end';
  /** The column's sort state; `undefined` when it cannot be sorted. */
  sort?: 'ascending' | 'descending' | 'none';
  /** Sorts by this column (its header becomes a button). */
  onSort?: () => void;
  /** On a phone, rows become cards: this column's cell takes the first line (the others follow it). */
  primary?: boolean;
  /** On a phone, words before the cell's value (a bare number needs its column's name). */
  compactPrefix?: string;
}

/**
 * Up to this many rows are all in the page, in the normal flow: their cells wrap (long titles
 * read in full) and, on narrow screens, the table grows with its rows instead of scrolling in a
 * box of its own (beyond `FIRST_ROWS`, the rest right after the first paint). Longer lists keep
 * fixed-height rows and render only the visible ones.
 */
export const ALL_ROWS_LIMIT = 300;

/**
 * Of a longer list in the normal flow, the rows of the first paint (more than a tall window
 * shows); the others follow right after in a transition, which input may interrupt.
 */
export const FIRST_ROWS = 40;

const HEADER_HEIGHT = 44;

const Grid = styled.div<{ $height: number; $natural: boolean }>`
  position: relative;
  /* Rows become cards when the table itself is narrow (a phone, or beside a comparison). */
  container-type: inline-size;
  height: ${({ $height }) => $height}px;
  overflow: auto;
  overscroll-behavior: contain;
  background: ${({ theme }) => theme.color.surface};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
  box-shadow: ${({ theme }) => theme.shadow.card};
  /* The fixed height is the wide screens' rule; narrower ones let the table grow with its rows. */
  @media ${({ theme }) => theme.media.stacked} {
    ${({ $natural }) => ($natural ? 'height: auto; overflow: visible;' : 'height: min(70vh, 618px);')}
  }
`;

const rowLayout = css<{ $columns: string }>`
  display: grid;
  grid-template-columns: ${({ $columns }) => $columns};
  align-items: center;
  min-width: 100%;
`;

const HeaderRow = styled.div<{ $columns: string }>`
  ${rowLayout}
  position: sticky;
  top: 0;
  z-index: 2;
  height: ${HEADER_HEIGHT}px;
  background: ${({ theme }) => theme.color.surfaceAlt};
  border-bottom: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md} ${({ theme }) => theme.radius.md} 0 0;
  @container ${({ theme }) => theme.media.compactTable} {
    /* Cards have no columns: the sort buttons line up and wrap. */
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    height: auto;
    min-width: 0 !important;
    padding: ${({ theme }) => theme.space.xs};
    & > [data-empty-header] { display: none; }
  }
`;

const HeaderCell = styled.div<{ $align: VirtualColumn['align'] }>`
  display: flex;
  justify-content: ${({ $align = 'start' }) => ($align === 'end' ? 'flex-end' : $align === 'center' ? 'center' : 'flex-start')};
  padding: 0 ${({ theme }) => theme.space.xs};
  min-width: 0;
  color: ${({ theme }) => theme.color.text};
  font-size: ${({ theme }) => theme.font.size.xs};
  font-weight: ${({ theme }) => theme.font.weight.bold};
  letter-spacing: 0.04em;
  line-height: 1.2;
  text-transform: uppercase;
  text-align: ${({ $align = 'start' }) => $align};
`;

const SortButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  max-width: 100%;
  /* A target of at least 24 × 24 px (WCAG 2.2, 2.5.8). */
  min-width: 24px;
  min-height: 28px;
  padding: 4px;
  border: none;
  border-radius: ${({ theme }) => theme.radius.sm};
  background: none;
  color: inherit;
  font: inherit;
  letter-spacing: inherit;
  text-transform: inherit;
  text-align: inherit;
  cursor: pointer;
  &:hover { background: ${({ theme }) => theme.color.border}; }
  span {
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
`;

const Body = styled.div`
  position: relative;
  @container ${({ theme }) => theme.media.compactTable} {
    min-width: 0 !important;
  }
`;

const Row = styled.div<{ $columns: string; $selected: boolean; $natural: boolean }>`
  ${rowLayout}
  position: ${({ $natural }) => ($natural ? 'static' : 'absolute')};
  left: 0;
  right: 0;
  ${({ $natural }) => ($natural ? 'min-height: 48px; padding: 6px 0;' : '')}
  border-bottom: 1px solid ${({ theme }) => theme.color.border};
  cursor: pointer;
  background: ${({ theme, $selected }) => ($selected ? '#e3eef7' : theme.color.surface)};
  ${({ $selected, theme }) => ($selected ? css`box-shadow: inset 4px 0 0 ${theme.color.primary};` : '')}
  &:hover { background: ${({ $selected }) => ($selected ? '#d6e6f3' : '#f5f7f9')}; }
  &:focus-visible { outline: 3px solid ${({ theme }) => theme.color.focus}; outline-offset: -3px; }
  @container ${({ theme }) => theme.media.compactTable} {
    /* A card: the primary cell on the first line, the others after it. */
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 2px ${({ theme }) => theme.space.md};
    min-width: 0 !important;
    padding: 10px ${({ theme }) => theme.space.sm};
  }
`;

const Cell = styled.div<{ $align: VirtualColumn['align']; $natural: boolean; $primary: boolean }>`
  padding: 0 ${({ theme }) => theme.space.sm};
  min-width: 0;
  text-align: ${({ $align = 'start' }) => $align};
  ${({ $natural }) =>
    $natural
      ? 'white-space: normal; overflow-wrap: anywhere;'
      : 'overflow: hidden; text-overflow: ellipsis; white-space: nowrap;'}
  @container ${({ theme }) => theme.media.compactTable} {
    padding: 0;
    text-align: start;
    ${({ $primary }) => ($primary ? 'flex: 1 1 calc(100% - 48px);' : 'flex: 0 1 auto;')}
    &:empty { display: none; }
    &[data-prefix]::before { content: attr(data-prefix) ' '; color: ${({ theme }) => theme.color.textMuted}; }
  }
`;

const Empty = styled.div`
  padding: ${({ theme }) => theme.space.xl} ${({ theme }) => theme.space.md};
  text-align: center;
  color: ${({ theme }) => theme.color.textMuted};
`;

function SortArrow({ sort }: { sort: VirtualColumn['sort'] }) {
  const d = sort === 'ascending' ? 'M2 8l4-4 4 4' : sort === 'descending' ? 'M2 4l4 4 4-4' : 'M2 5l4-3 4 3M2 7l4 3 4-3';
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false" style={{ flexShrink: 0 }}>
      <path d={d} fill="none" stroke="currentColor" strokeWidth="2" opacity={sort === 'none' ? 0.5 : 1} />
    </svg>
  );
}

/**
 * A table of many rows in a box of fixed height (on wide screens). Up to `ALL_ROWS_LIMIT` rows
 * are all in the page and wrap their text; beyond that rows have a fixed height and only the
 * visible ones (plus `overscan` above and below) are in the page, so tens of thousands of rows
 * scroll smoothly. On a phone each row is a card. It is an ARIA grid: one row is in the tab
 * order; the arrow keys, Home, End, Page Up and Page Down move between rows, and Enter or Space
 * activates the focused row.
 */
export function VirtualTable({
  label,
  columns,
  rowCount,
  rowKey,
  renderCells,
  isSelected,
  rowLabel,
  onActivate,
  height = 618,
  rowHeight = 48,
  overscan = 6,
  empty,
  minWidth = 560,
}: {
  /** Names the table for screen readers. */
  label: string;
  columns: readonly VirtualColumn[];
  rowCount: number;
  /** A stable key of the row at an index. */
  rowKey: (index: number) => string | number;
  /** The cells of the row at an index, one per column. */
  renderCells: (index: number) => readonly ReactNode[];
  /** Whether the row at an index is selected. */
  isSelected: (index: number) => boolean;
  /** What a screen reader announces for the row (defaults to its cells). */
  rowLabel?: (index: number) => string;
  /** Click, Enter or Space on a row. */
  onActivate: (index: number) => void;
  /** The whole table's height in pixels, header included. */
  height?: number;
  rowHeight?: number;
  /** Rows rendered beyond each edge of the visible part. */
  overscan?: number;
  /** Shown when there are no rows. */
  empty: ReactNode;
  /** Width below which the table scrolls sideways. */
  minWidth?: number;
}) {
  const natural = rowCount <= ALL_ROWS_LIMIT;
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useRef(new Map<number, HTMLDivElement>());
  const [scrollTop, setScrollTop] = useState(0);
  const [focusIndex, setFocusIndex] = useState(0);
  const [allDrawn, setAllDrawn] = useState(false);
  const moveFocus = useRef(false);
  const template = columns.map((c) => c.width).join(' ');

  const viewHeight = height - HEADER_HEIGHT;
  const visibleCount = Math.ceil(viewHeight / rowHeight);
  const maxScroll = Math.max(0, rowCount * rowHeight - viewHeight);
  const top = Math.min(scrollTop, maxScroll);
  const first = natural ? 0 : Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = natural ? (allDrawn ? rowCount : Math.min(rowCount, FIRST_ROWS)) - 1 : Math.min(rowCount - 1, Math.floor(top / rowHeight) + visibleCount + overscan);
  const focused = Math.min(focusIndex, Math.max(0, rowCount - 1));
  // The row in the tab order: the focused one, or the first shown when it scrolled away.
  const tabbable = focused >= first && focused <= last ? focused : first;

  const handleScroll = (event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop);

  const scrollIntoView = useCallback(
    (index: number) => {
      const el = scroller.current;
      if (!el) return;
      if (natural) {
        // jsdom has no layout (and no scrollIntoView).
        rows.current.get(index)?.scrollIntoView?.({ block: 'nearest' });
        return;
      }
      const rowTop = index * rowHeight;
      let next = el.scrollTop;
      if (rowTop < next) next = rowTop;
      else if (rowTop + rowHeight > next + viewHeight) next = rowTop + rowHeight - viewHeight;
      if (next !== el.scrollTop) {
        el.scrollTop = next;
        setScrollTop(next);
      }
    },
    [natural, rowHeight, viewHeight],
  );

  // The rows after the first paint's.
  useEffect(() => {
    if (natural && !allDrawn && rowCount > FIRST_ROWS) startTransition(() => setAllDrawn(true));
  }, [natural, allDrawn, rowCount]);

  useLayoutEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    rows.current.get(focused)?.focus({ preventScroll: true });
  }, [focused]);

  const focusRow = (index: number) => {
    const next = Math.max(0, Math.min(rowCount - 1, index));
    // A row not drawn yet is drawn now (End right after the first paint).
    setAllDrawn(true);
    moveFocus.current = true;
    scrollIntoView(next);
    setFocusIndex(next);
    // Already the focused index: the effect will not run, so focus it now.
    if (next === focused) rows.current.get(next)?.focus({ preventScroll: true });
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>, index: number) => {
    if (event.target !== event.currentTarget) return;
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: rowCount - 1,
      PageDown: index + visibleCount,
      PageUp: index - visibleCount,
    };
    if (event.key in moves) {
      event.preventDefault();
      focusRow(moves[event.key]!);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onActivate(index);
    }
  };

  const body = Array.from({ length: Math.max(0, last - first + 1) }, (_, offset) => {
    const index = first + offset;
    const cells = renderCells(index);
    const selected = isSelected(index);
    return (
      <Row
        key={rowKey(index)}
        ref={(el: HTMLDivElement | null) => {
          if (el) rows.current.set(index, el);
          else rows.current.delete(index);
        }}
        role="row"
        aria-rowindex={index + 2}
        aria-selected={selected}
        aria-label={rowLabel?.(index)}
        data-row-key={rowKey(index)}
        tabIndex={index === tabbable ? 0 : -1}
        $columns={template}
        $selected={selected}
        $natural={natural}
        style={natural ? { minWidth } : { top: index * rowHeight, height: rowHeight }}
        onClick={() => {
          setFocusIndex(index);
          onActivate(index);
        }}
        onFocus={(event) => {
          if (event.target === event.currentTarget && index !== focused) setFocusIndex(index);
        }}
        onKeyDown={(event) => handleKeyDown(event, index)}
      >
        {columns.map((column, col) => (
          <Cell key={column.id} role="gridcell" $align={column.align} $natural={natural} $primary={column.primary === true} data-prefix={column.compactPrefix}>
            {cells[col]}
          </Cell>
        ))}
      </Row>
    );
  });

  return (
    <Grid
      ref={scroller}
      $height={height}
      $natural={natural}
      role="grid"
      aria-label={label}
      aria-rowcount={rowCount + 1}
      aria-colcount={columns.length}
      onScroll={handleScroll}
    >
      <HeaderRow role="row" aria-rowindex={1} $columns={template} style={{ minWidth }}>
        {columns.map((column) => (
          <HeaderCell key={column.id} role="columnheader" aria-sort={column.sort} $align={column.align} data-empty-header={column.onSort ? undefined : ''}>
            {column.onSort ? (
              <SortButton type="button" onClick={column.onSort}>
                <span>{column.header}</span>
                <SortArrow sort={column.sort} />
              </SortButton>
            ) : (
              column.header
            )}
          </HeaderCell>
        ))}
      </HeaderRow>
      {rowCount === 0 ? (
        <Empty role="row">
          <span role="gridcell">{empty}</span>
        </Empty>
      ) : (
        <Body role="rowgroup" style={natural ? { minWidth } : { height: rowCount * rowHeight, minWidth }}>
          {body}
        </Body>
      )}
    </Grid>
  );
}
