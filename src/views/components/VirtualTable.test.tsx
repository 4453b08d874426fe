import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect, useMemo, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FIRST_ROWS, VirtualTable } from './VirtualTable.tsx';

function Table({ count, onActivate = () => undefined }: { count: number; onActivate?: (index: number) => void }) {
  const [selected, setSelected] = useState<number | null>(null);
  const rows = useMemo(() => Array.from({ length: count }, (_, i) => i), [count]);
  return (
    <>
      <button type="button">before</button>
      <VirtualTable
        label="Numbers"
        columns={[
          { id: 'n', header: 'Number', width: '1fr', sort: 'ascending', onSort: () => undefined },
          { id: 'sq', header: 'Square', width: '1fr' },
        ]}
        rows={rows}
        rowKey={(i) => i}
        renderCells={(i) => [`Row ${i}`, i * i]}
        isSelected={(i) => i === selected}
        onActivate={(i) => {
          setSelected(i);
          onActivate(i);
        }}
        empty="Nothing here"
      />
    </>
  );
}

const bodyRows = () =>
  within(screen.getByRole('grid', { name: 'Numbers' }))
    .getAllByRole('row')
    .slice(1);

describe('VirtualTable', () => {
  it('renders the visible rows plus the overscan only, positioned by index', () => {
    render(<Table count={10_000} />);
    const grid = screen.getByRole('grid', { name: 'Numbers' });
    expect(grid.getAttribute('aria-rowcount')).toBe('10001');
    // 618 px high, 44 px header, 48 px rows: 12 visible + 6 overscan below, none above at the top.
    expect(bodyRows()).toHaveLength(19);
    expect(bodyRows()[0]!.style.top).toBe('0px');
    Object.defineProperty(grid, 'scrollTop', { configurable: true, value: 48 * 100 });
    fireEvent.scroll(grid);
    const rows = bodyRows();
    expect(rows).toHaveLength(6 + 19);
    expect(rows[0]!.textContent).toBe('Row 948836');
    expect(rows[0]!.getAttribute('aria-rowindex')).toBe('96');
    expect(rows[0]!.style.top).toBe(`${94 * 48}px`);
  });

  it('puts one row in the tab order and moves with the arrow keys, Home, End and Page keys; Enter and Space activate', async () => {
    const onActivate = vi.fn<(index: number) => void>();
    render(<Table count={100} onActivate={onActivate} />);
    const ux = userEvent.setup();
    await ux.click(screen.getByRole('button', { name: 'before' }));
    await ux.tab();
    await ux.tab();
    expect(document.activeElement?.textContent).toBe('Row 00');
    expect(bodyRows().filter((r) => r.tabIndex === 0)).toHaveLength(1);
    await ux.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Row 24');
    await ux.keyboard('{Enter}');
    expect(onActivate).toHaveBeenLastCalledWith(2);
    expect(document.activeElement?.getAttribute('aria-selected')).toBe('true');
    await ux.keyboard('{PageDown}');
    expect(document.activeElement?.textContent).toBe('Row 14196');
    await ux.keyboard('{End}');
    expect(document.activeElement?.textContent).toBe('Row 999801');
    expect(document.activeElement?.getAttribute('aria-rowindex')).toBe('101');
    await ux.keyboard(' ');
    expect(onActivate).toHaveBeenLastCalledWith(99);
    await ux.keyboard('{Home}{ArrowUp}');
    expect(document.activeElement?.textContent).toBe('Row 00');
  });

  it('says what is empty', () => {
    render(<Table count={0} />);
    expect(within(screen.getByRole('grid', { name: 'Numbers' })).getByText('Nothing here')).toBeTruthy();
  });
});

describe('VirtualTable: a long list in the flow', () => {
  /** How many body rows the document held at the first commit. */
  function FirstCommit({ seen }: { seen: (rows: number) => void }) {
    useLayoutEffect(() => seen(document.querySelectorAll('[role=grid] [role=row][aria-rowindex]').length - 1), [seen]);
    return null;
  }

  it(`draws its first ${FIRST_ROWS} rows in the first paint and the others right after; End reaches the last row`, async () => {
    const seen = vi.fn<(rows: number) => void>();
    render(
      <>
        <Table count={200} />
        <FirstCommit seen={seen} />
      </>,
    );
    expect(seen).toHaveBeenCalledWith(FIRST_ROWS);
    const grid = screen.getByRole('grid', { name: 'Numbers' });
    expect(grid.getAttribute('aria-rowcount')).toBe('201');
    await waitFor(() => expect(bodyRows()).toHaveLength(200));
    expect(bodyRows()[199]!.getAttribute('aria-rowindex')).toBe('201');
    const ux = userEvent.setup();
    await ux.click(bodyRows()[0]!);
    await ux.keyboard('{End}');
    expect(document.activeElement?.textContent).toContain('Row 199');
  });
});
