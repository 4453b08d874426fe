import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { sharedItem } from '../../test/dashboardPageKit.tsx';
import { makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import { makeSharedArtifact } from '../../test/sharedFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import {
  COPIED_MESSAGE,
  copyArtifactMachine,
  type CopyArtifactInput,
  type CopyRequest,
} from './copyArtifactMachine.ts';
import { provideCopyServices } from './provideCopyServices.ts';

const science = sharedItem({ id: 9, name: 'Science' });
const art = sharedItem({ id: 12, name: 'Art' });
const mine = makeArtifact({ id: 31, portfolio: { id: 7 }, parkingLot: false });

interface Answers {
  artifact?: () => Promise<Artifact>;
  shared?: () => Promise<SharedArtifactDetail>;
  list?: () => Promise<SharedPortfolioListItem[]>;
  copy?: () => Promise<SharedArtifact>;
}

function start(input: Partial<CopyArtifactInput> = {}, answers: Answers = {}) {
  const notices: Notice[] = [];
  const copies: CopyRequest[] = [];
  const opened: { sharedPortfolioId: number; artifactId: number }[] = [];
  const actor = createActor(
    provideCopyServices(
      copyArtifactMachine.provide({
        actions: {
          notify: (_, notice) => notices.push(notice),
          navigateToCopy: (_, params) => opened.push(params),
          navigateToArtifact: () => {},
        },
      }),
      {
        fetchArtifact: fromPromise<Artifact, { artifactId: number }>(() => (answers.artifact ?? (async () => mine))()),
        fetchSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(() =>
          (answers.shared ?? (async () => makeSharedArtifactDetail({ id: 31, sharedPortfolio: { id: 9 } })))(),
        ),
        listSharedPortfolios: fromPromise<SharedPortfolioListItem[]>(() =>
          (answers.list ?? (async () => [science, art]))(),
        ),
        copyArtifact: fromPromise<SharedArtifact, CopyRequest>(({ input }) => {
          copies.push(input);
          return (answers.copy ?? (async () => makeSharedArtifact({ id: 80 })))();
        }),
      },
    ),
    { input: { from: 'artifact', portfolioId: 7, artifactId: 31, userId: 3, ...input } },
  ).start();
  return { actor, notices, copies, opened };
}

const settled = (s: SnapshotFrom<typeof copyArtifactMachine>) => !s.matches('loading');

describe('copyArtifactMachine guards', () => {
  it('hasBadAddress: an address without a valid id is not found, without loading', () => {
    expect(start({ artifactId: 0 }).actor.getSnapshot().value).toBe('notFound');
  });

  it('isEnd: each end of loading (done by copySource) leads to its page, with what it brought', async () => {
    const elsewhere = start({ portfolioId: 8 });
    await waitFor(elsewhere.actor, settled);
    expect(elsewhere.actor.getSnapshot().value).toBe('notFound');
    const parked = start({}, { artifact: async () => ({ ...mine, parkingLot: true }) });
    await waitFor(parked.actor, settled);
    expect(parked.actor.getSnapshot().value).toBe('notCopyable');
    expect(parked.actor.getSnapshot().context).toMatchObject({ reason: 'parkingLot', source: { id: 31 } });
    const offline = start({}, { list: () => Promise.reject(new ApiError(503, 'unavailable', 'Try again later.', '')) });
    await waitFor(offline.actor, settled);
    expect(offline.actor.getSnapshot().value).toBe('loadFailed');
    expect(offline.actor.getSnapshot().context.error).toMatchObject({ message: 'Try again later.' });
  });

  it('storeLoaded: a retry that loads clears the error and keeps the targets by name', async () => {
    let tries = 0;
    const list = async () => {
      tries += 1;
      if (tries === 1) throw new ApiError(503, 'unavailable', 'Try again later.', '');
      return [science, art];
    };
    const { actor } = start({}, { list });
    await waitFor(actor, settled);
    actor.send({ type: 'retry' });
    await waitFor(actor, settled);
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().context).toMatchObject({ error: null, source: { id: 31 } });
    expect(actor.getSnapshot().context.portfolios.map((p) => p.name)).toEqual(['Art', 'Science']);
  });

  it('hasNoTargets: loaded without a shared portfolio to copy to', async () => {
    const none = start({}, { list: async () => [] });
    await waitFor(none.actor, settled);
    expect(none.actor.getSnapshot().value).toBe('noPortfolios');
    const own = start({ from: 'sharedArtifact', portfolioId: 9 }, { list: async () => [science] });
    await waitFor(own.actor, settled);
    expect(own.actor.getSnapshot().value).toBe('noPortfolios');
  });

  it('isNewChoice / hasTarget / isNotesChange: only a listed new choice, and notes of personal artifacts', async () => {
    const { actor } = start();
    await waitFor(actor, settled);
    expect(actor.getSnapshot().context.portfolios.map((p) => p.name)).toEqual(['Art', 'Science']);
    expect(actor.getSnapshot().can({ type: 'copy.submit' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'target.select', sharedPortfolioId: 99 })).toBe(false);
    actor.send({ type: 'target.select', sharedPortfolioId: 12 });
    expect(actor.getSnapshot().can({ type: 'target.select', sharedPortfolioId: 12 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'notes.include', include: false })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'notes.include', include: true })).toBe(true);

    const shared = start({ from: 'sharedArtifact', portfolioId: 9 });
    await waitFor(shared.actor, settled);
    expect(shared.actor.getSnapshot().can({ type: 'notes.include', include: true })).toBe(false);
  });
});

describe('copyArtifactMachine actions', () => {
  it('a copy sends the choice and the notes tick, says so and opens the copy', async () => {
    const { actor, copies, notices, opened } = start();
    await waitFor(actor, settled);
    actor.send({ type: 'target.select', sharedPortfolioId: 12 });
    actor.send({ type: 'notes.include', include: true });
    actor.send({ type: 'copy.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(copies).toEqual([{ from: 'artifact', artifactId: 31, sharedPortfolioId: 12, includeNotes: true }]);
    expect(notices).toEqual([{ message: COPIED_MESSAGE, tone: 'success' }]);
    expect(opened).toEqual([{ sharedPortfolioId: 12, artifactId: 80 }]);
  });

  it('a refused copy alerts the message and keeps the choice; another choice clears the error', async () => {
    const refusal = () => Promise.reject(new ApiError(403, 'forbidden', 'Not a member.', ''));
    const { actor, notices } = start({}, { copy: refusal });
    await waitFor(actor, settled);
    actor.send({ type: 'target.select', sharedPortfolioId: 12 });
    actor.send({ type: 'copy.submit' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(notices).toEqual([{ message: 'Not a member.', tone: 'error' }]);
    expect(actor.getSnapshot().context).toMatchObject({ targetId: 12, error: { kind: 'forbidden' } });
    actor.send({ type: 'target.select', sharedPortfolioId: 9 });
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().context).toMatchObject({ targetId: 9, error: null });
  });

  it('after a failed copy the notes tick still changes, and the next try sends it', async () => {
    let tries = 0;
    const failOnce = async () => {
      tries += 1;
      if (tries === 1) throw new ApiError(503, 'unavailable', 'Try again later.', '');
      return makeSharedArtifact({ id: 81 });
    };
    const { actor, copies } = start({}, { copy: failOnce });
    await waitFor(actor, settled);
    actor.send({ type: 'target.select', sharedPortfolioId: 12 });
    actor.send({ type: 'copy.submit' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'notes.include', include: true });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.includeNotes).toBe(true);
    actor.send({ type: 'copy.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(copies.map((c) => c.includeNotes)).toEqual([false, true]);
  });
});
