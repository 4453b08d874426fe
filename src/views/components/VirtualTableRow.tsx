import { memo, useCallback, type ReactElement, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';

/** What a row reports to its table; one object for the table's whole life. */
export interface RowHandlers {
  /** The row's element entered (or left, `null`) the page. */
  register: (index: number, element: HTMLDivElement | null) => void;
  click: (index: number) => void;
  focus: (event: FocusEvent<HTMLDivElement>, index: number) => void;
  keyDown: (event: KeyboardEvent<HTMLDivElement>, index: number) => void;
}

/** The cell-level facts of a column a row needs. */
export interface RowColumn {
  id: string;
  align?: 'start' | 'center' | 'end';
  primary?: boolean;
  compactPrefix?: string;
}

interface RowProps<T> {
  row: T;
  index: number;
  rowKey: string | number;
  selected: boolean;
  tabbable: boolean;
  label: string | undefined;
  columns: readonly RowColumn[];
  renderCells: (row: T, selected: boolean) => readonly ReactNode[];
  handlers: RowHandlers;
  natural: boolean;
  minWidth: number;
  rowHeight: number;
}

/**
 * One body row of a `VirtualTable`. It draws again only when its own facts change (its data, as
 * `renderCells` gives it, selection, place in the tab order, position): choosing a row redraws
 * that row and the one chosen before, not the whole table.
 */
function TableRow<T>({ row, index, rowKey, selected, tabbable, label, columns, renderCells, handlers, natural, minWidth, rowHeight }: RowProps<T>) {
  const cells = renderCells(row, selected);
  const ref = useCallback((element: HTMLDivElement | null) => handlers.register(index, element), [handlers, index]);
  return (
    <div
      ref={ref}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      aria-label={label}
      data-row-key={rowKey}
      tabIndex={tabbable ? 0 : -1}
      style={natural ? { minWidth } : { top: index * rowHeight, height: rowHeight }}
      onClick={() => handlers.click(index)}
      onFocus={(event) => handlers.focus(event, index)}
      onKeyDown={(event) => handlers.keyDown(event, index)}
    >
      {columns.map((column, col) => (
        <div key={column.id} role="gridcell" data-align={column.align} data-primary={column.primary ? '' : undefined} data-prefix={column.compactPrefix}>
          {cells[col]}
        </div>
      ))}
    </div>
  );
}

/** `TableRow`, drawn again only when one of its props changes. */
export const VirtualTableRow = memo(TableRow) as <T>(props: RowProps<T>) => ReactElement;
