import { useMemo } from 'react';
import type { BackupStatus } from '../../schemas/backup.ts';
import type { UiError } from '../../services/errors.ts';
import { useSelector } from '../shared/actorReact.ts';
import type { BackupStatusRef } from './backupStatusMachine.ts';

export type BackupStatusPhase = 'loading' | 'ready' | 'loadFailed';

/** Where the backup status stands: still loading, shown, or not loaded (with why). */
export function useBackupStatus(ref: BackupStatusRef): {
  phase: BackupStatusPhase;
  status: BackupStatus | null;
  error: UiError | null;
} {
  const phase = useSelector(ref, (s): BackupStatusPhase =>
    s.matches('ready') ? 'ready' : s.matches('loadFailed') ? 'loadFailed' : 'loading',
  );
  const status = useSelector(ref, (s) => s.context.status);
  const error = useSelector(ref, (s) => s.context.error);
  return { phase, status, error };
}

/** What the backup status card may ask. */
export function useBackupStatusEvents(ref: BackupStatusRef) {
  return useMemo(() => ({ retry: () => ref.send({ type: 'retry' }) }), [ref]);
}
