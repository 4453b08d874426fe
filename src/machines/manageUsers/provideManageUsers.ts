import type { PromiseActorLogic } from 'xstate';
import type { CreateUserBody, User } from '../../schemas/user.ts';
import { createUserMachine } from '../createUser/createUserMachine.ts';
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
  };
}

/**
 * The Manage Users logic with its outward effects supplied, down to the row switches and the
 * dialog it starts (they are separate machines, each with its own `notify`).
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
  return manageUsersMachine.provide({
    actors: { userToggle, createUserDialog, ...(actors.listUsers ? { listUsers: actors.listUsers } : {}) },
  });
}
