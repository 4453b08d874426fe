import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { backupStatusMachine, type BackupStatusEvent } from '../../src/machines/backupStatus/backupStatusMachine.ts';
import { provideManageUsers } from '../../src/machines/manageUsers/provideManageUsers.ts';
import { ManageUsersActorContext } from '../../src/machines/manageUsers/useManageUsers.ts';
import type { BackupStatus } from '../../src/schemas/backup.ts';
import type { User } from '../../src/schemas/user.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { ManageUsersPage } from '../../src/views/pages/ManageUsersPage.tsx';
import { BACKUP_STATUSES } from '../../src/test/backupFixtures.ts';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';
import { makeUser } from './support/users.ts';

// The scheduled backups' card on Manage Users (a child actor of the page's machine), driven through the page.
trackCoverage(backupStatusMachine);

type Snapshot = SnapshotFrom<typeof backupStatusMachine>;
type Step = { event: unknown };

const rita = makeUser('researcher', { id: 6001, username: 'Rita Researcher' });
const tess = makeUser('teacher', { id: 6002, username: 'Tess Teacher' });
const offline = new NetworkError();

/** What the card must say first for each answer of the server. */
const HEADLINES = new Map<BackupStatus, string>([
  [BACKUP_STATUSES.written, 'Last backup: November 29, 2026 2:31am UTC · 1.2 GB · completed'],
  [BACKUP_STATUSES.failed, 'Last backup failed on November 30, 2026 2:30am UTC: ENOSPC: no space left on device'],
  [BACKUP_STATUSES.never, 'No backup has run yet.'],
  [BACKUP_STATUSES.off, 'Scheduled backups are off (BACKUP_DIR is not set).'],
]);

const events = modelEvents<BackupStatusEvent>([{ type: 'retry' }], {
  fetchBackupStatus: [
    ...[...HEADLINES.keys()].map((output) => ({ type: 'xstate.done.actor.fetchBackupStatus', output })),
    { type: 'xstate.error.actor.fetchBackupStatus', error: offline },
  ] as unknown as BackupStatusEvent[],
});

function setup() {
  const fetchBackupStatus = controllableActor<BackupStatus>();
  const logic = provideManageUsers({
    notify: () => undefined,
    actors: { listUsers: fromPromise<User[]>(async () => [rita, tess]), fetchBackupStatus: fetchBackupStatus.logic },
  });
  render(
    <ManageUsersActorContext.Provider
      logic={logic}
      options={{ input: { currentUser: rita }, inspect: coverageInspector }}
    >
      <ManageUsersPage />
    </ManageUsersActorContext.Provider>,
  );
  return { fetchBackupStatus, ux: userEvent.setup() };
}

const card = () => screen.findByRole('status', { name: 'Scheduled backups' });
const firstLine = async () => (await card()).querySelector('p')?.textContent;

const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  loading: async () => {
    await waitFor(async () => expect(await firstLine()).toBe('Checking the last backup…'));
    // The users table does not wait for the card.
    expect(await screen.findByRole('table', { name: 'Users' })).toBeTruthy();
  },
  loadFailed: async (s) => {
    await waitFor(async () =>
      expect(await firstLine()).toBe(`The backup status could not be loaded. ${s.context.error!.message} Check again`),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(await screen.findByRole('switch', { name: 'Active: Tess Teacher' })).toBeTruthy();
  },
  ready: async (s) => {
    await waitFor(async () => expect(await firstLine()).toBe(HEADLINES.get(s.context.status!)));
    const failed = s.context.status!.lastRun?.ok === false;
    expect((await card()).dataset['tone']).toBe(failed ? 'failed' : s.context.status!.lastRun ? 'ok' : 'neutral');
    expect(within(await card()).queryByRole('button')).toBeNull();
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

describe('backup status model (on Manage Users, signed in as a researcher)', () => {
  const model = createPathModel(backupStatusMachine, { events });
  for (const path of model.getShortestPaths()) {
    it(`${path.description}`, async () => {
      const h = setup();
      await path.test({
        states: { '*': checkState },
        events: {
          'xstate.done.actor.fetchBackupStatus': async (step: Step) => {
            const { output } = step.event as { output: BackupStatus };
            const call = h.fetchBackupStatus.next();
            // One request at a time: the card asks once per load.
            expect(h.fetchBackupStatus.calls).toEqual([]);
            await act(async () => call.deferred.resolve(output));
          },
          'xstate.error.actor.fetchBackupStatus': async (step: Step) => {
            const { error } = step.event as { error: unknown };
            await act(async () => h.fetchBackupStatus.next().deferred.reject(error));
          },
          retry: async () => {
            await h.ux.click(within(await card()).getByRole('button', { name: 'Check again' }));
          },
        },
      });
    });
  }
});

describe('backup status for anyone but a researcher', () => {
  it('is neither asked for nor shown', () => {
    const fetchBackupStatus = controllableActor<BackupStatus>();
    render(
      <ManageUsersActorContext.Provider
        logic={provideManageUsers({ notify: () => undefined, actors: { fetchBackupStatus: fetchBackupStatus.logic } })}
        options={{ input: { currentUser: tess } }}
      >
        <ManageUsersPage />
      </ManageUsersActorContext.Provider>,
    );
    expect(screen.queryByRole('status', { name: 'Scheduled backups' })).toBeNull();
    expect(fetchBackupStatus.calls).toEqual([]);
  });
});
