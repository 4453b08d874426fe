/**
 * The Copy Artifact page (`/my-portfolios/{id}/artifacts/{artifactId}/copy` and, in shared mode,
 * `/shared-portfolios/{id}/artifacts/{artifactId}/copy`): copies a snapshot of an artifact into one
 * of the user's shared portfolios.
 *
 * starting ─(address without ids)→ notFound
 *    └→ loading ─(not found)→ notFound
 *         │     ├─(not copyable: parking lot / not the author's)→ notCopyable
 *         │     ├─(failed)→ loadFailed ─(retry)→ loading
 *         │     ├─(loaded, none but the shared artifact's own)→ noPortfolios
 *         │     └─(loaded, some)→ choosing
 *         └ invokes copySource: the artifact (personal or shared) and the shared portfolios it may go to
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
import type { SharedArtifact, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { copyArtifact } from '../../services/sharedService.ts';
import {
  copySourceMachine,
  type CopyFrom,
  type CopySource,
  type CopySourceInput,
  type CopySourceOutput,
  type NotCopyableReason,
} from '../copySource/copySourceMachine.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export {
  type CopyFrom,
  type CopySource,
  type CopySourceOutput,
  type NotCopyableReason,
} from '../copySource/copySourceMachine.ts';

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

/** The address of the page and the signed-in user (only the author copies a personal artifact). */
export type CopyArtifactInput = CopySourceInput;

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

const failure = (error: unknown): Notice => ({ message: toUiError(error).message, tone: 'error' });

/** What loading ended with, as the guards and actions take it. */
const ended = ({ event }: { event: { output: CopySourceOutput } }) => ({ output: event.output });
/** Whether loading ended this way. */
const endedAs =
  (kind: CopySourceOutput['kind']) =>
  ({ event }: { event: { output: CopySourceOutput } }) => ({
    output: event.output,
    kind,
  });

export const copyArtifactMachine = setup({
  types: {
    context: {} as CopyArtifactContext,
    events: {} as CopyArtifactEvent,
    input: {} as CopyArtifactInput,
    tags: {} as 'busy' | 'form',
  },
  actors: {
    copySource: copySourceMachine,
    copyArtifact: fromPromise<SharedArtifact, CopyRequest>(({ input, signal }) =>
      copyArtifact(input.from, input.artifactId, input.sharedPortfolioId, input.includeNotes, signal),
    ),
  },
  guards: {
    hasBadAddress: ({ context }) => !isId(context.portfolioId) || !isId(context.artifactId),
    isEnd: (_, params: { output: CopySourceOutput; kind: CopySourceOutput['kind'] }) =>
      params.output.kind === params.kind,
    /** Loaded, but no shared portfolio is left to copy to. */
    hasNoTargets: (_, params: { output: CopySourceOutput }) =>
      params.output.kind === 'loaded' && params.output.portfolios.length === 0,
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
    /** What loading ended with: the artifact, its targets, why it cannot be copied, or why loading failed. */
    storeLoaded: assign(({ context }, params: { output: CopySourceOutput }) => {
      const output = params.output;
      return {
        source: output.kind === 'notCopyable' || output.kind === 'loaded' ? output.source : context.source,
        portfolios: output.kind === 'loaded' ? output.portfolios : context.portfolios,
        reason: output.kind === 'notCopyable' ? output.reason : context.reason,
        error: output.kind === 'failed' ? output.error : null,
      };
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
    // The invoked `copySource` loads the artifact and the shared portfolios it may go to.
    loading: {
      invoke: {
        id: 'copySource',
        src: 'copySource',
        input: ({ context }) => ({
          from: context.from,
          portfolioId: context.portfolioId,
          artifactId: context.artifactId,
          userId: context.userId,
        }),
        onDone: [
          { guard: { type: 'isEnd', params: endedAs('notFound') }, target: 'notFound' },
          {
            guard: { type: 'isEnd', params: endedAs('failed') },
            target: 'loadFailed',
            actions: { type: 'storeLoaded', params: ended },
          },
          {
            guard: { type: 'isEnd', params: endedAs('notCopyable') },
            target: 'notCopyable',
            actions: { type: 'storeLoaded', params: ended },
          },
          {
            guard: { type: 'hasNoTargets', params: ended },
            target: 'noPortfolios',
            actions: { type: 'storeLoaded', params: ended },
          },
          { target: 'choosing', actions: { type: 'storeLoaded', params: ended } },
        ],
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
