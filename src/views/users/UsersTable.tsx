import { memo } from 'react';
import styled from 'styled-components';
import type { UserRow as UserRowData } from '../../machines/manageUsers/manageUsersMachine.ts';
import type { MethodsAccount } from '../../machines/signInMethods/signInMethodsMachine.ts';
import { useUserToggle, useUserToggleEvents, type UserToggleRef } from '../../machines/userToggle/useUserToggle.ts';
import { Button } from '../components/Button.tsx';
import { DataTable, type DataColumn } from '../components/DataTable.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { Switch } from '../components/Switch.tsx';
import { theme } from '../theme/theme.ts';

/** Why the signed-in researcher's own switch cannot be used. */
export const OWN_ACCOUNT_NOTE = 'You cannot deactivate your own account';

const COLUMNS: readonly DataColumn[] = [
  { id: 'name', header: 'Name', sort: 'ascending' },
  { id: 'email', header: 'Email' },
  { id: 'role', header: 'Role', width: '8.5rem' },
  { id: 'active', header: 'Active', width: '11.5rem' },
  { id: 'signIn', header: 'Sign-in', width: '9rem' },
];

// Row content is plain elements with class names styled once here: a long table stays cheap to render.
const Wrap = styled.div`
  .user-name {
    display: inline-flex;
    align-items: center;
    flex-wrap: wrap;
    gap: ${theme.space.sm};
    font-weight: ${theme.font.weight.medium};
  }
  .user-you {
    padding: 0 ${theme.space.sm};
    border-radius: ${theme.radius.pill};
    background: ${theme.color.surfaceAlt};
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.xs};
    font-weight: ${theme.font.weight.bold};
    letter-spacing: 0.04em;
    text-transform: uppercase;
  }
  .user-role {
    color: ${theme.color.textMuted};
    overflow-wrap: normal;
  }
  .user-active {
    display: flex;
    align-items: center;
    flex-wrap: wrap;
    gap: ${theme.space.sm};
    min-height: 32px;
  }
  .user-state {
    min-width: 4.5em;
    font-size: ${theme.font.size.sm};
    color: ${theme.color.textMuted};
  }
  .user-state[data-active] {
    color: ${theme.color.success};
  }
  .user-not-saved {
    font-size: ${theme.font.size.sm};
    color: ${theme.color.danger};
  }
`;

/** An e-mail address that, when it must wrap, wraps after the @. */
function Email({ address }: { address: string }) {
  const at = address.indexOf('@');
  if (at < 0) return <>{address}</>;
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  );
}

/** One account: its own actor drives it, so switching one re-renders only that row. */
const UserTableRow = memo(function UserTableRow({
  toggle,
  highlight,
  onShowMethods,
}: {
  toggle: UserToggleRef;
  highlight: boolean;
  onShowMethods: ((account: MethodsAccount) => void) | undefined;
}) {
  const { user, active, saving, failed, isSelf } = useUserToggle(toggle);
  const { toggle: flip } = useUserToggleEvents(toggle);
  return (
    <tr data-highlight={highlight || undefined} aria-busy={saving || undefined}>
      <td>
        <span className="user-name">
          {user.username}
          {isSelf ? <span className="user-you">You</span> : null}
        </span>
      </td>
      <td>
        <Email address={user.email} />
      </td>
      <td className="user-role">{user.role.name}</td>
      <td>
        <div className="user-active">
          <Switch
            checked={active}
            label={`Active: ${user.username}`}
            disabled={isSelf || saving}
            description={isSelf ? OWN_ACCOUNT_NOTE : undefined}
            onChange={flip}
          />
          <span className="user-state" data-active={active || undefined} aria-hidden="true">
            {active ? 'Active' : 'Blocked'}
          </span>
          {saving ? <Spinner label={`Updating ${user.username}`} size={16} /> : null}
          {failed ? <span className="user-not-saved">Not saved</span> : null}
        </div>
      </td>
      <td>
        <Button
          type="button"
          $variant="secondary"
          $small
          aria-label={`Sign-in methods: ${user.username}`}
          disabled={!onShowMethods}
          onClick={() => onShowMethods?.({ id: user.id, username: user.username })}
        >
          Methods
        </Button>
      </td>
    </tr>
  );
});

/** The accounts, sorted by name, with an Active switch and their sign-in methods each; skeleton rows while loading. */
export function UsersTable({
  rows,
  loading,
  createdId,
  onShowMethods,
}: {
  /** The rows, already sorted. */
  rows: readonly UserRowData[];
  loading: boolean;
  /** The account just created on this page (highlighted). */
  createdId: number | null;
  /** Opens an account's sign-in methods (absent while the list cannot offer it). */
  onShowMethods?: ((account: MethodsAccount) => void) | undefined;
}) {
  return (
    <Wrap>
      <DataTable
        caption="Users"
        columns={COLUMNS}
        loading={loading}
        loadingLabel="Loading users"
        isEmpty={rows.length === 0}
        empty="No users found."
        maxHeight="min(72vh, 900px)"
      >
        {rows.map((row) => (
          <UserTableRow
            key={row.id}
            toggle={row.toggle}
            highlight={row.id === createdId}
            onShowMethods={onShowMethods}
          />
        ))}
      </DataTable>
    </Wrap>
  );
}
