import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type userEvent from '@testing-library/user-event';
import type { BackupStatus } from '../../schemas/backup.ts';
import type { User } from '../../schemas/user.ts';
import { BACKUP_STATUSES } from '../../test/backupFixtures.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError, NetworkError } from '../../services/errors.ts';
import { clearToasts } from '../feedback/toastStore.ts';
import { deferred } from '../../../tests/model/support/deferred.ts';
import {
  makeUser,
  rita,
  tess,
  lee,
  abe,
  type Blocking,
  renderPage,
  table,
  loadedTable,
  bodyRows,
  activeSwitch,
  exact,
} from '../../test/manageUsersPage.tsx';

afterEach(() => clearToasts());

describe('ManageUsersPage', () => {
  it('shows a researcher every account sorted by name, with role and Active switch', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Loading users' })).toBeTruthy();
    await loadedTable();
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Email', 'Role', 'Active', 'Sign-in']);
    expect(bodyRows().map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'abe Adams',
      'Lee Lead',
      'Rita ResearcherYou',
      'Tess Teacher',
    ]);
    const tessCells = within(bodyRows()[3]!).getAllByRole('cell');
    expect(tessCells[1]!.textContent).toBe(tess.email);
    expect(tessCells[2]!.textContent).toBe('Teacher');
    expect(activeSwitch('Tess Teacher').getAttribute('aria-checked')).toBe('true');
    expect(activeSwitch('abe Adams').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText('4 users')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create New User' })).toBeTruthy();
  });

  it('tells anyone but a researcher that only researchers can manage users, and asks nothing of the server', () => {
    const { calls } = renderPage({ currentUser: tess });
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeTruthy();
    expect(screen.getByText('Only researchers can manage users.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create New User' })).toBeNull();
    expect(screen.queryByRole('status', { name: 'Scheduled backups' })).toBeNull();
    expect(calls.listUsers).toBe(0);
    expect(calls.fetchBackupStatus).toBe(0);
  });

  it('disables the researcher’s own switch and explains why', async () => {
    const { calls, ux } = renderPage();
    const own = await screen.findByRole('switch', { name: 'Active: Rita Researcher' });
    expect(own.getAttribute('aria-disabled')).toBe('true');
    expect(own.getAttribute('title')).toBe('You cannot deactivate your own account');
    const descriptionId = own.getAttribute('aria-describedby')!;
    expect(document.getElementById(descriptionId)?.textContent).toBe('You cannot deactivate your own account');
    await ux.click(own);
    own.focus();
    await ux.keyboard(' ');
    expect(own.getAttribute('aria-checked')).toBe('true');
    expect(calls.setUserBlocked).toEqual([]);
    expect(activeSwitch('Tess Teacher').getAttribute('aria-disabled')).toBeNull();
  });

  it('blocks an account: a spinner shows on the row while saving, then the row shows the server’s answer', async () => {
    const answer = deferred<User>();
    const { calls, ux } = renderPage({ setUserBlocked: () => answer.promise });
    await ux.click(await screen.findByRole('switch', { name: 'Active: Tess Teacher' }));
    expect(calls.setUserBlocked).toEqual([{ id: tess.id, blocked: true }]);
    expect(screen.getByRole('status', { name: 'Updating Tess Teacher' })).toBeTruthy();
    expect(activeSwitch('Tess Teacher').getAttribute('aria-checked')).toBe('false');
    expect(activeSwitch('Tess Teacher').getAttribute('aria-disabled')).toBe('true');
    expect(screen.queryByRole('status', { name: 'Updating Lee Lead' })).toBeNull();
    await act(async () => answer.resolve({ ...tess, blocked: true, email: 'tess.new@example.org' }));
    expect(screen.queryByRole('status', { name: 'Updating Tess Teacher' })).toBeNull();
    expect(activeSwitch('Tess Teacher').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText('tess.new@example.org')).toBeTruthy();
  });

  it('unblocks an account with the keyboard', async () => {
    const { calls, ux } = renderPage();
    const abeSwitch = await screen.findByRole('switch', { name: 'Active: abe Adams' });
    abeSwitch.focus();
    await ux.keyboard('{Enter}');
    expect(calls.setUserBlocked).toEqual([{ id: abe.id, blocked: false }]);
    await waitFor(() => expect(activeSwitch('abe Adams').getAttribute('aria-checked')).toBe('true'));
  });

  it('when saving fails, alerts the reason and puts the switch back', async () => {
    const { ux } = renderPage({
      setUserBlocked: async () => {
        throw new ApiError(404, 'not_found', 'User not found.', '');
      },
    });
    await ux.click(await screen.findByRole('switch', { name: 'Active: Lee Lead' }));
    expect((await screen.findByRole('alert')).textContent).toContain('User not found.');
    expect(activeSwitch('Lee Lead').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('Not saved')).toBeTruthy();
    expect(activeSwitch('Lee Lead').getAttribute('aria-disabled')).toBeNull();
  });

  it('shows a message and Try again when the list cannot be loaded', async () => {
    let attempt = 0;
    const { calls, ux } = renderPage({
      listUsers: async () => {
        attempt += 1;
        if (attempt === 1) throw new NetworkError();
        return [rita];
      },
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The users could not be loaded')).toBeTruthy();
    expect(within(alert).getByText(new NetworkError().message)).toBeTruthy();
    await ux.click(screen.getByRole('button', { name: 'Try again' }));
    await loadedTable();
    expect(calls.listUsers).toBe(2);
    expect(bodyRows()).toHaveLength(1);
  });

  it('works inside StrictMode: one row per account, switching and creating still work', async () => {
    const { calls, ux } = renderPage({ strict: true });
    await loadedTable();
    expect(bodyRows()).toHaveLength(4);
    await ux.click(activeSwitch('Lee Lead'));
    await waitFor(() => expect(activeSwitch('Lee Lead').getAttribute('aria-checked')).toBe('false'));
    expect(calls.setUserBlocked).toEqual([{ id: lee.id, blocked: true }]);
    await ux.click(screen.getByRole('button', { name: 'Create New User' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New User' });
    await ux.type(within(dialog).getByLabelText('User Name'), 'Sam Strict');
    await ux.type(within(dialog).getByLabelText('Email'), 'sam@example.org');
    await ux.selectOptions(within(dialog).getByLabelText('Role'), 'Researcher');
    await ux.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('User Sam Strict successfully created.')).toBeTruthy();
    expect(calls.createUser).toEqual([{ username: 'Sam Strict', email: 'sam@example.org', roleId: 4 }]);
    // The toast is drawn at once; the new row comes with the list's next render, drawn as a transition (decision 034).
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
  });

  it('shows the last backup above the table, loaded beside it: neither waits for the other', async () => {
    const backups = deferred<BackupStatus>();
    const { calls } = renderPage({ fetchBackupStatus: () => backups.promise });
    const card = screen.getByRole('status', { name: 'Scheduled backups' });
    expect(card.textContent).toBe('Checking the last backup…');
    await loadedTable();
    await act(async () => backups.resolve(BACKUP_STATUSES.written));
    expect(card.textContent).toContain('Last backup: November 29, 2026 2:31am UTC · 1.2 GB · completed');
    expect(card.compareDocumentPosition(table()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(calls.fetchBackupStatus).toBe(1);
  });

  it('keeps the table when the backup status cannot be loaded, with a line of its own and Check again', async () => {
    let attempt = 0;
    const { calls, ux } = renderPage({
      fetchBackupStatus: async () => {
        attempt += 1;
        if (attempt === 1) throw new NetworkError();
        return BACKUP_STATUSES.written;
      },
    });
    await loadedTable();
    const card = screen.getByRole('status', { name: 'Scheduled backups' });
    await waitFor(() => expect(card.textContent).toContain('The backup status could not be loaded.'));
    expect(card.textContent).toContain(new NetworkError().message);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(bodyRows()).toHaveLength(4);
    await ux.click(within(card).getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(card.textContent).toContain('completed'));
    expect(calls.fetchBackupStatus).toBe(2);
    expect(calls.listUsers).toBe(1);
  });

  it('shows an empty state when there is nobody to list', async () => {
    renderPage({ listUsers: async () => [] });
    expect(await screen.findByText('No users found.')).toBeTruthy();
  });

  describe('Create New User', () => {
    async function openDialog(ux: ReturnType<typeof userEvent.setup>) {
      await loadedTable();
      await ux.click(screen.getByRole('button', { name: 'Create New User' }));
      return screen.getByRole('dialog', { name: 'Create New User' });
    }

    it('offers User Name, Email and Role (Teacher, PLC Lead, Researcher), Cancel and Create', async () => {
      const { ux } = renderPage();
      const dialog = await openDialog(ux);
      expect(document.activeElement).toBe(within(dialog).getByLabelText('User Name'));
      const role = within(dialog).getByLabelText('Role') as HTMLSelectElement;
      expect([...role.options].map((o) => [o.value, o.text])).toEqual([
        ['', 'Select a role'],
        ['1', 'Teacher'],
        ['3', 'PLC Lead'],
        ['4', 'Researcher'],
      ]);
      expect(within(dialog).getByLabelText('Email').getAttribute('type')).toBe('email');
      await ux.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create New User' }));
    });

    it('shows the spec’s messages for missing and wrong fields and sends nothing', async () => {
      const { calls, ux } = renderPage();
      const dialog = await openDialog(ux);
      await ux.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(within(dialog).getByText('Field User Name is required.')).toBeTruthy();
      expect(within(dialog).getByText('Field Email is required.')).toBeTruthy();
      expect(within(dialog).getByText('Choose a role: Teacher, PLC Lead or Researcher.', exact)).toBeTruthy();
      expect(document.activeElement).toBe(within(dialog).getByLabelText('User Name'));
      expect(within(dialog).getByLabelText('User Name').getAttribute('aria-invalid')).toBe('true');
      await ux.type(within(dialog).getByLabelText('Email'), 'ann@example');
      expect(within(dialog).getByText('Field Email is not a valid email address.')).toBeTruthy();
      await ux.type(within(dialog).getByLabelText('User Name'), 'Ann');
      expect(within(dialog).queryByText('Field User Name is required.')).toBeNull();
      expect(calls.createUser).toEqual([]);
    });

    it('creates the account, closes, says so, and shows the new row in name order', async () => {
      const answer = deferred<User>();
      const { calls, ux } = renderPage({ createUser: () => answer.promise });
      const dialog = await openDialog(ux);
      await ux.type(within(dialog).getByLabelText('User Name'), '  Mo Member ');
      await ux.type(within(dialog).getByLabelText('Email'), 'mo@example.org');
      await ux.selectOptions(within(dialog).getByLabelText('Role'), 'PLC Lead');
      await ux.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(calls.createUser).toEqual([{ username: 'Mo Member', email: 'mo@example.org', roleId: 3 }]);
      expect(within(dialog).getByRole('status', { name: 'Creating user' })).toBeTruthy();
      expect((within(dialog).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
      const created = makeUser('plcLead', { username: 'Mo Member', email: 'mo@example.org' });
      await act(async () => answer.resolve(created));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(await screen.findByText('User Mo Member successfully created.')).toBeTruthy();
      expect(bodyRows().map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
        'abe Adams',
        'Lee Lead',
        'Mo Member',
        'Rita ResearcherYou',
        'Tess Teacher',
      ]);
      expect(activeSwitch('Mo Member').getAttribute('aria-checked')).toBe('true');
      expect(screen.getByText('5 users')).toBeTruthy();
    });

    it('on failure alerts the server’s message, says so in the form and keeps what was typed', async () => {
      const { ux } = renderPage({
        createUser: async () => {
          throw new ApiError(400, 'user_exists', 'User already exists.', '');
        },
      });
      const dialog = await openDialog(ux);
      await ux.type(within(dialog).getByLabelText('User Name'), 'Tess Again');
      await ux.type(within(dialog).getByLabelText('Email'), tess.email);
      await ux.selectOptions(within(dialog).getByLabelText('Role'), 'Teacher');
      await ux.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('User creation failed. Please try again.')).toBeTruthy();
      const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
      expect(alerts.some((text) => text?.includes('User already exists.'))).toBe(true);
      expect((within(dialog).getByLabelText('User Name') as HTMLInputElement).value).toBe('Tess Again');
      expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe(tess.email);
      expect((within(dialog).getByLabelText('Role') as HTMLSelectElement).value).toBe('1');
      expect(bodyRows()).toHaveLength(4);
    });
  });
});

describe('ManageUsersPage with many accounts', () => {
  it('renders hundreds of rows and switches one of them', async () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      makeUser('teacher', { username: `Teacher ${String(i).padStart(3, '0')}` }),
    );
    const setUserBlocked = vi.fn<(input: Blocking) => Promise<User>>(async ({ id, blocked }: Blocking) => ({
      ...many.find((u) => u.id === id)!,
      blocked,
    }));
    const { ux } = renderPage({ listUsers: async () => [rita, ...many], setUserBlocked });
    await screen.findByText('301 users');
    // Role queries over hundreds of rows are slow in jsdom; find the rows by their text instead.
    const rowOf = (name: string) => within(screen.getByText(name).closest('tr')!).getByRole('switch');
    expect(document.querySelectorAll('tbody tr')).toHaveLength(301);
    await ux.click(rowOf('Teacher 150'));
    await waitFor(() => expect(rowOf('Teacher 150').getAttribute('aria-checked')).toBe('false'));
    expect(rowOf('Teacher 149').getAttribute('aria-checked')).toBe('true');
    expect(setUserBlocked).toHaveBeenCalledTimes(1);
  });
});
