import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ConflictingSave, SharedArtifactSaveRef } from './sharedArtifactSaveMachine.ts';

/** What the Edit Conflict question says: the save in between when known, else the server's message. */
export interface OverwriteQuestion {
  message: string;
  save: ConflictingSave | null;
}

/** The Edit Conflict question while it is asked; `null` otherwise. */
export function useOverwriteQuestion(ref: SharedArtifactSaveRef | undefined): OverwriteQuestion | null {
  const message = useSelector(ref, (s) => (s?.matches('confirming') ? (s.context.conflictMessage ?? '') : null));
  const save = useSelector(ref, (s) => s?.context.conflictSave ?? null);
  return useMemo(() => (message === null ? null : { message, save }), [message, save]);
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
