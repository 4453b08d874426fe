/**
 * Download my archive (the dashboard, teachers): her archives, asking for a new one, and
 * following its build in the background until it can be downloaded.
 *
 * loading ─(listed)→ ready ─(a job under way)→ watching
 *    └─(failed)→ loadFailed ─(archive.retry)→ loading
 * ready ─(archive.request)→ requesting ─(queued)→ watching
 *                               └─(refused)→ ready (the reason shown)
 * watching ─(polled: still under way)→ watching ─(polled: finished)→ ready (told ready or failed)
 *    └─(poll failed)→ pollFailed ─(archive.retry)→ watching
 *
 * Polling is an actor (wait, then list again), so leaving the dashboard stops it.
 */
import { assign, fromPromise, setup } from 'xstate';
import { isArchiveActive, type ArchiveJob } from '../../schemas/archive.ts';
import { listArchives, pollArchives, requestArchive } from '../../services/archiveService.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export interface TeacherArchiveInput {
  /** How long to wait between two looks at a build under way (ms). */
  pollMs?: number;
}

export interface TeacherArchiveContext {
  /** Her archives as the server last listed them, newest first. */
  archives: ArchiveJob[];
  pollMs: number;
  /** Why the list could not be loaded (or checked again). */
  error: UiError | null;
  /** Why the last request for an archive was refused. */
  requestError: UiError | null;
}

export type TeacherArchiveEvent = { type: 'archive.request' } | { type: 'archive.retry' };

export const ARCHIVE_READY = 'Your archive is ready to download.';
export const ARCHIVE_FAILED = 'Your archive could not be prepared. Please try again.';

/** The job under way, if any. */
export const activeJob = (archives: readonly ArchiveJob[]): ArchiveJob | null => archives.find(isArchiveActive) ?? null;

export const teacherArchiveMachine = setup({
  types: {
    context: {} as TeacherArchiveContext,
    events: {} as TeacherArchiveEvent,
    input: {} as TeacherArchiveInput,
    tags: {} as 'busy',
  },
  actors: {
    listArchives: fromPromise<ArchiveJob[]>(({ signal }) => listArchives(signal)),
    requestArchive: fromPromise<ArchiveJob>(({ signal }) => requestArchive(signal)),
    pollArchives: fromPromise<ArchiveJob[], { ms: number }>(({ input, signal }) => pollArchives(input.ms, signal)),
  },
  guards: {
    hasActiveJob: ({ context }) => activeJob(context.archives) !== null,
    isStillActive: (_, params: { archives: ArchiveJob[] }) => activeJob(params.archives) !== null,
  },
  actions: {
    storeArchives: assign({ archives: (_, params: { archives: ArchiveJob[] }) => params.archives, error: null }),
    storeQueued: assign({
      archives: ({ context }, params: { job: ArchiveJob }) => [
        params.job,
        ...context.archives.filter((a) => a.id !== params.job.id),
      ],
      requestError: null,
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeRequestError: assign({ requestError: (_, params: { error: unknown }) => toUiError(params.error) }),
    clearRequestError: assign({ requestError: null }),
    /** Tells the user something (provided by the app: a toast). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'teacherArchive',
  context: ({ input }) => ({ archives: [], pollMs: input.pollMs ?? 1500, error: null, requestError: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'listArchives',
        src: 'listArchives',
        onDone: {
          target: 'ready',
          actions: { type: 'storeArchives', params: ({ event }) => ({ archives: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: { 'archive.retry': 'loading' },
    },
    ready: {
      always: { guard: 'hasActiveJob', target: 'watching' },
      on: { 'archive.request': 'requesting' },
    },
    requesting: {
      tags: ['busy'],
      entry: 'clearRequestError',
      invoke: {
        id: 'requestArchive',
        src: 'requestArchive',
        onDone: {
          target: 'watching',
          actions: { type: 'storeQueued', params: ({ event }) => ({ job: event.output }) },
        },
        onError: {
          target: 'ready',
          actions: { type: 'storeRequestError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    watching: {
      invoke: {
        id: 'pollArchives',
        src: 'pollArchives',
        input: ({ context }) => ({ ms: context.pollMs }),
        onDone: [
          {
            guard: { type: 'isStillActive', params: ({ event }) => ({ archives: event.output }) },
            target: 'watching',
            reenter: true,
            actions: { type: 'storeArchives', params: ({ event }) => ({ archives: event.output }) },
          },
          {
            target: 'ready',
            actions: [
              { type: 'storeArchives', params: ({ event }) => ({ archives: event.output }) },
              {
                type: 'notify',
                params: ({ event }) =>
                  event.output[0]?.status === 'failed'
                    ? { message: ARCHIVE_FAILED, tone: 'error' }
                    : { message: ARCHIVE_READY, tone: 'success' },
              },
            ],
          },
        ],
        onError: {
          target: 'pollFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    pollFailed: {
      on: { 'archive.retry': 'watching' },
    },
  },
});

export type TeacherArchiveMachine = typeof teacherArchiveMachine;
