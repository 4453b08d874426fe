import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { Note } from '../../schemas/moments.ts';
import type { UiError } from '../../services/errors.ts';
import { useMomentsSetup } from '../momentComment/useMomentComment.ts';
import type { artifactNotesMachine } from './artifactNotesMachine.ts';

export type ArtifactNotesRef = ActorRefFrom<typeof artifactNotesMachine>;

/** The private notes of one artifact, living as long as the calling component. */
export function useArtifactNotesActor(artifactId: number): ArtifactNotesRef {
  const { notes, inspect } = useMomentsSetup();
  return useActorRef(notes, { input: { artifactId }, ...(inspect ? { inspect } : {}) });
}

export type NotesStatus = 'loading' | 'failed' | 'ready' | 'deleting';

/** The notes, where loading or deleting stands, and the last failure. */
export function useArtifactNotes(ref: ArtifactNotesRef): {
  status: NotesStatus;
  notes: readonly Note[];
  deletingId: number | null;
  error: UiError | null;
} {
  const status = useSelector(ref, (s) => s.value as NotesStatus);
  const notes = useSelector(ref, (s) => s.context.notes);
  const deletingId = useSelector(ref, (s) => s.context.deletingId);
  const error = useSelector(ref, (s) => s.context.error);
  return useMemo(() => ({ status, notes, deletingId, error }), [status, notes, deletingId, error]);
}

/** What the notes list may ask. */
export function useArtifactNotesEvents(ref: ArtifactNotesRef) {
  return useMemo(
    () => ({
      refresh: () => ref.send({ type: 'notes.refresh' }),
      remove: (noteId: number) => ref.send({ type: 'note.delete', noteId }),
      retry: () => ref.send({ type: 'retry' }),
    }),
    [ref],
  );
}
