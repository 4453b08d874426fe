import { useRef, type ReactNode } from 'react';
import styled, { keyframes } from 'styled-components';
import { phoneCards, useColumnLabels } from './phoneCards.ts';
import { theme } from '../theme/theme.ts';
import { panelStyle } from './cardStyles.ts';

/** One column of a `SortableTable`. */
export interface SortableColumn<C extends string> {
  /** Stable key; also what `onSort` receives. */
  id: C;
  /** The header text. */
  header: string;
  /** A CSS width (e.g. `22%`); the rest share what is left. */
  width?: string;
  align?: 'start' | 'end';
  /** Whether the header sorts by this column (default true when the table has `onSort`). */
  sortable?: boolean;
}

/** A table's order. */
export interface TableSort<C extends string> {
  column: C;
  direction: 'ascending' | 'descending';
}

/** Width from which every column fits (tablets and up); below it the table scrolls sideways. */
const FIT_WIDTH = '768px';

/** Below this width the table is set tighter (smaller headers, less padding, only the active sort arrow). */
const COMPACT = '(max-width: 1023px)';

const Box = styled.div<{ $overflowVisible: boolean }>`
  width: 100%;
  overflow-x: ${({ $overflowVisible }) => ($overflowVisible ? 'visible' : 'auto')};
  ${panelStyle}
  /* Wide enough for every column: nothing clips (a list that opens from a row stays whole). */
  @media (min-width: ${FIT_WIDTH}) {
    overflow: visible;
  }
`;

/*
 * Body rows and cells are plain <tr>/<td> styled from here. A row may carry data-highlight
 * (just added); a cell data-align="end" for numbers.
 */
const Table = styled.table`
  width: 100%;
  min-width: 640px;
  border-collapse: separate;
  border-spacing: 0;
  @media (min-width: ${FIT_WIDTH}) {
    min-width: 0;
  }
  tbody td {
    padding: 10px ${theme.space.sm};
    vertical-align: middle;
    text-align: start;
    overflow-wrap: break-word;
    border-bottom: 1px solid ${theme.color.border};
  }
  tbody td:first-child {
    padding-left: ${theme.space.md};
  }
  tbody td[data-align='end'] {
    text-align: end;
  }
  tbody td:last-child[data-align='end'] {
    padding-right: ${theme.space.md};
  }
  tbody tr:last-child > td {
    border-bottom: none;
  }
  tbody tr[data-highlight] > td {
    background: #eaf4ee;
  }
  tbody tr[data-highlight] > td:first-child {
    box-shadow: inset 4px 0 0 ${theme.color.success};
  }
  @media ${COMPACT} {
    tbody td {
      padding: 8px 5px;
    }
    th {
      padding: 8px 5px;
      font-size: ${theme.font.size.xs};
      letter-spacing: 0.02em;
    }
    th svg[data-inactive] {
      display: none;
    }
  }
  /* On phones each row is a card, every value in view. */
  ${phoneCards}
`;

const Th = styled.th<{ $align: 'start' | 'end' }>`
  padding: 8px ${theme.space.sm};
  background: ${theme.color.surfaceAlt};
  border-bottom: 1px solid ${theme.color.border};
  color: ${theme.color.text};
  font-size: ${theme.font.size.sm};
  font-weight: ${theme.font.weight.bold};
  letter-spacing: 0.04em;
  text-transform: uppercase;
  text-align: ${({ $align }) => $align};
  vertical-align: bottom;
  &:first-child {
    padding-left: ${theme.space.md};
    border-top-left-radius: ${theme.radius.md};
  }
  &:last-child {
    padding-right: ${theme.space.md};
    border-top-right-radius: ${theme.radius.md};
  }
`;

const SortButton = styled.button<{ $align: 'start' | 'end' }>`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.xs};
  flex-direction: ${({ $align }) => ($align === 'end' ? 'row-reverse' : 'row')};
  margin: -4px;
  /* A target of at least 24 × 24 px (WCAG 2.2, 2.5.8). */
  min-width: 24px;
  min-height: 28px;
  padding: 4px;
  border: none;
  border-radius: ${theme.radius.sm};
  background: none;
  color: inherit;
  font: inherit;
  letter-spacing: inherit;
  text-transform: inherit;
  text-align: inherit;
  cursor: pointer;
  &:hover:not(:disabled) {
    background: ${theme.color.border};
  }
  &:disabled {
    cursor: default;
  }
`;

const pulse = keyframes`0%, 100% { opacity: 1; } 50% { opacity: 0.45; }`;

const Bar = styled.span<{ $width: string }>`
  display: block;
  width: ${({ $width }) => $width};
  height: 14px;
  margin: 4px 0;
  border-radius: 4px;
  background: ${theme.color.surfaceAlt};
  animation: ${pulse} 1.4s ease-in-out infinite;
`;

const SKELETON_WIDTHS = ['70%', '55%', '80%', '45%', '65%'];

function SortArrow({ direction }: { direction: TableSort<string>['direction'] | null }) {
  const d =
    direction === 'ascending'
      ? 'M2 8l4-4 4 4'
      : direction === 'descending'
        ? 'M2 4l4 4 4-4'
        : 'M2 5l4-3 4 3M2 7l4 3 4-3';
  return (
    <svg
      width="12"
      height="12"
      viewBox="0 0 12 12"
      aria-hidden="true"
      focusable="false"
      style={{ flexShrink: 0 }}
      data-inactive={direction ? undefined : ''}
    >
      <path d={d} fill="none" stroke="currentColor" strokeWidth="2" opacity={direction ? 1 : 0.45} />
    </svg>
  );
}

/**
 * A data table whose headers sort it: each sortable header is a button, and the sorted column
 * carries `aria-sort`. While loading it shows skeleton rows of the same shape (no jump when the
 * rows arrive). Narrow screens scroll it sideways.
 */
export function SortableTable<C extends string>({
  caption,
  columns,
  sort = null,
  onSort,
  loading = false,
  loadingLabel = 'Loading',
  skeletonRows = 3,
  overflowVisible = false,
  children,
}: {
  /** Names the table for screen readers. */
  caption: string;
  columns: readonly SortableColumn<C>[];
  /** The current order, shown on its column. */
  sort?: TableSort<C> | null;
  /** Called with the column whose header was chosen. */
  onSort?: (column: C) => void;
  /** Show skeleton rows instead of the children. */
  loading?: boolean;
  /** The accessible name of the loading state. */
  loadingLabel?: string;
  skeletonRows?: number;
  /** Never clip the content, even on narrow screens (while a row shows a list that opens). */
  overflowVisible?: boolean;
  /** The body rows: plain `<tr>` of `<td>`. */
  children?: ReactNode;
}) {
  const table = useRef<HTMLTableElement>(null);
  useColumnLabels(table);
  const body = loading
    ? Array.from({ length: skeletonRows }, (_, row) => (
        <tr key={row} aria-hidden="true">
          {columns.map((column, col) => (
            <td key={column.id}>
              <Bar $width={SKELETON_WIDTHS[(row + col) % SKELETON_WIDTHS.length]!} />
            </td>
          ))}
        </tr>
      ))
    : children;
  return (
    <Box
      $overflowVisible={overflowVisible}
      {...(loading ? { role: 'status', 'aria-label': loadingLabel, 'aria-busy': true } : {})}
    >
      <Table ref={table}>
        <caption className="visually-hidden">{caption}</caption>
        <colgroup>
          {columns.map((column) => (
            <col key={column.id} style={column.width ? { width: column.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((column) => {
              const align = column.align ?? 'start';
              const direction = sort?.column === column.id ? sort.direction : null;
              return (
                <Th key={column.id} scope="col" $align={align} aria-sort={direction ?? undefined}>
                  {onSort && column.sortable !== false ? (
                    <SortButton type="button" $align={align} disabled={loading} onClick={() => onSort(column.id)}>
                      <span>{column.header}</span>
                      <SortArrow direction={direction} />
                    </SortButton>
                  ) : (
                    column.header
                  )}
                </Th>
              );
            })}
          </tr>
        </thead>
        <tbody>{body}</tbody>
      </Table>
    </Box>
  );
}
