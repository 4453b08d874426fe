import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { createContext, useContext, useEffect, useMemo } from 'react';
import type { ActorRefFrom, InspectionEvent } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { ArtifactKind } from '../artifactLifecycle/artifactSelectors.ts';
import type { artifactDeleteMachine, ArtifactDeleteInput, DeletedArtifact } from './artifactDeleteMachine.ts';

export type ArtifactDeleteRef = ActorRefFrom<typeof artifactDeleteMachine>;

/** The delete logic with the app's navigation and messages (`provideArtifactDelete` in the app). */
export interface ArtifactDeleteSetup {
  logic: typeof artifactDeleteMachine;
  /** Which artifacts the buttons below delete (personal unless told). */
  kind?: ArtifactKind;
  /** An inspector for every actor made from it (tests). */
  inspect?: (event: InspectionEvent) => void;
}

/** Supplies the delete logic to artifact views and edit pages below it. */
export const ArtifactDeleteContext = createContext<ArtifactDeleteSetup | null>(null);

/**
 * One delete actor for one artifact, living as long as the calling component; `onDeleted` hears
 * about a finished deletion. The kind of artifact comes from the provider above (`A` names what
 * its deletions return: `Artifact` under the personal one, `SharedArtifact` under the shared one).
 */
export function useArtifactDeleteActor<A extends DeletedArtifact = Artifact>(
  input: Omit<ArtifactDeleteInput, 'kind'>,
  onDeleted?: (artifact: A) => void,
): ArtifactDeleteRef {
  const setup = useContext(ArtifactDeleteContext);
  if (!setup)
    throw new Error('Artifact actions need ArtifactActionsProvider (the app wiring of artifacts) above them.');
  const ref = useActorRef(setup.logic, {
    input: { ...input, kind: setup.kind ?? 'personal' },
    ...(setup.inspect ? { inspect: setup.inspect } : {}),
  });
  useEffect(() => {
    if (!onDeleted) return undefined;
    const subscription = ref.on('artifact.deleted', (event) => onDeleted(event.artifact as A));
    return () => subscription.unsubscribe();
  }, [ref, onDeleted]);
  return ref;
}

/** Where a deletion stands. */
export function useArtifactDeleteState(ref: ArtifactDeleteRef): { confirming: boolean; busy: boolean; name: string } {
  const confirming = useSelector(
    ref,
    (s) => s.matches('confirming') || s.matches('deleting') || s.matches('deletingShared'),
  );
  const busy = useSelector(ref, (s) => s.hasTag('busy'));
  const name = useSelector(ref, (s) => s.context.name);
  return { confirming, busy, name };
}

/** What a Delete Artifact button may ask. */
export function useArtifactDeleteEvents(ref: ArtifactDeleteRef) {
  return useMemo(
    () => ({
      ask: () => ref.send({ type: 'artifact.delete' }),
      confirm: () => ref.send({ type: 'artifact.confirmDelete' }),
      cancel: () => ref.send({ type: 'artifact.cancelDelete' }),
    }),
    [ref],
  );
}
