import { createActorContext } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { UiError } from '../../services/errors.ts';
import type { BackupStatusRef } from '../backupStatus/backupStatusMachine.ts';
import type { CreateUserRef } from '../createUser/useCreateUser.ts';
import type { SignInMethodsRef } from '../signInMethods/useSignInMethods.ts';
import { manageUsersMachine, type UserRow } from './manageUsersMachine.ts';

/** The page's actor; the app provides its logic (`provideManageUsers`) and the signed-in user as input. */
export const ManageUsersActorContext = createActorContext(manageUsersMachine);

export type ManageUsersStatus = 'denied' | 'loading' | 'loadFailed' | 'ready';

/** Where the page stands. */
export function useManageUsersStatus(): ManageUsersStatus {
  return ManageUsersActorContext.useSelector((s) => {
    if (s.matches('ready')) return 'ready';
    if (s.matches('loadFailed')) return 'loadFailed';
    if (s.matches('denied')) return 'denied';
    return 'loading';
  });
}

/** The table's rows, sorted by name (the same list until a row is added). */
export function useUserRows(): readonly UserRow[] {
  return ManageUsersActorContext.useSelector((s) => s.context.rows);
}

/** The account created last on this page, to highlight it. */
export function useCreatedUserId(): number | null {
  return ManageUsersActorContext.useSelector((s) => s.context.createdId);
}

/** Why the list could not be shown. */
export function useManageUsersError(): UiError | null {
  return ManageUsersActorContext.useSelector((s) => s.context.error);
}

/** The Create New User dialog's actor, while the list is shown. */
export function useCreateUserRef(): CreateUserRef | undefined {
  // Children are typed as a union of every actor the machine may start; this id is the dialog's.
  return ManageUsersActorContext.useSelector((s) => s.children.createUserDialog as CreateUserRef | undefined);
}

/** The sign-in methods dialog's actor, while the list is shown. */
export function useSignInMethodsRef(): SignInMethodsRef | undefined {
  // Children are typed as a union of every actor the machine may start; this id is the dialog's.
  return ManageUsersActorContext.useSelector((s) => s.children.signInMethodsDialog as SignInMethodsRef | undefined);
}

/** The scheduled backups' status actor, for those who may manage users. */
export function useBackupStatusRef(): BackupStatusRef | undefined {
  // Children are typed as a union of every actor the machine may start; this id is the status's.
  return ManageUsersActorContext.useSelector((s) => s.children.backupStatus as BackupStatusRef | undefined);
}

/** What the page may ask. */
export function useManageUsersEvents() {
  const actor = ManageUsersActorContext.useActorRef();
  return useMemo(() => ({ retry: () => actor.send({ type: 'retry' }) }), [actor]);
}
