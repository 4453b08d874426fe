import styled from 'styled-components';
import {
  useBackupStatusRef,
  useCreatedUserId,
  useCreateUserRef,
  useManageUsersError,
  useManageUsersEvents,
  useManageUsersStatus,
  useSignInMethodsRef,
  useUserRows,
} from '../../machines/manageUsers/useManageUsers.ts';
import { useSignInMethodsEvents, type SignInMethodsRef } from '../../machines/signInMethods/useSignInMethods.ts';
import { useCreateUserEvents, type CreateUserRef } from '../../machines/createUser/useCreateUser.ts';
import { Button } from '../components/Button.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { BackupStatusCard } from '../users/BackupStatusCard.tsx';
import { CreateUserDialog } from '../users/CreateUserDialog.tsx';
import { SignInMethodsDialog } from '../users/SignInMethodsDialog.tsx';
import { UsersTable } from '../users/UsersTable.tsx';
import { theme } from '../theme/theme.ts';

/** What anyone but a researcher sees (spec §6). */
export const ONLY_RESEARCHERS_MESSAGE = 'Only researchers can manage users.';

const Toolbar = styled.div`
  display: flex;
  align-items: baseline;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: ${theme.space.sm} ${theme.space.md};
  margin-bottom: ${theme.space.md};
  p {
    margin: 0;
    color: ${theme.color.textMuted};
  }
`;

const Count = styled.p`
  font-weight: ${theme.font.weight.medium};
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

function CreateUserButton({ dialog }: { dialog: CreateUserRef }) {
  const { open } = useCreateUserEvents(dialog);
  return (
    <Button type="button" onClick={open}>
      Create New User
    </Button>
  );
}

/** The table with each row's sign-in methods opening the dialog. */
function UsersWithMethods({
  methods,
  ...props
}: Omit<Parameters<typeof UsersTable>[0], 'onShowMethods'> & { methods: SignInMethodsRef }) {
  const { open } = useSignInMethodsEvents(methods);
  return <UsersTable {...props} onShowMethods={open} />;
}

function LoadFailed() {
  const error = useManageUsersError();
  const { retry } = useManageUsersEvents();
  return (
    <Problem role="alert">
      <h2>The users could not be loaded</h2>
      <p>{error?.message ?? 'Something went wrong. Please try again.'}</p>
      <Button type="button" onClick={retry}>
        Try again
      </Button>
    </Problem>
  );
}

/**
 * Manage Users (researchers): the scheduled backups at a glance, every account with its role, an
 * Active switch and its sign-in methods, and the Create New User dialog. Anyone else is told that only researchers can
 * manage users.
 */
export function ManageUsersPage() {
  const status = useManageUsersStatus();
  const rows = useUserRows();
  const createdId = useCreatedUserId();
  const dialog = useCreateUserRef();
  const backups = useBackupStatusRef();
  const methods = useSignInMethodsRef();

  if (status === 'denied') {
    return (
      <>
        <PageHeading title="Manage Users" />
        <p>{ONLY_RESEARCHERS_MESSAGE}</p>
      </>
    );
  }

  return (
    <>
      <PageHeading title="Manage Users">
        {dialog ? (
          <CreateUserButton dialog={dialog} />
        ) : (
          <Button type="button" disabled>
            Create New User
          </Button>
        )}
      </PageHeading>
      {backups ? <BackupStatusCard actorRef={backups} /> : null}
      {status === 'loadFailed' ? (
        <LoadFailed />
      ) : (
        <>
          <Toolbar>
            <p>Switch Active off to block an account from signing in; switch it on to let the person in again.</p>
            {status === 'ready' ? <Count>{rows.length === 1 ? '1 user' : `${rows.length} users`}</Count> : null}
          </Toolbar>
          {methods ? (
            <UsersWithMethods methods={methods} rows={rows} loading={status === 'loading'} createdId={createdId} />
          ) : (
            <UsersTable rows={rows} loading={status === 'loading'} createdId={createdId} />
          )}
        </>
      )}
      {dialog ? <CreateUserDialog actorRef={dialog} /> : null}
      {methods ? <SignInMethodsDialog actorRef={methods} /> : null}
    </>
  );
}
