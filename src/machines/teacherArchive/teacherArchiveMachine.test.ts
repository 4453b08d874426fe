import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ArchiveJob, ArchiveStatus } from '../../schemas/archive.ts';
import { ApiError } from '../../services/errors.ts';
import type { Notice } from '../shared/notice.ts';
import { ARCHIVE_FAILED, ARCHIVE_READY, teacherArchiveMachine } from './teacherArchiveMachine.ts';

const job = (id: number, status: ArchiveStatus): ArchiveJob => ({
  id,
  status,
  progress: status === 'ready' ? 1 : 0,
  counts: { portfolios: 0, artifacts: 0, sharedArtifacts: 0, comments: 0, media: 0 },
  size: null,
  created_at: '2026-03-01T10:00:00.000Z',
  finished_at: null,
  expires_at: null,
});
const tooMany = new ApiError(429, 'too_many', 'One archive a day.', '');

/** The section with a list, a request answer and the answers of successive polls (each after `ms`). */
function start(
  listed: ArchiveJob[],
  polls: ArchiveJob[][],
  request: () => Promise<ArchiveJob> = async () => job(2, 'queued'),
) {
  const notices: Notice[] = [];
  const waits: number[] = [];
  const actor = createActor(
    teacherArchiveMachine.provide({
      actors: {
        listArchives: fromPromise<ArchiveJob[]>(async () => listed),
        requestArchive: fromPromise<ArchiveJob>(() => request()),
        pollArchives: fromPromise<ArchiveJob[], { ms: number }>(
          ({ input }) =>
            new Promise((resolve) => {
              waits.push(input.ms);
              setTimeout(() => resolve(polls.shift() ?? []), input.ms);
            }),
        ),
      },
      actions: { notify: (_, notice) => notices.push(notice) },
    }),
    { input: { pollMs: 1000 } },
  ).start();
  return { actor, notices, waits };
}

describe('teacherArchiveMachine guards', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hasActiveJob: a list with a build under way is watched at once; a finished list is not', async () => {
    const watched = start([job(1, 'building')], []);
    await waitFor(watched.actor, (s) => s.matches('watching'));
    expect(watched.waits).toEqual([1000]);
    const idle = start([job(1, 'ready')], []);
    await waitFor(idle.actor, (s) => s.matches('ready'));
    expect(idle.waits).toEqual([]);
  });

  it('isStillActive: polls again while the build runs, then tells it is ready', async () => {
    const { actor, notices, waits } = start([job(1, 'queued')], [[job(1, 'building')], [job(1, 'ready')]]);
    await waitFor(actor, (s) => s.matches('watching'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches('watching')).toBe(true);
    expect(actor.getSnapshot().context.archives).toEqual([job(1, 'building')]);
    expect(notices).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(waits).toEqual([1000, 1000]);
    expect(notices).toEqual([{ message: ARCHIVE_READY, tone: 'success' }]);
  });
});

describe('teacherArchiveMachine actions', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a request puts the queued job first and watches it; a failed build is alerted', async () => {
    const { actor, notices } = start([job(1, 'ready')], [[job(2, 'failed'), job(1, 'ready')]]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'archive.request' });
    await waitFor(actor, (s) => s.matches('watching'));
    expect(actor.getSnapshot().context.archives.map((a) => [a.id, a.status])).toEqual([
      [2, 'queued'],
      [1, 'ready'],
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(notices).toEqual([{ message: ARCHIVE_FAILED, tone: 'error' }]);
  });

  it('a refused request keeps the list and stores the reason; the next request clears it', async () => {
    let refuse = true;
    const { actor } = start([job(1, 'ready')], [], () =>
      refuse ? Promise.reject(tooMany) : Promise.resolve(job(2, 'queued')),
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'archive.request' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.requestError !== null);
    expect(actor.getSnapshot().context.requestError).toEqual({
      kind: 'tooMany',
      status: 429,
      message: 'One archive a day.',
    });
    expect(actor.getSnapshot().context.archives).toEqual([job(1, 'ready')]);
    refuse = false;
    actor.send({ type: 'archive.request' });
    await waitFor(actor, (s) => s.matches('watching'));
    expect(actor.getSnapshot().context.requestError).toBeNull();
  });
});
