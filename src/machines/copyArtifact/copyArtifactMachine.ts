/**
 * The Copy Artifact page (`/my-portfolios/{id}/artifacts/{artifactId}/copy` and, in shared mode,
 * `/shared-portfolios/{id}/artifacts/{artifactId}/copy`): copies a snapshot of an artifact into one
 * of the user's shared portfolios.
 *
 * starting ─(address without ids)→ notFound
 *    └→ loading.source ─(personal)→ loading.artifact ─────┐ the artifact:
 *                      └─(shared)→ loading.sharedArtifact ─┤─(404 / another portfolio's)→ notFound
 *                                                          ├─(personal: parking lot / not the author's)→ notCopyable
 *                                                          ├─(failed)→ loadFailed ─(retry)→ loading
 *                                                          └→ loading.portfolios ─(none but the shared artifact's own)→ noPortfolios
 *                                                                ├─(some)→ choosing
 *                                                                └─(failed)→ loadFailed
 * choosing ─(target.select)→ choosing ─(copy.submit, a portfolio chosen)→ copying
 * choosing | failed ─(notes.include: a personal artifact)→ the same state ("Include my private notes
 *    at moments of its videos": they become my comments on the copy; off by default)
 * copying ─(copied)→ copied ('Successfully copied artifact'; the edit page of the copy)
 *    └─(refused / failed)→ failed (the server's message is alerted; the form is enabled, the choice kept)
 * failed ─(target.select, another portfolio)→ choosing; ─(copy.submit)→ copying
 * choosing | failed ─(copy.cancel)→ cancelled (the app shows the artifact again)
 *
 * Happy path: the artifact and the shared portfolios load, the user picks one, COMPLETE COPY
 * copies, the toast shows and the new shared artifact's edit page opens.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { getArtifact } from '../../services/artifactService.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { copyArtifact, getSharedArtifact, listSharedPortfolios } from '../../services/sharedService.ts';
import { artifactTitle } from '../artifactLifecycle/artifactSelectors.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

/** The toast after a successful copy (spec §8). */
export const COPIED_MESSAGE = 'Successfully copied artifact';

export const COPY_MESSAGES = {
  artifactNotFound: 'Artifact not found.',
  sharedArtifactNotFound: 'Shared artifact not found.',
  parkingLot:
    'This artifact is still in the parking lot. Only completed artifacts can be copied: submit it to its portfolio first.',
  notAuthor: 'Only the author of an artifact can copy it.',
  noPortfolios: 'You are not a member of any shared portfolio yet.',
  noOtherPortfolios: 'You are not a member of any other shared portfolio: a shared artifact is copied to another one.',
} as const;

/** Where the artifact to copy lives: a personal portfolio or a shared one (shared mode). */
export type CopyFrom = 'artifact' | 'sharedArtifact';

/** Why an artifact that loaded cannot be copied. */
export type NotCopyableReason = 'parkingLot' | 'notAuthor';

export interface CopyArtifactInput {
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

export interface CopyArtifactContext extends CopyArtifactInput {
  source: CopySource | null;
  /** The shared portfolios the copy may go to, by name (never the one a shared artifact is in). */
  portfolios: SharedPortfolioListItem[];
  /** The chosen shared portfolio's id. */
  targetId: number | null;
  /** Copy the owner's private notes at moments of the videos as her comments (personal artifacts only). */
  includeNotes: boolean;
  reason: NotCopyableReason | null;
  /** Why loading or the last copy failed. */
  error: UiError | null;
}

export type CopyArtifactEvent =
  | { type: 'target.select'; sharedPortfolioId: number }
  | { type: 'notes.include'; include: boolean }
  | { type: 'copy.submit' }
  | { type: 'copy.cancel' }
  | { type: 'retry' };

/** What the copy actor needs. */
export interface CopyRequest {
  from: CopyFrom;
  artifactId: number;
  sharedPortfolioId: number;
  includeNotes: boolean;
}

const isId = (n: number | null): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;

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
  context: Pick<CopyArtifactContext, 'from' | 'source'>,
  portfolios: readonly SharedPortfolioListItem[],
): SharedPortfolioListItem[] {
  const here = context.from === 'sharedArtifact' ? context.source?.portfolioId : undefined;
  return byName(portfolios.filter((p) => p.id !== here));
}

const failure = (error: unknown): Notice => ({ message: toUiError(error).message, tone: 'error' });

export const copyArtifactMachine = setup({
  types: {
    context: {} as CopyArtifactContext,
    events: {} as CopyArtifactEvent,
    input: {} as CopyArtifactInput,
    tags: {} as 'busy' | 'form',
  },
  actors: {
    fetchArtifact: fromPromise<Artifact, { artifactId: number }>(({ input, signal }) =>
      getArtifact(input.artifactId, signal),
    ),
    fetchSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(({ input, signal }) =>
      getSharedArtifact(input.artifactId, signal),
    ),
    listSharedPortfolios: fromPromise<SharedPortfolioListItem[]>(({ signal }) => listSharedPortfolios(signal)),
    copyArtifact: fromPromise<SharedArtifact, CopyRequest>(({ input, signal }) =>
      copyArtifact(input.from, input.artifactId, input.sharedPortfolioId, input.includeNotes, signal),
    ),
  },
  guards: {
    hasBadAddress: ({ context }) => !isId(context.portfolioId) || !isId(context.artifactId),
    isSharedMode: ({ context }) => context.from === 'sharedArtifact',
    isElsewhere: ({ context }, params: { source: CopySource }) => params.source.portfolioId !== context.portfolioId,
    isInParkingLot: (_, params: { source: CopySource }) => params.source.parkingLot,
    isNotAuthor: ({ context }, params: { source: CopySource }) =>
      context.userId !== null && params.source.ownerId !== context.userId,
    isNotFound: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 404,
    hasNoPortfolios: ({ context }, params: { portfolios: readonly SharedPortfolioListItem[] }) =>
      copyTargets(context, params.portfolios).length === 0,
    /** A listed portfolio other than the one already chosen (choosing the chosen one again changes nothing). */
    isNewChoice: ({ context }, params: { sharedPortfolioId: number }) =>
      params.sharedPortfolioId !== context.targetId &&
      context.portfolios.some((p) => p.id === params.sharedPortfolioId),
    hasTarget: ({ context }) => isId(context.targetId),
    /** Notes exist only on personal artifacts; a tick that changes something. */
    isNotesChange: ({ context }, params: { include: boolean }) =>
      context.from === 'artifact' && params.include !== context.includeNotes,
  },
  actions: {
    storeSource: assign({ source: (_, params: { source: CopySource }) => params.source }),
    storeReason: assign({ reason: (_, params: { reason: NotCopyableReason }) => params.reason }),
    storePortfolios: assign({
      portfolios: ({ context }, params: { portfolios: readonly SharedPortfolioListItem[] }) =>
        copyTargets(context, params.portfolios),
      error: null,
    }),
    storeTarget: assign({ targetId: (_, params: { sharedPortfolioId: number }) => params.sharedPortfolioId }),
    storeIncludeNotes: assign({ includeNotes: (_, params: { include: boolean }) => params.include }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    clearError: assign({ error: null }),
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
    /** Opens the edit page of the new shared artifact (provided by the app). */
    navigateToCopy: effect<{ sharedPortfolioId: number; artifactId: number }>('navigateToCopy'),
    /** Goes back to the artifact's view (provided by the app). */
    navigateToArtifact: effect<{ from: CopyFrom; portfolioId: number; artifactId: number }>('navigateToArtifact'),
  },
}).createMachine({
  id: 'copyArtifact',
  context: ({ input }) => ({
    ...input,
    source: null,
    portfolios: [],
    targetId: null,
    includeNotes: false,
    reason: null,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasBadAddress', target: 'notFound' }, { target: 'loading' }],
    },
    notFound: {},
    loading: {
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
              {
                guard: { type: 'isElsewhere', params: ({ event }) => ({ source: toCopySource(event.output) }) },
                target: '#copyArtifact.notFound',
              },
              {
                guard: { type: 'isInParkingLot', params: ({ event }) => ({ source: toCopySource(event.output) }) },
                target: '#copyArtifact.notCopyable',
                actions: [
                  { type: 'storeSource', params: ({ event }) => ({ source: toCopySource(event.output) }) },
                  { type: 'storeReason', params: { reason: 'parkingLot' } },
                ],
              },
              {
                guard: { type: 'isNotAuthor', params: ({ event }) => ({ source: toCopySource(event.output) }) },
                target: '#copyArtifact.notCopyable',
                actions: [
                  { type: 'storeSource', params: ({ event }) => ({ source: toCopySource(event.output) }) },
                  { type: 'storeReason', params: { reason: 'notAuthor' } },
                ],
              },
              {
                target: 'portfolios',
                actions: { type: 'storeSource', params: ({ event }) => ({ source: toCopySource(event.output) }) },
              },
            ],
            onError: [
              {
                guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
                target: '#copyArtifact.notFound',
              },
              {
                target: '#copyArtifact.loadFailed',
                actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        sharedArtifact: {
          invoke: {
            id: 'fetchSharedArtifact',
            src: 'fetchSharedArtifact',
            input: ({ context }) => ({ artifactId: context.artifactId }),
            onDone: [
              {
                guard: { type: 'isElsewhere', params: ({ event }) => ({ source: toCopySource(event.output) }) },
                target: '#copyArtifact.notFound',
              },
              {
                target: 'portfolios',
                actions: { type: 'storeSource', params: ({ event }) => ({ source: toCopySource(event.output) }) },
              },
            ],
            onError: [
              {
                guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
                target: '#copyArtifact.notFound',
              },
              {
                target: '#copyArtifact.loadFailed',
                actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        portfolios: {
          invoke: {
            id: 'listSharedPortfolios',
            src: 'listSharedPortfolios',
            onDone: [
              {
                guard: { type: 'hasNoPortfolios', params: ({ event }) => ({ portfolios: event.output }) },
                target: '#copyArtifact.noPortfolios',
                actions: { type: 'storePortfolios', params: ({ event }) => ({ portfolios: event.output }) },
              },
              {
                target: '#copyArtifact.choosing',
                actions: { type: 'storePortfolios', params: ({ event }) => ({ portfolios: event.output }) },
              },
            ],
            onError: {
              target: '#copyArtifact.loadFailed',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    notCopyable: {},
    noPortfolios: {},
    choosing: {
      tags: ['form'],
      on: {
        'target.select': {
          guard: { type: 'isNewChoice', params: ({ event }) => ({ sharedPortfolioId: event.sharedPortfolioId }) },
          actions: { type: 'storeTarget', params: ({ event }) => ({ sharedPortfolioId: event.sharedPortfolioId }) },
        },
        'notes.include': {
          guard: { type: 'isNotesChange', params: ({ event }) => event },
          actions: { type: 'storeIncludeNotes', params: ({ event }) => event },
        },
        'copy.submit': { guard: 'hasTarget', target: 'copying' },
        'copy.cancel': 'cancelled',
      },
    },
    copying: {
      tags: ['form', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'copyArtifact',
        src: 'copyArtifact',
        input: ({ context }) => ({
          from: context.from,
          artifactId: context.artifactId,
          sharedPortfolioId: context.targetId!,
          includeNotes: context.includeNotes,
        }),
        onDone: {
          target: 'copied',
          actions: [
            { type: 'notify', params: { message: COPIED_MESSAGE, tone: 'success' } },
            {
              type: 'navigateToCopy',
              params: ({ context, event }) => ({ sharedPortfolioId: context.targetId!, artifactId: event.output.id }),
            },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            { type: 'notify', params: ({ event }) => failure(event.error) },
          ],
        },
      },
    },
    failed: {
      tags: ['form'],
      on: {
        'target.select': {
          guard: { type: 'isNewChoice', params: ({ event }) => ({ sharedPortfolioId: event.sharedPortfolioId }) },
          target: 'choosing',
          actions: [
            { type: 'storeTarget', params: ({ event }) => ({ sharedPortfolioId: event.sharedPortfolioId }) },
            'clearError',
          ],
        },
        // The form stays enabled after a failed copy: the notes choice can still change before trying again.
        'notes.include': {
          guard: { type: 'isNotesChange', params: ({ event }) => event },
          actions: { type: 'storeIncludeNotes', params: ({ event }) => event },
        },
        'copy.submit': { target: 'copying' },
        'copy.cancel': 'cancelled',
      },
    },
    copied: {
      tags: ['form', 'busy'],
      type: 'final',
    },
    cancelled: {
      tags: ['form', 'busy'],
      type: 'final',
      entry: {
        type: 'navigateToArtifact',
        params: ({ context }) => ({
          from: context.from,
          portfolioId: context.portfolioId,
          artifactId: context.artifactId,
        }),
      },
    },
  },
});

export type CopyArtifactMachine = typeof copyArtifactMachine;
