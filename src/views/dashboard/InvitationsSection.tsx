import { Link } from 'wouter';
import {
  useDashboardEvents,
  useInvitationRows,
  useSectionError,
  useSectionStatus,
} from '../../machines/dashboard/useDashboard.ts';
import { SortableTable, type SortableColumn } from '../components/SortableTable.tsx';
import { buildPath, paths } from '../paths.ts';
import { Problem } from '../portfolios/Notices.tsx';
import { DashboardSection } from './DashboardSection.tsx';
import { formatDate } from '../../schemas/formatting.ts';

/** The section's texts. */
const INVITATIONS = 'Invitations to Join Shared Portfolios';
const INVITATIONS_LOADING = 'Loading invitations';
const INVITATIONS_FAILED = 'The invitations could not be loaded';

const COLUMNS: readonly SortableColumn<'name' | 'from' | 'plcName' | 'date'>[] = [
  { id: 'name', header: 'Shared Portfolio Name', width: '35%' },
  { id: 'from', header: 'Invite From', width: '25%' },
  { id: 'plcName', header: 'PLC Name', width: '25%' },
  { id: 'date', header: 'Date', width: '15%' },
];

function InvitationTable() {
  const rows = useInvitationRows();
  if (rows.length === 0) return null;
  return (
    <DashboardSection title={INVITATIONS}>
      <SortableTable caption={INVITATIONS} columns={COLUMNS}>
        {rows.map((invitation) => (
          <tr key={invitation.id}>
            <td>
              <Link href={buildPath(paths.invitation, { id: invitation.id })}>{invitation.sharedPortfolio.name}</Link>
            </td>
            <td>{invitation.from?.username}</td>
            <td>{invitation.sharedPortfolio.plcName}</td>
            <td>{formatDate(invitation.created_at)}</td>
          </tr>
        ))}
      </SortableTable>
    </DashboardSection>
  );
}

/** Invitations to Join Shared Portfolios (everyone): shown only when there are any, newest first. */
export function InvitationsSection() {
  const status = useSectionStatus('invitations');
  const error = useSectionError('invitations');
  const { retry } = useDashboardEvents();
  if (status === 'ready') return <InvitationTable />;
  return (
    <DashboardSection title={INVITATIONS}>
      {status === 'failed' ? (
        <Problem title={INVITATIONS_FAILED} message={error?.message} onRetry={() => retry('invitations')} />
      ) : (
        <SortableTable
          caption={INVITATIONS}
          columns={COLUMNS}
          loading
          loadingLabel={INVITATIONS_LOADING}
          skeletonRows={1}
        />
      )}
    </DashboardSection>
  );
}
