import { useLayoutEffect, useRef, useState, type KeyboardEvent, type UIEvent } from 'react';
import { Link } from 'wouter';
import type { Coverage, CoverageRow } from '../../schemas/coverage.ts';
import { cellLabel, levelMark, shadeOf, SHADES } from './heatScale.ts';
import { CellButton, Scroller, Table } from './heatMapStyles.ts';

/** Up to this many rows are all in the page; a larger map keeps fixed rows and draws only those in view. */
export const ALL_ROWS_LIMIT = 60;
/** The height of a row of a large map, in pixels (the cell buttons' height plus the borders). */
export const ROW_HEIGHT = 44;
const VIEW_HEIGHT = 560;
const OVERSCAN = 8;

interface Focus {
  row: number;
  column: number;
}

/**
 * The coverage heat map: a table whose rows are teachers or portfolios and whose columns are the
 * practices (or concepts, core ideas). Each cell is a button showing its count of tagged
 * artifacts on a shade of its share of the largest count, and the highest rubric level reached
 * ("L3/4"); its name says all of it. One cell is in the tab order; the arrow keys, Home, End,
 * Page Up and Page Down move between cells, Enter or Space opens the cell's artifacts. Beyond
 * `ALL_ROWS_LIMIT` rows only the rows in view (and a few more) are in the page.
 */
export function HeatMap({
  coverage,
  label,
  rowHeader,
  selected,
  rowHref,
  onSelect,
}: {
  coverage: Coverage;
  /** The table's accessible name. */
  label: string;
  /** The header of the rows' column ("Teacher", "Portfolio"). */
  rowHeader: string;
  selected: { row: number; column: string } | null;
  /** Where a row's name leads (its own map), if anywhere. */
  rowHref?: ((row: CoverageRow) => string | null) | undefined;
  onSelect: (row: number, column: string) => void;
}) {
  const { rows, columns } = coverage;
  const windowed = rows.length > ALL_ROWS_LIMIT;
  const [focus, setFocus] = useState<Focus>({ row: 0, column: 0 });
  const [scrollTop, setScrollTop] = useState(0);
  // The cell a key moved the focus to, focused once its row is drawn.
  const pending = useRef<Focus | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const max = Math.max(0, ...rows.map((r) => Math.max(0, ...r.tagged)));

  const first = windowed ? Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN) : 0;
  const last = windowed
    ? Math.min(rows.length, Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + OVERSCAN)
    : rows.length;
  const at = { row: Math.min(focus.row, Math.max(0, rows.length - 1)), column: Math.min(focus.column, columns.length - 1) };

  useLayoutEffect(() => {
    const target = pending.current;
    if (!target) return;
    pending.current = null;
    table.current
      ?.querySelector<HTMLButtonElement>(`button[data-row="${target.row}"][data-column="${target.column}"]`)
      ?.focus();
  });

  const move = (row: number, column: number) => {
    const next = {
      row: Math.max(0, Math.min(rows.length - 1, row)),
      column: Math.max(0, Math.min(columns.length - 1, column)),
    };
    // The row into view first (below the sticky header), so that it is drawn.
    const box = scroller.current;
    if (windowed && box) {
      const top = next.row * ROW_HEIGHT;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (top + 2 * ROW_HEIGHT > box.scrollTop + box.clientHeight)
        box.scrollTop = top + 2 * ROW_HEIGHT - box.clientHeight;
      setScrollTop(box.scrollTop);
    }
    pending.current = next;
    setFocus(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const page = Math.max(1, Math.floor(VIEW_HEIGHT / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowUp: () => move(at.row - 1, at.column),
      ArrowDown: () => move(at.row + 1, at.column),
      ArrowLeft: () => move(at.row, at.column - 1),
      ArrowRight: () => move(at.row, at.column + 1),
      Home: () => move(event.ctrlKey ? 0 : at.row, 0),
      End: () => move(event.ctrlKey ? rows.length - 1 : at.row, columns.length - 1),
      PageUp: () => move(at.row - page, at.column),
      PageDown: () => move(at.row + page, at.column),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    if (windowed) setScrollTop(event.currentTarget.scrollTop);
  };

  return (
    // A two-dimensional grid (rows × practices) scrolls within its frame on a phone, its names and
    // headers held in place; the page itself never scrolls sideways.
    <Scroller
      ref={scroller}
      data-two-dimensional=""
      $windowed={windowed}
      $height={VIEW_HEIGHT}
      onScroll={onScroll}
    >
      <Table
        ref={table}
        aria-label={label}
        aria-rowcount={windowed ? rows.length + 1 : undefined}
        data-rows={rows.length}
        $windowed={windowed}
      >
        <thead>
          <tr aria-rowindex={windowed ? 1 : undefined}>
            <th scope="col">{rowHeader}</th>
            <th scope="col">Artifacts</th>
            {columns.map((c) => (
              <th scope="col" key={c.key} title={c.label}>
                <span className="code">{c.key}</span>
                <span className="label">{c.label}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {first > 0 ? (
            <tr aria-hidden="true" className="spacer" style={{ height: first * ROW_HEIGHT }} />
          ) : null}
          {rows.slice(first, last).map((row, offset) => {
            const index = first + offset;
            const href = rowHref?.(row) ?? null;
            return (
              <tr key={row.id} aria-rowindex={windowed ? index + 2 : undefined}>
                <th scope="row">{href ? <Link href={href}>{row.name}</Link> : row.name}</th>
                <td className="total">{row.artifacts}</td>
                {columns.map((c, ci) => {
                  const tagged = row.tagged[ci] ?? 0;
                  const best = row.best[ci] ?? null;
                  const shade = SHADES[shadeOf(tagged, max)]!;
                  const isSelected = selected?.row === row.id && selected.column === c.key;
                  return (
                    <td key={c.key}>
                      <CellButton
                        type="button"
                        data-row={index}
                        data-column={ci}
                        tabIndex={index === at.row && ci === at.column ? 0 : -1}
                        aria-pressed={isSelected}
                        aria-label={cellLabel(row.name, `${c.key} ${c.label}`, tagged, row.scores[ci] ?? 0, best)}
                        $background={shade.background}
                        $text={shade.text}
                        onKeyDown={onKeyDown}
                        onClick={() => {
                          setFocus({ row: index, column: ci });
                          onSelect(row.id, c.key);
                        }}
                      >
                        <span className="count">{tagged}</span>
                        {best ? (
                          <>
                            {' '}
                            <span className="level">{levelMark(best)}</span>
                          </>
                        ) : null}
                      </CellButton>
                    </td>
                  );
                })}
              </tr>
            );
          })}
          {last < rows.length ? (
            <tr aria-hidden="true" className="spacer" style={{ height: (rows.length - last) * ROW_HEIGHT }} />
          ) : null}
        </tbody>
      </Table>
    </Scroller>
  );
}
