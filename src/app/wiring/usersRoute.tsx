import { provideManageUsers } from '../../machines/manageUsers/provideManageUsers.ts';
import { ManageUsersActorContext } from '../../machines/manageUsers/useManageUsers.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { ManageUsersPage } from '../../views/pages/ManageUsersPage.tsx';

/** Manage Users with the real services; messages go to the toasts. */
const manageUsersLogic = provideManageUsers({ notify: ({ message, tone }) => notify(message, tone) });

/** `/users`: the page's actor lives as long as the page, for the signed-in user. */
export function ManageUsersRoute() {
  const currentUser = useCurrentUser();
  return (
    <ManageUsersActorContext.Provider logic={manageUsersLogic} options={{ input: { currentUser } }}>
      <ManageUsersPage />
    </ManageUsersActorContext.Provider>
  );
}
