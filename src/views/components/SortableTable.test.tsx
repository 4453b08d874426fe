import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SortableTable, type SortableColumn } from './SortableTable.tsx';

const COLUMNS: readonly SortableColumn<'name' | 'count' | 'note'>[] = [
  { id: 'name', header: 'Name' },
  { id: 'count', header: 'Count', align: 'end' },
  { id: 'note', header: 'Note', sortable: false },
];

function renderTable(props: Partial<Parameters<typeof SortableTable<'name' | 'count' | 'note'>>[0]> = {}) {
  return render(
    <SortableTable caption="Things" columns={COLUMNS} {...props}>
      <tr>
        <td>Apple</td>
        <td data-align="end">3</td>
        <td>Red</td>
      </tr>
    </SortableTable>,
  );
}

describe('SortableTable', () => {
  it('is a table named by its caption, with the sorted column marked by aria-sort', () => {
    renderTable({ sort: { column: 'count', direction: 'ascending' }, onSort: () => undefined });
    const table = screen.getByRole('table', { name: 'Things' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((th) => [th.textContent, th.getAttribute('aria-sort')])).toEqual([
      ['Name', null],
      ['Count', 'ascending'],
      ['Note', null],
    ]);
    expect(
      within(table)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Apple', '3', 'Red']);
  });

  it('sorts from a header button, by keyboard too; unsortable columns have no button', async () => {
    const onSort = vi.fn<(column: string) => void>();
    renderTable({ sort: { column: 'name', direction: 'descending' }, onSort });
    const ux = userEvent.setup();
    await ux.click(screen.getByRole('button', { name: 'Count' }));
    screen.getByRole('button', { name: 'Name' }).focus();
    await ux.keyboard('{Enter}');
    expect(onSort.mock.calls).toEqual([['count'], ['name']]);
    expect(screen.queryByRole('button', { name: 'Note' })).toBeNull();
  });

  it('without onSort the headers are plain text', () => {
    renderTable();
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Count', 'Note']);
  });

  it('while loading shows skeleton rows under the same headers, hidden from screen readers, and sorts nothing', () => {
    renderTable({
      loading: true,
      loadingLabel: 'Loading things',
      skeletonRows: 4,
      onSort: vi.fn<(column: string) => void>(),
      sort: { column: 'name', direction: 'ascending' },
    });
    const status = screen.getByRole('status', { name: 'Loading things' });
    expect(status.getAttribute('aria-busy')).toBe('true');
    expect(within(status).getAllByRole('columnheader')).toHaveLength(3);
    // The rows given are not shown; the skeleton rows are there but hidden.
    expect(screen.queryByText('Apple')).toBeNull();
    expect(status.querySelectorAll('tbody tr[aria-hidden="true"]')).toHaveLength(4);
    expect((screen.getByRole('button', { name: 'Name' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
