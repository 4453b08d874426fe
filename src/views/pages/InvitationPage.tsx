import { useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { INVITATION_MESSAGES } from '../../machines/invitation/invitationMachine.ts';
import {
  useCanAnswer,
  useConfirmingDelete,
  useInvitation,
  useInvitationBusy,
  useInvitationError,
  useInvitationEvents,
  useInvitationPortfolio,
  useInvitationStatus,
} from '../../machines/invitation/useInvitation.ts';
import { GRADES, UNNAMED_ARTIFACT } from '../../schemas/catalog.ts';
import type { Invitation } from '../../schemas/invitation.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { DataTable, type DataColumn } from '../components/DataTable.tsx';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { formatDate } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

export const DELETE_INVITATION_QUESTION = 'Are you sure you want to delete this invitation?';

const Card = styled.section`
  padding: ${theme.space.md} ${theme.space.lg};
  margin-bottom: ${theme.space.lg};
  ${panelStyle}
  h2 {
    font-size: ${theme.font.size.lg};
    margin-bottom: ${theme.space.sm};
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  gap: ${theme.space.sm} ${theme.space.lg};
  margin: 0 0 ${theme.space.md};
  dt {
    font-size: ${theme.font.size.sm};
    color: ${theme.color.textMuted};
    font-weight: ${theme.font.weight.medium};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Muted = styled.span`
  color: ${theme.color.textMuted};
  font-style: italic;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${theme.space.sm};
`;

const Problem = styled.div`
  padding: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-left: 6px solid ${theme.color.danger};
  border-radius: ${theme.radius.md};
  h2 {
    font-size: ${theme.font.size.lg};
  }
  p {
    margin: 0 0 ${theme.space.md};
  }
`;

const NOT_SPECIFIED = <Muted>Not specified</Muted>;

const COLUMNS: readonly DataColumn[] = [
  { id: 'name', header: 'Artifact Name', width: '40%' },
  { id: 'author', header: 'Author', width: '25%' },
  { id: 'created_at', header: 'Date', width: '15%', sort: 'descending' },
  { id: 'comments', header: 'Number of Comments', width: '20%', align: 'end' },
];

const gradeLabel = (code: string): string => GRADES.find((g) => g.value === code)?.label ?? code;

const artifactName = (artifact: SharedArtifact): string => {
  const name = artifact.responses.artifactName;
  return typeof name === 'string' && name.trim() !== '' ? name : UNNAMED_ARTIFACT;
};

/** Newest first (spec §2: the shared table defaults to date descending). */
const byDateDescending = (a: SharedArtifact, b: SharedArtifact): number =>
  b.created_at.localeCompare(a.created_at) || b.id - a.id;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children ?? NOT_SPECIFIED}</dd>
    </div>
  );
}

const orNull = (value: string | null | undefined): string | null => (value && value.trim() !== '' ? value : null);

function Summary({ invitation }: { invitation: Invitation }) {
  const { sharedPortfolio: sp, from, to } = invitation;
  const titleId = useId();
  const grades = sp.grades.map(gradeLabel);
  const busy = useInvitationBusy();
  const confirming = useConfirmingDelete();
  const canAnswer = useCanAnswer();
  const { accept, askDelete } = useInvitationEvents();
  return (
    <Card aria-labelledby={titleId}>
      <h2 id={titleId}>Summary</h2>
      <Facts>
        <Fact label="Invite From">{from ? `${from.username} (${from.email})` : null}</Fact>
        <Fact label="Email">{to.email}</Fact>
        <Fact label="Currently Shared with">{orNull(sp.members.map((m) => m.username).join(', '))}</Fact>
        <Fact label="PLC Name">{orNull(sp.plcName)}</Fact>
        <Fact label="Portfolio Topic">{orNull(sp.topic)}</Fact>
        <Fact label="Grade Levels">{orNull(grades.join(', '))}</Fact>
        <Fact label="Subject">{orNull(sp.subject)}</Fact>
        <Fact label="Date Created">
          <time dateTime={sp.created_at}>{formatDate(sp.created_at)}</time>
        </Fact>
      </Facts>
      <Actions>
        <Button type="button" $variant="danger" onClick={askDelete} disabled={busy || !canAnswer}>
          Delete Invitation
        </Button>
        <BusyButton
          type="button"
          busy={busy && !confirming}
          busyLabel="Answering the invitation"
          disabled={!canAnswer}
          onClick={accept}
        >
          Accept Invitation
        </BusyButton>
      </Actions>
    </Card>
  );
}

function Artifacts() {
  const portfolio = useInvitationPortfolio();
  const artifacts = [...(portfolio?.sharedArtifacts ?? [])].sort(byDateDescending);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Artifacts</h2>
      <DataTable caption="Artifacts" columns={COLUMNS} isEmpty={artifacts.length === 0} empty="No artifacts found">
        {artifacts.map((artifact) => (
          <tr key={artifact.id}>
            <td>{artifactName(artifact)}</td>
            <td>{artifact.ownerUsername}</td>
            <td>
              <time dateTime={artifact.created_at}>{formatDate(artifact.created_at)}</time>
            </td>
            <td data-align="end">{artifact.commentCount}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

function LoadFailed() {
  const error = useInvitationError();
  const { retry } = useInvitationEvents();
  return (
    <Problem role="alert">
      <h2>The invitation could not be loaded</h2>
      <p>{error?.message ?? 'Something went wrong. Please try again.'}</p>
      <Button type="button" onClick={retry}>
        Try again
      </Button>
    </Problem>
  );
}

/**
 * `/invitation/{id}`: 'Invitation to Join {portfolio name}' with who invited whom, the shared
 * portfolio in brief and its artifacts (read-only), Delete Invitation (after a question) and
 * Accept Invitation. After either answer the user goes to the dashboard.
 */
export function InvitationPage() {
  const status = useInvitationStatus();
  const invitation = useInvitation();
  const confirming = useConfirmingDelete();
  const busy = useInvitationBusy();
  const { confirmDelete, cancelDelete } = useInvitationEvents();

  if (status === 'loading' || status === 'notFound' || status === 'loadFailed' || !invitation) {
    return (
      <>
        <PageHeading title="Invitation" />
        {status === 'loading' ? <PageSkeleton label="Loading invitation" /> : null}
        {status === 'notFound' ? <p>{INVITATION_MESSAGES.notFound}</p> : null}
        {status === 'loadFailed' ? <LoadFailed /> : null}
      </>
    );
  }

  return (
    <>
      <PageHeading title={`Invitation to Join ${invitation.sharedPortfolio.name}`} />
      <Summary invitation={invitation} />
      <Artifacts />
      {confirming ? (
        <ConfirmDialog
          title="Delete Invitation"
          message={DELETE_INVITATION_QUESTION}
          busy={busy}
          onConfirm={confirmDelete}
          onCancel={cancelDelete}
        />
      ) : null}
    </>
  );
}
