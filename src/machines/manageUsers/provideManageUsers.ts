import type { PromiseActorLogic } from 'xstate';
import type { BackupStatus } from '../../schemas/backup.ts';
import type { SignInMethodList } from '../../schemas/sso.ts';
import type { CreateUserBody, User } from '../../schemas/user.ts';
import { backupStatusMachine } from '../backupStatus/backupStatusMachine.ts';
import { createUserMachine } from '../createUser/createUserMachine.ts';
import { signInMethodsMachine } from '../signInMethods/signInMethodsMachine.ts';
import { userToggleMachine } from '../userToggle/userToggleMachine.ts';
import type { Notice } from '../shared/notice.ts';
import { manageUsersMachine } from './manageUsersMachine.ts';

/** What the Manage Users page needs from outside: how to tell the user things, and (tests) other services. */
export interface ManageUsersImplementations {
  /** Shows a message (a toast; errors as alerts). */
  notify: (notice: Notice) => void;
  /** Replacements for the service calls (tests); the real services otherwise. */
  actors?: {
    listUsers?: PromiseActorLogic<User[]>;
    setUserBlocked?: PromiseActorLogic<User, { id: number; blocked: boolean }>;
    createUser?: PromiseActorLogic<User, CreateUserBody>;
    fetchBackupStatus?: PromiseActorLogic<BackupStatus>;
    listSignInMethods?: PromiseActorLogic<SignInMethodList, { userId: number }>;
    unlinkIdentity?: PromiseActorLogic<SignInMethodList, { userId: number; identityId: number }>;
  };
}

/**
 * The Manage Users logic with its outward effects supplied, down to the row switches, the
 * dialogs and the backup status it starts (separate machines; the switches and the dialogs each
 * with its own `notify`).
 */
export function provideManageUsers({ notify, actors = {} }: ManageUsersImplementations) {
  const notifyAction = (_: unknown, notice: Notice) => notify(notice);
  const userToggle = userToggleMachine.provide({
    actions: { notify: notifyAction },
    ...(actors.setUserBlocked ? { actors: { setUserBlocked: actors.setUserBlocked } } : {}),
  });
  const createUserDialog = createUserMachine.provide({
    actions: { notify: notifyAction },
    ...(actors.createUser ? { actors: { createUser: actors.createUser } } : {}),
  });
  const signInMethodsDialog = signInMethodsMachine.provide({
    actions: { notify: notifyAction },
    actors: {
      ...(actors.listSignInMethods ? { listSignInMethods: actors.listSignInMethods } : {}),
      ...(actors.unlinkIdentity ? { unlinkIdentity: actors.unlinkIdentity } : {}),
    },
  });
  const backupStatus = actors.fetchBackupStatus
    ? backupStatusMachine.provide({ actors: { fetchBackupStatus: actors.fetchBackupStatus } })
    : backupStatusMachine;
  return manageUsersMachine.provide({
    actors: {
      userToggle,
      createUserDialog,
      signInMethodsDialog,
      backupStatus,
      ...(actors.listUsers ? { listUsers: actors.listUsers } : {}),
    },
  });
}
