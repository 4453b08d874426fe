import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { SharedArtifactSaveRef } from './sharedArtifactSaveMachine.ts';

/** The Edit Conflict question while it is asked: the server's message; `null` otherwise. */
export function useOverwriteQuestion(ref: SharedArtifactSaveRef | undefined): string | null {
  return useSelector(ref, (s) => (s?.matches('confirming') ? (s.context.conflictMessage ?? '') : null));
}

/** What the Edit Conflict dialog may answer. */
export function useOverwriteEvents(ref: SharedArtifactSaveRef | undefined) {
  return useMemo(
    () => ({
      confirm: () => ref?.send({ type: 'overwrite.confirm' }),
      cancel: () => ref?.send({ type: 'overwrite.cancel' }),
    }),
    [ref],
  );
}
