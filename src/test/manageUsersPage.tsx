/**
 * The Manage Users page rendered with its machine's services answered by the test: accounts of
 * each role, the page's calls counted, and the table as a researcher reads it.
 */
import { getDefaultNormalizer, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { fromPromise } from 'xstate';
import { provideManageUsers } from '../machines/manageUsers/provideManageUsers.ts';
import { ManageUsersActorContext } from '../machines/manageUsers/useManageUsers.ts';
import type { BackupStatus } from '../schemas/backup.ts';
import type { CreateUserBody, Me, User } from '../schemas/user.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { ManageUsersPage } from '../views/pages/ManageUsersPage.tsx';
import { USER_ABILITIES } from './abilityFixtures.ts';
import { BACKUP_STATUSES } from './backupFixtures.ts';

const ROLES = {
  teacher: { id: 1, name: 'Teacher', description: 'Teacher', type: 'authenticated' },
  plcLead: { id: 3, name: 'PLC Lead', description: 'PLC Lead', type: 'plc_lead' },
  researcher: { id: 4, name: 'Researcher', description: 'Researcher', type: 'researcher' },
} as const;
let nextId = 100;

/** An account as the API describes it (`GET /users/me` adds the abilities the server gives it). */
export function makeUser(kind: keyof typeof ROLES, overrides: Partial<User> = {}): Me {
  nextId += 1;
  return {
    id: nextId,
    username: `User ${nextId}`,
    email: `user${nextId}@example.org`,
    provider: 'local',
    confirmed: true,
    blocked: false,
    role: ROLES[kind],
    abilities: USER_ABILITIES[kind],
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export const rita = makeUser('researcher', { username: 'Rita Researcher' });
export const tess = makeUser('teacher', { username: 'Tess Teacher' });
export const lee = makeUser('plcLead', { username: 'Lee Lead' });
export const abe = makeUser('teacher', { username: 'abe Adams', blocked: true });

export type Blocking = { id: number; blocked: boolean };

export function renderPage({
  strict = false,
  currentUser = rita,
  listUsers = async () => [tess, rita, lee, abe],
  setUserBlocked = async ({ id, blocked }: Blocking) => ({
    ...[tess, rita, lee, abe].find((u) => u.id === id)!,
    blocked,
  }),
  createUser = async (body: CreateUserBody) => makeUser('plcLead', { username: body.username, email: body.email }),
  fetchBackupStatus = async () => BACKUP_STATUSES.written,
}: {
  /** Render inside <StrictMode>, as the app does. */
  strict?: boolean;
  currentUser?: Me | null;
  listUsers?: () => Promise<User[]>;
  setUserBlocked?: (input: Blocking) => Promise<User>;
  createUser?: (body: CreateUserBody) => Promise<User>;
  fetchBackupStatus?: () => Promise<BackupStatus>;
} = {}) {
  const calls = {
    listUsers: 0,
    setUserBlocked: [] as Blocking[],
    createUser: [] as CreateUserBody[],
    fetchBackupStatus: 0,
  };
  const logic = provideManageUsers({
    notify: ({ message, tone }) => notify(message, tone),
    actors: {
      listUsers: fromPromise<User[]>(() => {
        calls.listUsers += 1;
        return listUsers();
      }),
      setUserBlocked: fromPromise<User, Blocking>(({ input }) => {
        calls.setUserBlocked.push(input);
        return setUserBlocked(input);
      }),
      createUser: fromPromise<User, CreateUserBody>(({ input }) => {
        calls.createUser.push(input);
        return createUser(input);
      }),
      fetchBackupStatus: fromPromise<BackupStatus>(() => {
        calls.fetchBackupStatus += 1;
        return fetchBackupStatus();
      }),
    },
  });
  const page = (
    <>
      <ManageUsersActorContext.Provider logic={logic} options={{ input: { currentUser } }}>
        <ManageUsersPage />
      </ManageUsersActorContext.Provider>
      <Toaster />
    </>
  );
  render(strict ? <StrictMode>{page}</StrictMode> : page);
  return { calls, ux: userEvent.setup() };
}

export const table = () => screen.getByRole('table', { name: 'Users' });
/** The list as drawn once loaded (its count of users shows then). */
export const loadedTable = async () => {
  await screen.findByText(/^\d+ users?$/);
  return table();
};
export const bodyRows = () => within(table()).getAllByRole('row').slice(1);
export const activeSwitch = (name: string) => screen.getByRole('switch', { name: `Active: ${name}` });
export const exact = { normalizer: getDefaultNormalizer({ collapseWhitespace: false, trim: false }) };
