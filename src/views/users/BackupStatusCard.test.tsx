import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import { backupStatusMachine } from '../../machines/backupStatus/backupStatusMachine.ts';
import type { BackupStatus } from '../../schemas/backup.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError } from '../../services/errors.ts';
import { BACKUP_STATUSES } from '../../test/backupFixtures.ts';
import { BackupStatusCard } from './BackupStatusCard.tsx';

const { schedule: SCHEDULE, lastRun: WRITTEN } = BACKUP_STATUSES.written;
const FAILED: NonNullable<BackupStatus['lastRun']> = {
  ok: false,
  started_at: '2026-11-30T02:30:00.000Z',
  finished_at: '2026-11-30T02:30:04.000Z',
  file: 'practicefolio-20261130T023000.000Z.backup',
  size: null,
  error: "ENOSPC: no space left on device, write 'practicefolio-20261130T023000.000Z.backup.part'",
};

const actors: Actor<typeof backupStatusMachine>[] = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});

/** The card for the server's answers, one per load (the last one repeated). */
function renderCard(...answers: (() => Promise<BackupStatus>)[]) {
  const actor = createActor(
    backupStatusMachine.provide({
      actors: {
        fetchBackupStatus: fromPromise<BackupStatus>(() => (answers.length > 1 ? answers.shift()! : answers[0]!)()),
      },
    }),
  ).start();
  actors.push(actor);
  const { unmount } = render(<BackupStatusCard actorRef={actor} />);
  return { card: screen.getByRole('status', { name: 'Scheduled backups' }), unmount, ux: userEvent.setup() };
}

const answer = (status: BackupStatus) => () => Promise.resolve(status);
const lines = (card: HTMLElement) => [...card.querySelectorAll('p')].map((p) => p.textContent);

describe('BackupStatusCard', () => {
  it('says it is checking while the status loads', () => {
    const { card } = renderCard(() => new Promise<BackupStatus>(() => undefined));
    expect(lines(card)).toEqual(['Checking the last backup…']);
  });

  it('shows the last backup written: when it ended (UTC), its size, completed, its file and the schedule', async () => {
    const { card } = renderCard(answer({ schedule: SCHEDULE, lastRun: WRITTEN, running: null }));
    await waitFor(() =>
      expect(lines(card)).toEqual([
        'Last backup: November 29, 2026 2:31am UTC · 1.2 GB · completed',
        'File: practicefolio-20261129T023000.000Z.backup',
        'Schedule: 30 2 * * * (cron, UTC) · the newest 7 kept',
      ]),
    );
    expect(card.dataset['tone']).toBe('ok');
  });

  it('shows a failed backup in words and in the warning style, with its error', async () => {
    const { card } = renderCard(answer({ schedule: SCHEDULE, lastRun: FAILED, running: null }));
    await waitFor(() =>
      expect(lines(card)[0]).toBe(
        "Last backup failed on November 30, 2026 2:30am UTC: ENOSPC: no space left on device, write 'practicefolio-20261130T023000.000Z.backup.part'",
      ),
    );
    expect(within(card).getByText('Last backup failed').tagName).toBe('STRONG');
    expect(card.dataset['tone']).toBe('failed');
    // The file it was writing was never kept: only the schedule follows.
    expect(lines(card).slice(1)).toEqual(['Schedule: 30 2 * * * (cron, UTC) · the newest 7 kept']);
  });

  it('says when scheduled backups are on but none has run yet', async () => {
    const { card } = renderCard(answer({ schedule: SCHEDULE, lastRun: null, running: null }));
    await waitFor(() =>
      expect(lines(card)).toEqual(['No backup has run yet.', 'Schedule: 30 2 * * * (cron, UTC) · the newest 7 kept']),
    );
    expect(card.dataset['tone']).toBe('neutral');
  });

  it('says when scheduled backups are off, and still shows the last one taken before', async () => {
    const off = renderCard(answer({ schedule: null, lastRun: null, running: null }));
    await waitFor(() => expect(lines(off.card)).toEqual(['Scheduled backups are off (BACKUP_DIR is not set).']));
    off.unmount();
    const before = renderCard(answer({ schedule: null, lastRun: WRITTEN, running: null }));
    await waitFor(() =>
      expect(lines(before.card)).toEqual([
        'Scheduled backups are off (BACKUP_DIR is not set).',
        'Last backup: November 29, 2026 2:31am UTC · 1.2 GB · completed',
        'File: practicefolio-20261129T023000.000Z.backup',
      ]),
    );
  });

  it('says when a backup is being written now, the first one or after the last', async () => {
    const running = { started_at: '2026-12-01T02:30:00.000Z', file: 'practicefolio-20261201T023000.000Z.backup' };
    const first = renderCard(answer({ schedule: SCHEDULE, lastRun: null, running }));
    await waitFor(() =>
      expect(lines(first.card)).toEqual([
        'A backup is being written now (started December 1, 2026 2:30am UTC).',
        'Schedule: 30 2 * * * (cron, UTC) · the newest 7 kept',
      ]),
    );
    first.unmount();
    const next = renderCard(answer({ schedule: SCHEDULE, lastRun: FAILED, running }));
    await waitFor(() =>
      expect(lines(next.card)[1]).toBe('A backup is being written now (started December 1, 2026 2:30am UTC).'),
    );
    expect(lines(next.card)[0]).toMatch(/^Last backup failed on /);
  });

  it('says so in one line when the status cannot be loaded, and loads it again on Check again', async () => {
    const { card, ux } = renderCard(
      () => Promise.reject(new ApiError(500, 'internal_error', 'Something went wrong on our side.', '')),
      answer({ schedule: SCHEDULE, lastRun: WRITTEN, running: null }),
    );
    await waitFor(() =>
      expect(lines(card)).toEqual([
        'The backup status could not be loaded. Something went wrong on our side. Check again',
      ]),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    await ux.click(within(card).getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(lines(card)[0]).toContain('completed'));
  });
});
