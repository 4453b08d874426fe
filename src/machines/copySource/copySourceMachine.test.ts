import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { sharedItem } from '../../test/dashboardPageKit.tsx';
import { makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import { copySourceMachine, copyTargets, toCopySource, type CopySourceInput } from './copySourceMachine.ts';

const science = sharedItem({ id: 9, name: 'Science' });
const art = sharedItem({ id: 12, name: 'Art' });
const mine = makeArtifact({ id: 31, portfolio: { id: 7 }, parkingLot: false, owner: { id: 3 } as Artifact['owner'] });
const theirs = makeSharedArtifactDetail({ id: 70, sharedPortfolio: { id: 9 } });

interface Answers {
  artifact?: () => Promise<Artifact>;
  shared?: () => Promise<SharedArtifactDetail>;
  list?: () => Promise<SharedPortfolioListItem[]>;
}

/** Loads as the page would, and resolves with what loading ended with. */
function load(input: Partial<CopySourceInput> = {}, answers: Answers = {}) {
  const asked: string[] = [];
  const actor = createActor(
    copySourceMachine.provide({
      actors: {
        fetchArtifact: fromPromise<Artifact, { artifactId: number }>(({ input: { artifactId } }) => {
          asked.push(`artifact ${artifactId}`);
          return (answers.artifact ?? (async () => mine))();
        }),
        fetchSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(({ input: { artifactId } }) => {
          asked.push(`shared artifact ${artifactId}`);
          return (answers.shared ?? (async () => theirs))();
        }),
        listSharedPortfolios: fromPromise<SharedPortfolioListItem[]>(() => {
          asked.push('shared portfolios');
          return (answers.list ?? (async () => [science, art]))();
        }),
      },
    }),
    { input: { from: 'artifact', portfolioId: 7, artifactId: 31, userId: 3, ...input } },
  ).start();
  return { output: toPromise(actor), asked, actor };
}

describe('copySourceMachine guards', () => {
  it('isSharedMode: a shared artifact is fetched from the shared endpoint, a personal one from its own', async () => {
    const personal = load();
    await personal.output;
    expect(personal.asked).toEqual(['artifact 31', 'shared portfolios']);
    const shared = load({ from: 'sharedArtifact', portfolioId: 9, artifactId: 70 });
    await shared.output;
    expect(shared.asked).toEqual(['shared artifact 70', 'shared portfolios']);
  });

  it('isElsewhere: an artifact of another portfolio than the address’s is not found', async () => {
    expect(await load({ portfolioId: 8 }).output).toEqual({ kind: 'notFound' });
    expect(await load({ from: 'sharedArtifact', portfolioId: 12, artifactId: 70 }).output).toEqual({
      kind: 'notFound',
    });
  });

  it('isNotFound: a 404 is not found, another failure is a failure to load', async () => {
    const gone = () => Promise.reject(new ApiError(404, 'not_found', 'Not Found', ''));
    expect(await load({}, { artifact: gone }).output).toEqual({ kind: 'notFound' });
    expect(await load({ from: 'sharedArtifact', portfolioId: 9 }, { shared: gone }).output).toEqual({
      kind: 'notFound',
    });
    const offline = () => Promise.reject(new NetworkError());
    expect(await load({}, { artifact: offline }).output).toMatchObject({ kind: 'failed', error: { kind: 'network' } });
  });

  it('isInParkingLot / isNotAuthor: such an artifact is not copyable, with its reason, and no list is asked', async () => {
    const parked = load({}, { artifact: async () => ({ ...mine, parkingLot: true }) });
    expect(await parked.output).toMatchObject({ kind: 'notCopyable', reason: 'parkingLot', source: { id: 31 } });
    expect(parked.asked).toEqual(['artifact 31']);
    expect(await load({ userId: 4 }).output).toMatchObject({ kind: 'notCopyable', reason: 'notAuthor' });
    // Without a known user the server decides.
    expect(await load({ userId: null }).output).toMatchObject({ kind: 'loaded' });
  });
});

describe('copySourceMachine actions', () => {
  it('storeSource / storePortfolios: the artifact as the page shows it and its targets by name', async () => {
    expect(await load().output).toEqual({ kind: 'loaded', source: toCopySource(mine), portfolios: [art, science] });
  });

  it('storePortfolios: a shared artifact never goes to the portfolio it is in', async () => {
    const output = await load({ from: 'sharedArtifact', portfolioId: 9, artifactId: 70 }).output;
    expect(output).toMatchObject({ kind: 'loaded', portfolios: [art] });
    expect(copyTargets({ from: 'sharedArtifact', source: toCopySource(theirs) }, [science])).toEqual([]);
  });

  it('storeError: a list that failed ends loading with its error', async () => {
    const output = await load({}, { list: () => Promise.reject(new NetworkError()) }).output;
    expect(output).toMatchObject({ kind: 'failed', error: { kind: 'network' } });
  });
});
