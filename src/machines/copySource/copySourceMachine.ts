/**
 * The artifact to copy and the shared portfolios it may go to, loaded when the Copy Artifact page
 * opens (invoked by `copyArtifact` while it is loading). It ends with what the page shows next: the
 * artifact and its targets, why it cannot be copied, that it was not found, or why loading failed.
 *
 * source ─(personal)→ artifact ─────┐ the artifact:
 *        └─(shared)→ sharedArtifact ─┤─(404 / another portfolio's)→ notFound
 *                                    ├─(personal: parking lot / not the author's)→ notCopyable
 *                                    ├─(failed)→ failed
 *                                    └→ portfolios ─(listed: never the shared artifact's own)→ loaded
 *                                          └─(failed)→ failed
 *
 * Whether any target is left (otherwise "no portfolios") is the page's to say.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { getArtifact } from '../../services/artifactService.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { getSharedArtifact, listSharedPortfolios } from '../../services/sharedService.ts';
import { artifactTitle } from '../artifactLifecycle/artifactSelectors.ts';

/** Where the artifact to copy lives: a personal portfolio or a shared one (shared mode). */
export type CopyFrom = 'artifact' | 'sharedArtifact';

/** Why an artifact that loaded cannot be copied. */
export type NotCopyableReason = 'parkingLot' | 'notAuthor';

export interface CopySourceInput {
  from: CopyFrom;
  /** The portfolio (personal or shared) of the address; the artifact must belong to it. */
  portfolioId: number;
  artifactId: number;
  /** The signed-in user: only the author copies a personal artifact. */
  userId: number | null;
}

/** The artifact to copy, as the page shows it. */
export interface CopySource {
  id: number;
  title: string;
  /** The personal or shared portfolio that holds it. */
  portfolioId: number;
  parkingLot: boolean;
  ownerId: number;
}

/** What loading ended with. */
export type CopySourceOutput =
  | { kind: 'notFound' }
  | { kind: 'notCopyable'; source: CopySource; reason: NotCopyableReason }
  | { kind: 'loaded'; source: CopySource; portfolios: SharedPortfolioListItem[] }
  | { kind: 'failed'; error: UiError };

interface CopySourceContext extends CopySourceInput {
  source: CopySource | null;
  /** The shared portfolios the copy may go to, by name (never the one a shared artifact is in). */
  portfolios: SharedPortfolioListItem[];
  reason: NotCopyableReason | null;
  error: UiError | null;
}

/** The page's view of a personal or shared artifact. */
export function toCopySource(artifact: Artifact | SharedArtifactDetail): CopySource {
  return {
    id: artifact.id,
    title: artifactTitle(artifact.responses),
    portfolioId: 'portfolio' in artifact ? artifact.portfolio.id : artifact.sharedPortfolio.id,
    parkingLot: artifact.parkingLot,
    ownerId: artifact.owner.id,
  };
}

/** Shared portfolios by name, as the list shows them. */
export const byName = (portfolios: readonly SharedPortfolioListItem[]): SharedPortfolioListItem[] =>
  [...portfolios].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);

/** Where the copy may go: every shared portfolio of the user but the one the shared artifact is already in. */
export function copyTargets(
  context: { from: CopyFrom; source: CopySource | null },
  portfolios: readonly SharedPortfolioListItem[],
): SharedPortfolioListItem[] {
  const here = context.from === 'sharedArtifact' ? context.source?.portfolioId : undefined;
  return byName(portfolios.filter((p) => p.id !== here));
}

/** The end as the context has it: a failure first, then a reason, then a source (none: not found). */
export function copySourceOutput(context: CopySourceContext): CopySourceOutput {
  if (context.error) return { kind: 'failed', error: context.error };
  if (!context.source) return { kind: 'notFound' };
  if (context.reason) return { kind: 'notCopyable', source: context.source, reason: context.reason };
  return { kind: 'loaded', source: context.source, portfolios: context.portfolios };
}

/** The artifact fetched, as a guard or an action takes it. */
const fetched = ({ event }: { event: { output: Artifact | SharedArtifactDetail } }) => ({
  source: toCopySource(event.output),
});
const failedWith = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

export const copySourceMachine = setup({
  types: {
    context: {} as CopySourceContext,
    input: {} as CopySourceInput,
    output: {} as CopySourceOutput,
  },
  actors: {
    fetchArtifact: fromPromise<Artifact, { artifactId: number }>(({ input, signal }) =>
      getArtifact(input.artifactId, signal),
    ),
    fetchSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(({ input, signal }) =>
      getSharedArtifact(input.artifactId, signal),
    ),
    listSharedPortfolios: fromPromise<SharedPortfolioListItem[]>(({ signal }) => listSharedPortfolios(signal)),
  },
  guards: {
    isSharedMode: ({ context }) => context.from === 'sharedArtifact',
    isElsewhere: ({ context }, params: { source: CopySource }) => params.source.portfolioId !== context.portfolioId,
    isInParkingLot: (_, params: { source: CopySource }) => params.source.parkingLot,
    isNotAuthor: ({ context }, params: { source: CopySource }) =>
      context.userId !== null && params.source.ownerId !== context.userId,
    isNotFound: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 404,
  },
  actions: {
    storeSource: assign({ source: (_, params: { source: CopySource }) => params.source }),
    storeReason: assign({ reason: (_, params: { reason: NotCopyableReason }) => params.reason }),
    storePortfolios: assign({
      portfolios: ({ context }, params: { portfolios: readonly SharedPortfolioListItem[] }) =>
        copyTargets(context, params.portfolios),
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
  },
}).createMachine({
  id: 'copySource',
  context: ({ input }) => ({ ...input, source: null, portfolios: [], reason: null, error: null }),
  output: ({ context }) => copySourceOutput(context),
  initial: 'source',
  states: {
    source: {
      always: [{ guard: 'isSharedMode', target: 'sharedArtifact' }, { target: 'artifact' }],
    },
    artifact: {
      invoke: {
        id: 'fetchArtifact',
        src: 'fetchArtifact',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: [
          { guard: { type: 'isElsewhere', params: fetched }, target: 'notFound' },
          {
            guard: { type: 'isInParkingLot', params: fetched },
            target: 'notCopyable',
            actions: [
              { type: 'storeSource', params: fetched },
              { type: 'storeReason', params: { reason: 'parkingLot' } },
            ],
          },
          {
            guard: { type: 'isNotAuthor', params: fetched },
            target: 'notCopyable',
            actions: [
              { type: 'storeSource', params: fetched },
              { type: 'storeReason', params: { reason: 'notAuthor' } },
            ],
          },
          { target: 'portfolios', actions: { type: 'storeSource', params: fetched } },
        ],
        onError: [
          { guard: { type: 'isNotFound', params: failedWith }, target: 'notFound' },
          { target: 'failed', actions: { type: 'storeError', params: failedWith } },
        ],
      },
    },
    sharedArtifact: {
      invoke: {
        id: 'fetchSharedArtifact',
        src: 'fetchSharedArtifact',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: [
          { guard: { type: 'isElsewhere', params: fetched }, target: 'notFound' },
          { target: 'portfolios', actions: { type: 'storeSource', params: fetched } },
        ],
        onError: [
          { guard: { type: 'isNotFound', params: failedWith }, target: 'notFound' },
          { target: 'failed', actions: { type: 'storeError', params: failedWith } },
        ],
      },
    },
    portfolios: {
      invoke: {
        id: 'listSharedPortfolios',
        src: 'listSharedPortfolios',
        onDone: {
          target: 'loaded',
          actions: { type: 'storePortfolios', params: ({ event }) => ({ portfolios: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'storeError', params: failedWith } },
      },
    },
    notFound: { type: 'final' },
    notCopyable: { type: 'final' },
    loaded: { type: 'final' },
    failed: { type: 'final' },
  },
});

export type CopySourceMachine = typeof copySourceMachine;
