/**
 * The history of one artifact or shared artifact (issue 27): its versions page by page, newest
 * first; two versions compared (by default the newest against the one before it); a version
 * restored after a confirmation, guarded as a save is (the `updated_at` the page shows).
 *
 *   loading ─(done, 2+ versions)→ reading ─(done)→ ready
 *      │  └─(done, 1 version)──────────────────→ ready
 *      └─(failed)→ failed ─(retry)→ loading
 *   ready ─(compare.select)→ reading ─(done | failed)→ ready
 *   ready ─(more)→ loadingMore ─(done | failed)→ ready
 *   ready ─(restore.ask)→ confirming ─(restore.cancel)→ ready
 *                             └─(restore.confirm)→ restoring ─(done)→ loading (the restored version on top)
 *                                                      ├─(409)→ refreshing ─(done)→ loading (told it changed)
 *                                                      └─(failed)→ ready (told why)
 */
import { assign, emit, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { VersionDetail, VersionListResponse, VersionSummary } from '../../schemas/versions.ts';
import { getArtifact } from '../../services/artifactService.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { getSharedArtifact } from '../../services/sharedService.ts';
import { getVersion, listVersions, restoreVersion, type VersionHolder } from '../../services/versionService.ts';

/** Whose history: a personal artifact's or a shared artifact's. */
export type HistoryHolder = VersionHolder;

export interface ArtifactHistoryInput {
  holder: VersionHolder;
  artifactId: number;
  /** The artifact's version as the page shows it (what a restore is guarded with). */
  updatedAt: string;
}

/** Two versions compared: `older` before `newer`. */
export interface VersionPair {
  older: number;
  newer: number;
}

/** What the panel says after a restore. */
export type HistoryNotice = { kind: 'restored'; from: number } | { kind: 'changed' } | null;

/** Which request failed: the first page, a later page, a version read, a restore. */
export type HistoryErrorOf = 'list' | 'more' | 'read' | 'restore';

export interface ArtifactHistoryContext extends ArtifactHistoryInput {
  versions: readonly VersionSummary[];
  total: number;
  nextBefore: number | null;
  /** The versions read whole, by number (kept while the panel is open). */
  details: Readonly<Record<number, VersionDetail>>;
  pair: VersionPair | null;
  /** The version asked to be restored (while confirming and restoring). */
  restoring: number | null;
  notice: HistoryNotice;
  error: { of: HistoryErrorOf; error: UiError } | null;
}

export type ArtifactHistoryEvent =
  | { type: 'retry' }
  | { type: 'more' }
  | ({ type: 'compare.select' } & VersionPair)
  | { type: 'restore.ask'; number: number }
  | { type: 'restore.confirm' }
  | { type: 'restore.cancel' };

/** What the page shows of an artifact that a restore changed: its answers, files and version. */
export type StoredArtifact = Pick<Artifact, 'updated_at' | 'responses' | 'images' | 'videos' | 'documents'>;

/** Told to the page: the artifact as stored now (after a restore, or found changed by one). */
export type ArtifactHistoryEmitted = { type: 'artifact.changed'; artifact: StoredArtifact };

const stored = ({ updated_at, responses, images, videos, documents }: StoredArtifact): StoredArtifact => ({
  updated_at,
  responses,
  images,
  videos,
  documents,
});

/** How many versions a page holds. */
export const HISTORY_PAGE = 20;

const isConflict = (error: unknown) => error instanceof ApiError && error.status === 409;
const wanted = (context: ArtifactHistoryContext, pair: VersionPair) =>
  [pair.older, pair.newer].filter((n) => !(n in context.details));

export const artifactHistoryMachine = setup({
  types: {
    context: {} as ArtifactHistoryContext,
    events: {} as ArtifactHistoryEvent,
    input: {} as ArtifactHistoryInput,
    emitted: {} as ArtifactHistoryEmitted,
  },
  actors: {
    listVersions: fromPromise<
      VersionListResponse,
      { holder: VersionHolder; artifactId: number; before: number | undefined }
    >(({ input, signal }) =>
      listVersions(input.holder, input.artifactId, { before: input.before, limit: HISTORY_PAGE }, signal),
    ),
    readVersions: fromPromise<VersionDetail[], { holder: VersionHolder; artifactId: number; numbers: number[] }>(
      ({ input, signal }) =>
        Promise.all(input.numbers.map((n) => getVersion(input.holder, input.artifactId, n, signal))),
    ),
    restoreVersion: fromPromise<
      StoredArtifact,
      { holder: VersionHolder; artifactId: number; number: number; updatedAt: string }
    >(({ input, signal }) =>
      restoreVersion(input.holder, input.artifactId, input.number, input.updatedAt, signal).then(stored),
    ),
    getCurrent: fromPromise<StoredArtifact, { holder: VersionHolder; artifactId: number }>(({ input, signal }) =>
      input.holder === 'artifact' ? getArtifact(input.artifactId, signal) : getSharedArtifact(input.artifactId, signal),
    ),
  },
  guards: {
    hasTwo: ({ event }) => (event as unknown as { output: VersionListResponse }).output.total >= 2,
    hasMore: ({ context }) => context.nextBefore !== null,
    isOtherPair: ({ context }, pair: VersionPair) =>
      pair.older < pair.newer && (context.pair?.older !== pair.older || context.pair.newer !== pair.newer),
    isConflict: ({ event }) => isConflict((event as unknown as { error: unknown }).error),
  },
  actions: {
    storeFirstPage: assign(({ context }, page: VersionListResponse) => ({
      versions: page.items,
      total: page.total,
      nextBefore: page.nextBefore,
      // The newest version against the one before it.
      pair: page.total >= 2 ? { older: page.total - 1, newer: page.total } : null,
      details: context.details,
      error: null,
    })),
    storeMore: assign(({ context }, page: VersionListResponse) => ({
      versions: [
        ...context.versions,
        ...page.items.filter((v) => !context.versions.some((o) => o.number === v.number)),
      ],
      nextBefore: page.nextBefore,
      error: null,
    })),
    storePair: assign({ pair: (_, pair: VersionPair) => ({ older: pair.older, newer: pair.newer }) }),
    storeDetails: assign({
      details: ({ context }, read: VersionDetail[]) => ({
        ...context.details,
        ...Object.fromEntries(read.map((v) => [v.number, v])),
      }),
      error: null,
    }),
    storeError: assign({
      error: (_, params: { of: HistoryErrorOf; error: unknown }) => ({ ...params, error: toUiError(params.error) }),
    }),
    askRestore: assign({ restoring: (_, params: { number: number }) => params.number, notice: null, error: null }),
    forgetRestore: assign({ restoring: null }),
    storeRestored: assign(({ context }, artifact: StoredArtifact) => ({
      updatedAt: artifact.updated_at,
      notice: { kind: 'restored' as const, from: context.restoring ?? 0 },
      restoring: null,
    })),
    storeChanged: assign((_, artifact: StoredArtifact) => ({
      updatedAt: artifact.updated_at,
      notice: { kind: 'changed' as const },
      restoring: null,
    })),
    emitChanged: emit((_, artifact: StoredArtifact) => ({ type: 'artifact.changed' as const, artifact })),
  },
}).createMachine({
  id: 'artifactHistory',
  context: ({ input }) => ({
    ...input,
    versions: [],
    total: 0,
    nextBefore: null,
    details: {},
    pair: null,
    restoring: null,
    notice: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listVersions',
        src: 'listVersions',
        input: ({ context }) => ({ holder: context.holder, artifactId: context.artifactId, before: undefined }),
        onDone: [
          {
            guard: 'hasTwo',
            target: 'reading',
            actions: { type: 'storeFirstPage', params: ({ event }) => event.output },
          },
          { target: 'ready', actions: { type: 'storeFirstPage', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ of: 'list', error: event.error }) },
        },
      },
    },
    failed: {
      on: { retry: 'loading' },
    },
    reading: {
      invoke: {
        id: 'readVersions',
        src: 'readVersions',
        input: ({ context }) => ({
          holder: context.holder,
          artifactId: context.artifactId,
          numbers: context.pair ? wanted(context, context.pair) : [],
        }),
        onDone: { target: 'ready', actions: { type: 'storeDetails', params: ({ event }) => event.output } },
        onError: {
          target: 'ready',
          actions: { type: 'storeError', params: ({ event }) => ({ of: 'read', error: event.error }) },
        },
      },
    },
    ready: {
      on: {
        'compare.select': {
          guard: { type: 'isOtherPair', params: ({ event }) => event },
          target: 'reading',
          actions: { type: 'storePair', params: ({ event }) => event },
        },
        more: { guard: 'hasMore', target: 'loadingMore' },
        'restore.ask': { target: 'confirming', actions: { type: 'askRestore', params: ({ event }) => event } },
        retry: { guard: ({ context }) => context.error?.of === 'read', target: 'reading' },
      },
    },
    loadingMore: {
      invoke: {
        id: 'listMore',
        src: 'listVersions',
        input: ({ context }) => ({
          holder: context.holder,
          artifactId: context.artifactId,
          before: context.nextBefore ?? undefined,
        }),
        onDone: { target: 'ready', actions: { type: 'storeMore', params: ({ event }) => event.output } },
        onError: {
          target: 'ready',
          actions: { type: 'storeError', params: ({ event }) => ({ of: 'more', error: event.error }) },
        },
      },
    },
    confirming: {
      on: {
        'restore.confirm': 'restoring',
        'restore.cancel': { target: 'ready', actions: 'forgetRestore' },
      },
    },
    restoring: {
      invoke: {
        id: 'restoreVersion',
        src: 'restoreVersion',
        input: ({ context }) => ({
          holder: context.holder,
          artifactId: context.artifactId,
          number: context.restoring ?? 0,
          updatedAt: context.updatedAt,
        }),
        onDone: {
          target: 'loading',
          actions: [
            { type: 'storeRestored', params: ({ event }) => event.output },
            { type: 'emitChanged', params: ({ event }) => event.output },
          ],
        },
        onError: [
          { guard: 'isConflict', target: 'refreshing' },
          {
            target: 'ready',
            actions: [
              'forgetRestore',
              { type: 'storeError', params: ({ event }) => ({ of: 'restore', error: event.error }) },
            ],
          },
        ],
      },
    },
    // A later version is stored: the artifact is read again, shown, and the history reloaded.
    refreshing: {
      invoke: {
        id: 'getCurrent',
        src: 'getCurrent',
        input: ({ context }) => ({ holder: context.holder, artifactId: context.artifactId }),
        onDone: {
          target: 'loading',
          actions: [
            { type: 'storeChanged', params: ({ event }) => event.output },
            { type: 'emitChanged', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            'forgetRestore',
            { type: 'storeError', params: ({ event }) => ({ of: 'list', error: event.error }) },
          ],
        },
      },
    },
  },
});

export type ArtifactHistoryRef = ActorRefFrom<typeof artifactHistoryMachine>;
export type ArtifactHistorySnapshot = SnapshotFrom<typeof artifactHistoryMachine>;
