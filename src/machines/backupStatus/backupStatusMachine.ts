/**
 * The scheduled backups' status on Manage Users (researchers): loaded once, beside the users
 * table and independently of it.
 *
 * loading ─(status)→ ready
 *    └─(failed)→ loadFailed ─(retry)→ loading
 *
 * Started by the page's machine for those who may manage users; a failure stays in this card.
 */
import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { BackupStatus } from '../../schemas/backup.ts';
import { fetchBackupStatus } from '../../services/backupService.ts';
import { toUiError, type UiError } from '../../services/errors.ts';

export interface BackupStatusContext {
  /** The status as the server last described it. */
  status: BackupStatus | null;
  error: UiError | null;
}

export type BackupStatusEvent = { type: 'retry' };

export const backupStatusMachine = setup({
  types: {
    context: {} as BackupStatusContext,
    events: {} as BackupStatusEvent,
  },
  actors: {
    fetchBackupStatus: fromPromise<BackupStatus>(({ signal }) => fetchBackupStatus(signal)),
  },
  actions: {
    storeStatus: assign({ status: (_, params: { status: BackupStatus }) => params.status, error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
  },
}).createMachine({
  id: 'backupStatus',
  context: { status: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchBackupStatus',
        src: 'fetchBackupStatus',
        onDone: {
          target: 'ready',
          actions: { type: 'storeStatus', params: ({ event }) => ({ status: event.output }) },
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
    ready: {},
  },
});

export type BackupStatusRef = ActorRefFrom<typeof backupStatusMachine>;
