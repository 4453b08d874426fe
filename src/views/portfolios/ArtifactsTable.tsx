import { useCallback, useMemo, type MouseEvent } from 'react';
import styled from 'styled-components';
import type { ArtifactRow, Sort, SortColumn } from '../../machines/portfolioBrowser/selectors.ts';
import { VirtualTable, type VirtualColumn } from '../components/VirtualTable.tsx';
import { formatDate } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** The message of an empty table (spec §8). */
export const NO_ARTIFACTS = 'No artifacts found';

/** Height of the artifacts table in pixels (spec §9). */
export const ARTIFACTS_TABLE_HEIGHT = 618;

const HEADERS: Record<SortColumn, string> = {
  name: 'Artifact Name',
  parkingLot: 'Parking Lot',
  author: 'Author',
  date: 'Date',
  comments: 'Number of Comments',
};

const WIDTHS: Record<SortColumn, string> = {
  name: 'minmax(140px, 3fr)',
  parkingLot: '100px',
  author: 'minmax(96px, 2fr)',
  date: '92px',
  comments: '120px',
};

const ORDER: readonly SortColumn[] = ['name', 'parkingLot', 'author', 'date', 'comments'];

const Name = styled.span`
  font-weight: ${theme.font.weight.medium};
`;

const LotMark = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 26px;
  height: 26px;
  border-radius: 50%;
  border: 2px solid ${theme.color.warning};
  color: ${theme.color.warning};
  background: #fff4d6;
  font-weight: ${theme.font.weight.bold};
  font-size: ${theme.font.size.sm};
`;

const CompareBox = styled.input`
  width: 18px;
  height: 18px;
  margin: 0;
  cursor: pointer;
`;

function ParkingLotMark() {
  return (
    <LotMark role="img" aria-label="In the parking lot" title="In the parking lot">
      P
    </LotMark>
  );
}

const rowId = (row: ArtifactRow): number => row.id;

/** The table's columns: a checkbox column in compare mode, then the data columns. */
function tableColumns(
  showParkingLot: boolean,
  comparing: boolean,
  sort: Sort,
  onSort: (column: SortColumn) => void,
): VirtualColumn[] {
  const shown = showParkingLot ? ORDER : ORDER.filter((column) => column !== 'parkingLot');
  return [
    ...(comparing
      ? [
          {
            id: 'compare',
            header: <span className="visually-hidden">Compare</span>,
            width: '48px',
            align: 'center' as const,
          },
        ]
      : []),
    ...shown.map((column) => ({
      id: column,
      header: HEADERS[column],
      width: WIDTHS[column],
      align:
        column === 'comments' ? ('end' as const) : column === 'parkingLot' ? ('center' as const) : ('start' as const),
      sort: sort.column === column ? sort.direction : ('none' as const),
      onSort: () => onSort(column),
      ...(column === 'name' ? { primary: true } : {}),
      ...(column === 'comments' ? { compactPrefix: 'Comments:' } : {}),
    })),
  ];
}

/** The cells of one row, in the columns' order (its compare checkbox ticked when it is picked). */
function rowCells(
  row: ArtifactRow,
  {
    showParkingLot,
    comparing,
    selected,
    onPick,
  }: { showParkingLot: boolean; comparing: boolean; selected: boolean; onPick: (artifactId: number) => void },
) {
  const cells = [
    <Name key="name">{row.name}</Name>,
    ...(showParkingLot ? [row.parkingLot ? <ParkingLotMark key="lot" /> : null] : []),
    <span key="author">{row.author}</span>,
    <time key="date" dateTime={row.artifact.created_at}>
      {formatDate(row.artifact.created_at)}
    </time>,
    row.comments,
  ];
  if (!comparing) return cells;
  return [
    <CompareBox
      key="compare"
      type="checkbox"
      tabIndex={-1}
      aria-label={`Compare ${row.name}`}
      checked={selected}
      onClick={(event: MouseEvent) => event.stopPropagation()}
      onChange={() => onPick(row.id)}
    />,
    ...cells,
  ];
}

/**
 * The artifacts of a portfolio: Artifact Name, Parking Lot (personal portfolios), Author, Date
 * and Number of Comments, sortable by every column, 618 px high on wide screens (spec §9),
 * growing with its rows on narrower ones; titles wrap instead of being cut. Outside compare mode a row shows its artifact in the detail pane; in compare mode
 * rows have a checkbox and a row picks (or un-picks) its artifact for comparison.
 */
export function ArtifactsTable({
  showParkingLot = true,
  rows,
  sort,
  onSort,
  selectedId,
  onSelect,
  comparing,
  picked,
  onPick,
}: {
  /** The rows to show, in order. */
  rows: readonly ArtifactRow[];
  sort: Sort;
  onSort: (column: SortColumn) => void;
  /** The artifact in the detail pane. */
  selectedId: number | null;
  onSelect: (artifactId: number) => void;
  /** Compare mode is on. */
  comparing: boolean;
  /** The artifacts picked for comparison. */
  picked: readonly number[];
  onPick: (artifactId: number) => void;
  /** Show the Parking Lot column (shared portfolios have no parking lot). */
  showParkingLot?: boolean;
}) {
  const columns = useMemo(
    () => tableColumns(showParkingLot, comparing, sort, onSort),
    [showParkingLot, comparing, sort, onSort],
  );
  // Stable while the rows and the mode stay: choosing an artifact redraws two rows, not all.
  const renderCells = useCallback(
    (row: ArtifactRow, selected: boolean) => rowCells(row, { showParkingLot, comparing, selected, onPick }),
    [showParkingLot, comparing, onPick],
  );

  return (
    <VirtualTable
      label="Artifacts"
      columns={columns}
      rows={rows}
      rowKey={rowId}
      renderCells={renderCells}
      isSelected={(row) => (comparing ? picked.includes(row.id) : row.id === selectedId)}
      onActivate={(row) => (comparing ? onPick(row.id) : onSelect(row.id))}
      height={ARTIFACTS_TABLE_HEIGHT}
      empty={NO_ARTIFACTS}
      minWidth={(comparing ? 600 : 552) - (showParkingLot ? 0 : 100)}
    />
  );
}
