/**
 * Research export (researchers): the package's filters, its download, and the audit log.
 *
 * starting ─(researchExport ability)→ loading ─(teachers, shared portfolios, log)→ form.idle
 *    │                        └─(failed)→ loadFailed ─(retry)→ loading
 *    └─(anyone else)→ denied
 *
 * form.idle ─(export.request, valid)→ form.refreshingLog (the download starts; the log is read
 * again, the new entry in it) ─(log)→ form.idle;  ─(export.request, invalid)→ the problems shown.
 * form.idle ─(log.refresh)→ form.refreshingLog. Filters change in either form state.
 * While the log holds an export that is still running (started in the last ten minutes: one left
 * running by a stopped server is not waited for), the log follows it: form.refreshingLog ─(log with
 * a running export)→ form.following, which reads it again every two seconds until none runs
 * ─(log)→ form.idle; a Refresh meanwhile reads it at once.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ResearchExportRecord } from '../../schemas/researchExport.ts';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { ROLE_IDS, type Me, type User } from '../../schemas/user.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { listResearchExports, researchExportUrl } from '../../services/researchService.ts';
import { listSharedPortfolios } from '../../services/sharedService.ts';
import { listUsers } from '../../services/userService.ts';
import { effect } from '../shared/effect.ts';
import { teacherOptions, type TeacherOption } from '../teacherPicker/selectors.ts';
import { EMPTY_DRAFT, filtersOf, problemsOf, type ExportDraft, type ExportField } from './selectors.ts';

export interface ResearchExportInput {
  /** The signed-in user (`null` when nobody is). */
  currentUser: Pick<Me, 'id' | 'abilities'> | null;
}

/** What the page lists to choose from, and the log. */
export interface ExportOptions {
  teachers: User[];
  sharedPortfolios: Pick<SharedPortfolioListItem, 'id' | 'name'>[];
  exports: ResearchExportRecord[];
}

/** A shared portfolio as the filter lists it. */
export interface SharedPortfolioOption {
  id: number;
  name: string;
}

export interface ResearchExportContext {
  /** The server's `researchExport` ability of the signed-in user. */
  researchExport: boolean;
  teachers: TeacherOption[];
  sharedPortfolios: SharedPortfolioOption[];
  exports: ResearchExportRecord[];
  draft: ExportDraft;
  /** Problems of the draft, shown after a refused download. */
  problems: Partial<Record<ExportField, string>>;
  /** Downloads started on this page. */
  downloads: number;
  error: UiError | null;
  /** Why the log could not be read again (the rest of the page stays). */
  logError: UiError | null;
}

export type ResearchExportEvent =
  | { type: 'retry' }
  | { type: 'filters.change'; patch: Partial<ExportDraft> }
  | { type: 'export.request' }
  | { type: 'log.refresh' };

/** How long the log waits after a download starts before reading again (the server records the export as it begins). */
export const LOG_REFRESH_DELAY_MS = 1200;
/** How often the log is read again while an export in it is still running. */
export const LOG_FOLLOW_INTERVAL_MS = 2000;
/** A running export older than this is not followed (its server may have stopped while it ran). */
export const LOG_FOLLOW_WINDOW_MS = 10 * 60_000;

/** Whether the log holds an export that is still being written, recently started. */
export function followsRunning(exports: readonly ResearchExportRecord[], now: number = Date.now()): boolean {
  return exports.some((e) => e.status === 'running' && now - Date.parse(e.started_at) < LOG_FOLLOW_WINDOW_MS);
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export const researchExportMachine = setup({
  types: {
    context: {} as ResearchExportContext,
    events: {} as ResearchExportEvent,
    input: {} as ResearchExportInput,
  },
  actors: {
    loadOptions: fromPromise<ExportOptions>(async ({ signal }) => {
      const [teachers, sharedPortfolios, exports] = await Promise.all([
        listUsers({ role_ne: ROLE_IDS.researcher }, signal),
        listSharedPortfolios(signal),
        listResearchExports(signal),
      ]);
      return { teachers, sharedPortfolios, exports };
    }),
    refreshLog: fromPromise<ResearchExportRecord[], { delayMs: number }>(async ({ input, signal }) => {
      await wait(input.delayMs, signal);
      return listResearchExports(signal);
    }),
  },
  guards: {
    canExport: ({ context }) => context.researchExport,
    isDraftValid: ({ context }) => Object.keys(problemsOf(context.draft)).length === 0,
    hasRunningExport: (_, params: { exports: ResearchExportRecord[] }) => followsRunning(params.exports),
  },
  actions: {
    storeOptions: assign((_, params: { options: ExportOptions }) => ({
      teachers: teacherOptions(params.options.teachers),
      sharedPortfolios: [...params.options.sharedPortfolios]
        .map((sp) => ({ id: sp.id, name: sp.name }))
        .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }) || a.id - b.id),
      exports: params.options.exports,
      error: null,
    })),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    changeDraft: assign(({ context }, params: { patch: Partial<ExportDraft> }) => {
      const draft = { ...context.draft, ...params.patch };
      // Naming people again needs the confirmation again.
      if (params.patch.identities === 'pseudonymous') draft.consentConfirmed = false;
      return { draft, problems: {} };
    }),
    storeProblems: assign({ problems: ({ context }) => problemsOf(context.draft) }),
    countDownload: assign({ downloads: ({ context }) => context.downloads + 1, problems: {} }),
    storeLog: assign((_, params: { exports: ResearchExportRecord[] }) => ({ exports: params.exports, logError: null })),
    storeLogError: assign({ logError: (_, params: { error: unknown }) => toUiError(params.error) }),
    /** Starts the browser's download of the package (provided by the app). */
    startDownload: effect<{ url: string }>('startDownload'),
  },
}).createMachine({
  id: 'researchExport',
  context: ({ input }) => ({
    researchExport: input.currentUser?.abilities.researchExport ?? false,
    teachers: [],
    sharedPortfolios: [],
    exports: [],
    draft: EMPTY_DRAFT,
    problems: {},
    downloads: 0,
    error: null,
    logError: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'canExport', target: 'loading' }, { target: 'denied' }],
    },
    denied: {},
    loading: {
      invoke: {
        id: 'loadOptions',
        src: 'loadOptions',
        onDone: {
          target: 'form',
          actions: { type: 'storeOptions', params: ({ event }) => ({ options: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    form: {
      initial: 'idle',
      on: {
        'filters.change': { actions: { type: 'changeDraft', params: ({ event }) => ({ patch: event.patch }) } },
        'export.request': [
          {
            guard: 'isDraftValid',
            target: '.refreshingLog',
            reenter: true,
            actions: [
              'countDownload',
              {
                type: 'startDownload',
                params: ({ context }) => ({ url: researchExportUrl(filtersOf(context.draft)) }),
              },
            ],
          },
          { actions: 'storeProblems' },
        ],
      },
      states: {
        idle: {
          on: { 'log.refresh': 'refreshingLog' },
        },
        refreshingLog: {
          invoke: {
            id: 'refreshLog',
            src: 'refreshLog',
            input: ({ event }) => ({ delayMs: event.type === 'export.request' ? LOG_REFRESH_DELAY_MS : 0 }),
            onDone: [
              {
                guard: { type: 'hasRunningExport', params: ({ event }) => ({ exports: event.output }) },
                target: 'following',
                actions: { type: 'storeLog', params: ({ event }) => ({ exports: event.output }) },
              },
              {
                target: 'idle',
                actions: { type: 'storeLog', params: ({ event }) => ({ exports: event.output }) },
              },
            ],
            onError: {
              target: 'idle',
              actions: { type: 'storeLogError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        following: {
          on: { 'log.refresh': 'refreshingLog' },
          invoke: {
            id: 'followLog',
            src: 'refreshLog',
            input: () => ({ delayMs: LOG_FOLLOW_INTERVAL_MS }),
            onDone: [
              {
                guard: { type: 'hasRunningExport', params: ({ event }) => ({ exports: event.output }) },
                target: 'following',
                reenter: true,
                actions: { type: 'storeLog', params: ({ event }) => ({ exports: event.output }) },
              },
              {
                target: 'idle',
                actions: { type: 'storeLog', params: ({ event }) => ({ exports: event.output }) },
              },
            ],
            onError: {
              target: 'idle',
              actions: { type: 'storeLogError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});

export type ResearchExportMachine = typeof researchExportMachine;
