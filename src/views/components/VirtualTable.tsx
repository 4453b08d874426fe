import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode, type UIEvent } from 'react';
import { Body, Empty, Grid, HEADER_HEIGHT, HeaderCell, HeaderRow, SortButton } from './virtualTableStyles.ts';
import { VirtualTableRow, type RowHandlers } from './VirtualTableRow.tsx';

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
export function VirtualTable<T>({
  label,
  columns,
  rows: items,
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
  /** The rows' data, in order. */
  rows: readonly T[];
  /** A stable key of a row. */
  rowKey: (row: T) => string | number;
  /**
   * The cells of a row, one per column (`selected`: as `isSelected` says). A row draws again
   * when its data, its selection or this function changes: keep the function stable.
   */
  renderCells: (row: T, selected: boolean) => readonly ReactNode[];
  /** Whether a row is selected. */
  isSelected: (row: T) => boolean;
  /** What a screen reader announces for the row (defaults to its cells). */
  rowLabel?: (row: T) => string;
  /** Click, Enter or Space on a row. */
  onActivate: (row: T, index: number) => void;
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
  const rowCount = items.length;
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
      onActivate(items[index]!, index);
    }
  };

  // Rows call the latest handlers through one stable object, so a row need not draw again when
  // the table does.
  const activate = (index: number) => onActivate(items[index]!, index);
  const latest = useRef({ activate, focused, keyDown: handleKeyDown });
  useLayoutEffect(() => {
    latest.current = { activate, focused, keyDown: handleKeyDown };
  });
  const handlers = useMemo<RowHandlers>(
    () => ({
      register: (index, element) => {
        if (element) rows.current.set(index, element);
        else rows.current.delete(index);
      },
      click: (index) => {
        setFocusIndex(index);
        latest.current.activate(index);
      },
      focus: (event: FocusEvent<HTMLDivElement>, index) => {
        if (event.target === event.currentTarget && index !== latest.current.focused) setFocusIndex(index);
      },
      keyDown: (event, index) => latest.current.keyDown(event, index),
    }),
    [],
  );

  const body = Array.from({ length: Math.max(0, last - first + 1) }, (_, offset) => {
    const index = first + offset;
    const row = items[index]!;
    const key = rowKey(row);
    return (
      <VirtualTableRow
        key={key}
        row={row}
        index={index}
        rowKey={key}
        selected={isSelected(row)}
        tabbable={index === tabbable}
        label={rowLabel?.(row)}
        columns={columns}
        renderCells={renderCells}
        handlers={handlers}
        natural={natural}
        minWidth={minWidth}
        rowHeight={rowHeight}
      />
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
        <Body role="rowgroup" $columns={template} $natural={natural} style={natural ? { minWidth } : { height: rowCount * rowHeight, minWidth }}>
          {body}
        </Body>
      )}
    </Grid>
  );
}
