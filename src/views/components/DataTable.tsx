import { useRef, type ReactNode } from 'react';
import styled, { keyframes } from 'styled-components';
import { phoneCards, useColumnLabels } from './phoneCards.ts';
import { theme } from '../theme/theme.ts';
import { panelStyle } from './cardStyles.ts';

/** One column of a `DataTable`. */
export interface DataColumn {
  /** Stable key. */
  id: string;
  /** The header text. */
  header: ReactNode;
  /** A CSS width (e.g. `30%`, `8rem`); the rest share what is left. */
  width?: string;
  align?: 'start' | 'center' | 'end';
  /** Set on the column the rows are sorted by. */
  sort?: 'ascending' | 'descending';
}

const Scroll = styled.div<{ $maxHeight?: string | undefined }>`
  /* Positioned, so that what is positioned inside (visually hidden labels) scrolls and clips with it. */
  position: relative;
  width: 100%;
  overflow: auto;
  ${({ $maxHeight }) => ($maxHeight ? `max-height: ${$maxHeight};` : '')}
  /* Phones show the rows as cards in the page's own scroll, not a box within a box. */
  @media ${theme.media.compact} {
    max-height: none;
  }
  ${panelStyle}
`;

/** Background of a row the user just added (a pale tint of the success colour). */
const HIGHLIGHT = '#eaf4ee';

/*
 * Body rows and cells are plain <tr>/<td> styled from here, so a table of hundreds of rows costs
 * one styled component, not several per row. A row may carry data-highlight; a cell data-align.
 */
const Table = styled.table<{ $minWidth: string }>`
  width: 100%;
  min-width: ${({ $minWidth }) => $minWidth};
  border-collapse: separate;
  border-spacing: 0;
  table-layout: fixed;

  tbody td {
    padding: 10px ${theme.space.md};
    vertical-align: middle;
    text-align: start;
    overflow-wrap: anywhere;
    border-bottom: 1px solid ${theme.color.border};
  }
  @media (max-width: 1023px) {
    th,
    tbody td {
      padding-left: ${theme.space.sm};
      padding-right: ${theme.space.sm};
    }
    th:first-child,
    tbody td:first-child {
      padding-left: ${theme.space.md};
    }
  }
  tbody td[data-align='center'] {
    text-align: center;
  }
  tbody td[data-align='end'] {
    text-align: end;
  }
  tbody tr:last-child > td {
    border-bottom: none;
  }
  tbody tr:hover > td {
    background: ${theme.color.background};
  }
  tbody tr[data-highlight] > td {
    background: ${HIGHLIGHT};
  }
  tbody tr[data-highlight] > td:first-child {
    box-shadow: inset 4px 0 0 ${theme.color.success};
  }
  /* On phones each row is a card, every value in view. */
  ${phoneCards}
`;

const Th = styled.th<{ $align: DataColumn['align'] }>`
  position: sticky;
  top: 0;
  z-index: 1;
  padding: 12px ${theme.space.md};
  background: ${theme.color.surfaceAlt};
  border-bottom: 1px solid ${theme.color.border};
  color: ${theme.color.text};
  font-size: ${theme.font.size.sm};
  font-weight: ${theme.font.weight.bold};
  letter-spacing: 0.04em;
  text-transform: uppercase;
  text-align: ${({ $align = 'start' }) => $align};
  white-space: nowrap;
`;

const pulse = keyframes`0%, 100% { opacity: 1; } 50% { opacity: 0.45; }`;

const Bar = styled.span<{ $width: string }>`
  display: block;
  width: ${({ $width }) => $width};
  height: 14px;
  border-radius: 4px;
  background: ${theme.color.surfaceAlt};
  animation: ${pulse} 1.4s ease-in-out infinite;
`;

const EmptyCell = styled.td`
  padding: ${theme.space.xl} ${theme.space.md};
  text-align: center;
  color: ${theme.color.textMuted};
`;

const SKELETON_WIDTHS = ['70%', '55%', '80%', '45%', '65%'];

/**
 * A data table: header row, body rows given as children, skeleton rows while loading and an
 * empty message when there is nothing to show. Wide tables scroll sideways on narrow screens;
 * with `maxHeight` the body scrolls under a sticky header.
 */
export function DataTable({
  caption,
  columns,
  children,
  loading = false,
  loadingLabel = 'Loading',
  skeletonRows = 6,
  isEmpty = false,
  empty = 'Nothing to show.',
  maxHeight,
  minWidth = '560px',
}: {
  /** Names the table for screen readers. */
  caption: string;
  columns: readonly DataColumn[];
  /** The body rows: plain `<tr>` of `<td>` (`data-highlight` on a row, `data-align` on a cell). */
  children?: ReactNode;
  /** Show skeleton rows instead of the children. */
  loading?: boolean;
  /** The accessible name of the loading state. */
  loadingLabel?: string;
  skeletonRows?: number;
  /** Show `empty` instead of the children. */
  isEmpty?: boolean;
  empty?: ReactNode;
  /** Height after which the body scrolls under a sticky header. */
  maxHeight?: string;
  /** Width below which the table scrolls sideways. */
  minWidth?: string;
}) {
  const table = useRef<HTMLTableElement>(null);
  useColumnLabels(table);
  const body = loading ? (
    Array.from({ length: skeletonRows }, (_, row) => (
      <tr key={row} aria-hidden="true">
        {columns.map((column, col) => (
          <td key={column.id} data-align={column.align}>
            <Bar $width={SKELETON_WIDTHS[(row + col) % SKELETON_WIDTHS.length]!} />
          </td>
        ))}
      </tr>
    ))
  ) : isEmpty ? (
    <tr>
      <EmptyCell colSpan={columns.length}>{empty}</EmptyCell>
    </tr>
  ) : (
    children
  );
  return (
    <Scroll
      $maxHeight={maxHeight}
      // Reachable by keyboard when it scrolls (a named region, in the tab order).
      {...(loading
        ? { role: 'status', 'aria-label': loadingLabel, 'aria-busy': true }
        : { role: 'region', 'aria-label': caption, tabIndex: 0 })}
    >
      <Table ref={table} $minWidth={minWidth}>
        <caption className="visually-hidden">{caption}</caption>
        <colgroup>
          {columns.map((column) => (
            <col key={column.id} style={column.width ? { width: column.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((column) => (
              <Th key={column.id} scope="col" $align={column.align} aria-sort={column.sort}>
                {column.header}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>{body}</tbody>
      </Table>
    </Scroll>
  );
}
