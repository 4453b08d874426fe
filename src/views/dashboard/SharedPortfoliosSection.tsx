import { Link } from 'wouter';
import { gradeText, type SharedSortColumn } from '../../machines/dashboard/selectors.ts';
import {
  useDashboardEvents,
  useOwnsPortfolios,
  useSectionError,
  useSectionStatus,
  useSharedRows,
  useSharedSort,
} from '../../machines/dashboard/useDashboard.ts';
import { SortableTable, type SortableColumn } from '../components/SortableTable.tsx';
import { buildPath, paths } from '../paths.ts';
import { Problem } from '../portfolios/Notices.tsx';
import { DashboardSection } from './DashboardSection.tsx';
import { formatDate } from '../../schemas/formatting.ts';
import { SHARED_TABLE_ANCHOR } from './PortfolioSummarySection.tsx';

/** The section's texts. */
const SHARED_PORTFOLIOS = 'Shared Portfolios';
const SHARED_LOADING = 'Loading shared portfolios';
const SHARED_FAILED = 'The shared portfolios could not be loaded';

const COLUMNS: readonly SortableColumn<SharedSortColumn>[] = [
  { id: 'name', header: 'Shared Portfolio Name', width: '19%' },
  { id: 'plcName', header: 'PLC Name', width: '14%' },
  { id: 'date', header: 'Date Created', width: '10%' },
  { id: 'grades', header: 'Grade Levels', width: '15%' },
  { id: 'subject', header: 'Subject', width: '10%' },
  { id: 'topic', header: 'Portfolio Topic', width: '14%' },
  { id: 'artifacts', header: 'Artifacts', width: '9%', align: 'end' },
  { id: 'comments', header: 'Comments', width: '9%', align: 'end' },
];

const NO_SORT = (): void => undefined;

function SharedTable() {
  const rows = useSharedRows();
  const sort = useSharedSort();
  const { sortShared } = useDashboardEvents();
  if (rows.length === 0) return null;
  return (
    <DashboardSection title={SHARED_PORTFOLIOS} anchor={SHARED_TABLE_ANCHOR}>
      <SortableTable caption={SHARED_PORTFOLIOS} columns={COLUMNS} sort={sort} onSort={sortShared}>
        {rows.map((portfolio) => (
          <tr key={portfolio.id}>
            <td>
              <Link href={buildPath(paths.sharedPortfolio, { id: portfolio.id })}>{portfolio.name}</Link>
            </td>
            <td>{portfolio.plcName}</td>
            <td>{formatDate(portfolio.created_at)}</td>
            <td>{gradeText(portfolio.grades)}</td>
            <td>{portfolio.subject}</td>
            <td>{portfolio.topic}</td>
            <td data-align="end">{portfolio.sharedArtifacts.length}</td>
            <td data-align="end">{portfolio.commentCount}</td>
          </tr>
        ))}
      </SortableTable>
    </DashboardSection>
  );
}

/**
 * Shared Portfolios (everyone): the shared portfolios the user belongs to (researchers: all),
 * newest first, shown only when there are any. Without own portfolios, the summary (shown instead
 * of My Portfolios) tells the failure.
 */
export function SharedPortfoliosSection() {
  const status = useSectionStatus('shared');
  const error = useSectionError('shared');
  const ownsPortfolios = useOwnsPortfolios();
  const sort = useSharedSort();
  const { retry } = useDashboardEvents();
  if (status === 'ready') return <SharedTable />;
  if (status === 'failed' && !ownsPortfolios) return null;
  return (
    <DashboardSection title={SHARED_PORTFOLIOS}>
      {status === 'failed' ? (
        <Problem title={SHARED_FAILED} message={error?.message} onRetry={() => retry('shared')} />
      ) : (
        <SortableTable
          caption={SHARED_PORTFOLIOS}
          columns={COLUMNS}
          sort={sort}
          onSort={NO_SORT}
          loading
          loadingLabel={SHARED_LOADING}
        />
      )}
    </DashboardSection>
  );
}
