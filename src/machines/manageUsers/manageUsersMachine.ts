/**
 * Manage Users (researchers): the list of accounts with an Active switch per row, and the
 * Create New User dialog.
 *
 * starting ─(manageUsers ability)→ loading ─(users)→ ready ─(user.created)→ ready (row added)
 *    │                        └─(failed)→ loadFailed ─(retry)→ loading
 *    └─(anyone else)→ denied
 *
 * Each row is a spawned `userToggle` actor (so a switch re-renders only its own row); the dialog
 * is the invoked `createUserDialog` actor, which reports new accounts with `user.created`. The
 * sign-in methods of one account are the invoked `signInMethodsDialog` actor. The
 * status of the scheduled backups is the `backupStatus` actor, spawned once the page may load:
 * it loads beside the list, and its failure stays its own.
 */
import { assign, enqueueActions, fromPromise, setup, spawnChild, type ActorRefFrom } from 'xstate';
import type { Me, User } from '../../schemas/user.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { listUsers } from '../../services/userService.ts';
import { backupStatusMachine } from '../backupStatus/backupStatusMachine.ts';
import { createUserMachine, type UserCreatedEvent } from '../createUser/createUserMachine.ts';
import { signInMethodsMachine } from '../signInMethods/signInMethodsMachine.ts';
import { userToggleMachine } from '../userToggle/userToggleMachine.ts';
import { insertionIndex, sortByName } from './selectors.ts';

export interface ManageUsersInput {
  /** The signed-in user (`null` when nobody is). */
  currentUser: Pick<Me, 'id' | 'abilities'> | null;
}

/** The id of a row's switch actor. */
const toggleId = (userId: number): string => `user-${userId}`;

/** One table row: the account's name (its sort key) and its switch actor, which holds the account. */
export interface UserRow {
  id: number;
  username: string;
  toggle: ActorRefFrom<typeof userToggleMachine>;
}

export interface ManageUsersContext {
  selfId: number | null;
  /** The server's `manageUsers` ability of the signed-in user. */
  manageUsers: boolean;
  /** The rows, sorted by name. */
  rows: UserRow[];
  /** The account created last on this page (highlighted). */
  createdId: number | null;
  error: UiError | null;
}

export type ManageUsersEvent = { type: 'retry' } | UserCreatedEvent;

export const manageUsersMachine = setup({
  types: {
    context: {} as ManageUsersContext,
    events: {} as ManageUsersEvent,
    input: {} as ManageUsersInput,
  },
  actors: {
    listUsers: fromPromise<User[]>(({ signal }) => listUsers({}, signal)),
    userToggle: userToggleMachine,
    createUserDialog: createUserMachine,
    signInMethodsDialog: signInMethodsMachine,
    backupStatus: backupStatusMachine,
  },
  guards: {
    canManageUsers: ({ context }) => context.manageUsers,
  },
  actions: {
    storeUsers: assign({
      rows: ({ context, spawn }, params: { users: User[] }) =>
        sortByName(params.users).map((user) => ({
          id: user.id,
          username: user.username,
          toggle: spawn('userToggle', { id: toggleId(user.id), input: { user, isSelf: user.id === context.selfId } }),
        })),
      error: null,
    }),
    addUser: assign(({ context, spawn }, params: { user: User }) => {
      const { user } = params;
      if (context.rows.some((row) => row.id === user.id)) return { createdId: user.id };
      const row = {
        id: user.id,
        username: user.username,
        toggle: spawn('userToggle', { id: toggleId(user.id), input: { user, isSelf: user.id === context.selfId } }),
      };
      const rows = [...context.rows];
      rows.splice(
        insertionIndex(rows, user, (r) => r),
        0,
        row,
      );
      return { rows, createdId: user.id };
    }),
    dropRows: enqueueActions(({ context, enqueue }) => {
      for (const row of context.rows) enqueue.stopChild(row.toggle);
      enqueue.assign({ rows: [], createdId: null });
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    startBackupStatus: spawnChild('backupStatus', { id: 'backupStatus' }),
  },
}).createMachine({
  id: 'manageUsers',
  context: ({ input }) => ({
    selfId: input.currentUser?.id ?? null,
    manageUsers: input.currentUser?.abilities.manageUsers ?? false,
    rows: [],
    createdId: null,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'canManageUsers', target: 'loading', actions: 'startBackupStatus' }, { target: 'denied' }],
    },
    denied: {},
    loading: {
      entry: 'dropRows',
      invoke: {
        id: 'listUsers',
        src: 'listUsers',
        onDone: { target: 'ready', actions: { type: 'storeUsers', params: ({ event }) => ({ users: event.output }) } },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    ready: {
      // The dialogs fail only through a defect; the page then offers to start again.
      invoke: [
        {
          id: 'createUserDialog',
          src: 'createUserDialog',
          onError: {
            target: 'loadFailed',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          },
        },
        {
          id: 'signInMethodsDialog',
          src: 'signInMethodsDialog',
          onError: {
            target: 'loadFailed',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          },
        },
      ],
      on: {
        'user.created': { actions: { type: 'addUser', params: ({ event }) => ({ user: event.user }) } },
      },
    },
  },
});

export type ManageUsersMachine = typeof manageUsersMachine;
