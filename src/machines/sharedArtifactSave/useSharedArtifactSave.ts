import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { PendingMerge, SharedArtifactSaveRef } from './sharedArtifactSaveMachine.ts';
import { everyConflictChosen, type FieldChoice } from './threeWayMerge.ts';

/** The conflict dialog's content while a merge waits for choices; `null` otherwise. */
export interface MergeConflict {
  merge: PendingMerge;
  choices: Readonly<Record<string, FieldChoice>>;
  /** Every conflicting field has its choice: the merged answers can be saved. */
  complete: boolean;
}

/** The merge waiting in the conflict dialog, with the choices made so far. */
export function useMergeConflict(ref: SharedArtifactSaveRef | undefined): MergeConflict | null {
  const merge = useSelector(ref, (s) => (s?.matches('resolving') ? s.context.merge : null));
  const choices = useSelector(ref, (s) => s?.context.choices ?? null);
  return useMemo(
    () => (merge && choices ? { merge, choices, complete: everyConflictChosen(merge.result, choices) } : null),
    [merge, choices],
  );
}

/** What the conflict dialog may answer. */
export function useMergeEvents(ref: SharedArtifactSaveRef | undefined) {
  return useMemo(
    () => ({
      choose: (key: string, choice: FieldChoice) => ref?.send({ type: 'merge.choose', key, choice }),
      save: () => ref?.send({ type: 'merge.save' }),
      cancel: () => ref?.send({ type: 'merge.cancel' }),
    }),
    [ref],
  );
}
