import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import {
  useAddedPortfolioId,
  useDashboardEvents,
  usePortfolioCreateRef,
  usePortfolioRows,
  usePortfolioSort,
  useSectionError,
  useSectionStatus,
} from '../../machines/dashboard/useDashboard.ts';
import { gradeText, type PortfolioSortColumn } from '../../machines/dashboard/selectors.ts';
import {
  usePortfolioCreate,
  usePortfolioCreateEvents,
  type PortfolioCreateRef,
} from '../../machines/portfolioCreate/usePortfolioCreate.ts';
import { Button } from '../components/Button.tsx';
import { SortableTable, type SortableColumn } from '../components/SortableTable.tsx';
import { buildPath, paths } from '../paths.ts';
import { Problem } from '../portfolios/Notices.tsx';
import { AddPortfolioRow } from './AddPortfolioRow.tsx';
import { DashboardSection } from './DashboardSection.tsx';
import { formatDate } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** The section's texts. */
const MY_PORTFOLIOS = 'My Portfolios';
const NO_PORTFOLIOS = 'You have no portfolios yet. Add one to start collecting evidence.';
const PORTFOLIOS_LOADING = 'Loading your portfolios';
const PORTFOLIOS_FAILED = 'Your portfolios could not be loaded';

const COLUMNS: readonly SortableColumn<PortfolioSortColumn>[] = [
  { id: 'name', header: 'Portfolio Name', width: '23%' },
  { id: 'date', header: 'Date Created', width: '11%' },
  { id: 'grades', header: 'Grade Levels', width: '18%' },
  { id: 'subject', header: 'Subject', width: '12%' },
  { id: 'topic', header: 'Portfolio Topic', width: '18%' },
  { id: 'artifacts', header: 'Artifacts', width: '9%', align: 'end' },
  { id: 'template', header: 'Template', width: '9%' },
];

/** The skeleton shows the headers as they will be, but nothing sorts yet. */
const NO_SORT = (): void => undefined;

const EmptyCell = styled.td`
  && {
    padding: ${theme.space.xl} ${theme.space.md};
    text-align: center;
    color: ${theme.color.textMuted};
  }
`;

function AddPortfolioButton({ actor }: { actor: PortfolioCreateRef }) {
  const { open } = usePortfolioCreate(actor);
  const events = usePortfolioCreateEvents(actor);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  // When the row closes (saved or cancelled) the focus comes back here.
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  if (open) return null;
  return (
    <Button ref={button} type="button" onClick={events.open}>
      Add Portfolio
    </Button>
  );
}

function PortfolioRows({ adding }: { adding: boolean }) {
  const rows = usePortfolioRows();
  const addedId = useAddedPortfolioId();
  if (rows.length === 0 && !adding) {
    return (
      <tr>
        <EmptyCell colSpan={COLUMNS.length}>{NO_PORTFOLIOS}</EmptyCell>
      </tr>
    );
  }
  return rows.map((portfolio) => (
    <tr key={portfolio.id} {...(portfolio.id === addedId ? { 'data-highlight': true } : {})}>
      <td>
        <Link href={buildPath(paths.myPortfolio, { id: portfolio.id })}>{portfolio.name}</Link>
      </td>
      <td>{formatDate(portfolio.created_at)}</td>
      <td>{gradeText(portfolio.grades)}</td>
      <td>{portfolio.subject}</td>
      <td>{portfolio.topic}</td>
      <td data-align="end">{portfolio.artifacts.length}</td>
      <td>{portfolio.template}</td>
    </tr>
  ));
}

function ReadyTable({ actor }: { actor: PortfolioCreateRef }) {
  const sort = usePortfolioSort();
  const { sortPortfolios } = useDashboardEvents();
  const { open } = usePortfolioCreate(actor);
  return (
    // The add row's grade list opens over the rows below it: the table must not clip it.
    <SortableTable caption={MY_PORTFOLIOS} columns={COLUMNS} sort={sort} onSort={sortPortfolios} overflowVisible={open}>
      {open ? <AddPortfolioRow actor={actor} colSpan={COLUMNS.length} /> : null}
      <PortfolioRows adding={open} />
    </SortableTable>
  );
}

/**
 * My Portfolios (teachers and PLC leads): the table of their portfolios, newest first, with an
 * inline Add Portfolio row; a skeleton while loading, a retry on failure, and an empty state.
 */
export function MyPortfoliosSection() {
  const status = useSectionStatus('portfolios');
  const error = useSectionError('portfolios');
  const actor = usePortfolioCreateRef();
  const sort = usePortfolioSort();
  const { retry } = useDashboardEvents();
  if (status === 'hidden') return null;
  const actions =
    status === 'ready' && actor ? (
      <AddPortfolioButton actor={actor} />
    ) : status === 'loading' ? (
      <Button type="button" disabled>
        Add Portfolio
      </Button>
    ) : null;
  return (
    <DashboardSection title={MY_PORTFOLIOS} actions={actions}>
      {status === 'loading' ? (
        <SortableTable
          caption={MY_PORTFOLIOS}
          columns={COLUMNS}
          sort={sort}
          onSort={NO_SORT}
          loading
          loadingLabel={PORTFOLIOS_LOADING}
        />
      ) : null}
      {status === 'failed' ? (
        <Problem title={PORTFOLIOS_FAILED} message={error?.message} onRetry={() => retry('portfolios')} />
      ) : null}
      {status === 'ready' && actor ? <ReadyTable actor={actor} /> : null}
    </DashboardSection>
  );
}
