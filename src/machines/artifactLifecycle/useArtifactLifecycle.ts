import { createActorContext, useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { UiError } from '../../services/errors.ts';
import type { SharedArtifactSaveRef } from '../sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { UploadQueueRef } from '../upload/uploadQueueMachine.ts';
import type { ArtifactSaveRef } from './artifactSaveMachine.ts';
import { artifactLifecycleMachine, type SaveIntent } from './artifactLifecycleMachine.ts';
import type { ArtifactKind, EditableArtifact } from './artifactSelectors.ts';
import type { Draft, DraftValue } from './draft.ts';

/** The edit page's actor; the app provides its logic and `{kind, portfolioId, artifactId, readOnly}` as input. */
export const ArtifactLifecycleActorContext = createActorContext(artifactLifecycleMachine);

export type ArtifactEditStatus =
  'denied' | 'notFound' | 'loading' | 'loadFailed' | 'editing' | 'saving' | 'saved' | 'deleted' | 'leaving';

/** Where the edit page stands. */
export function useArtifactEditStatus(): ArtifactEditStatus {
  return ArtifactLifecycleActorContext.useSelector((s): ArtifactEditStatus => {
    if (s.matches('denied')) return 'denied';
    if (s.matches('notFound')) return 'notFound';
    if (s.matches('loadFailed')) return 'loadFailed';
    if (s.matches({ ready: 'saving' })) return 'saving';
    if (s.matches({ ready: 'saved' }) || s.matches({ ready: 'left' })) return 'saved';
    if (s.matches({ ready: 'deleted' })) return 'deleted';
    if (s.matches({ ready: 'discarding' }) || s.matches({ ready: 'leaving' })) return 'leaving';
    if (s.matches('ready')) return 'editing';
    return 'loading';
  });
}

/** Whether the page edits a personal or a shared artifact. */
export function useArtifactKind(): ArtifactKind {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.kind);
}

/** The artifact as the server last described it (after loading). */
export function useEditedArtifact(): EditableArtifact | null {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.artifact);
}

/** The save of a shared artifact while it runs (its Edit Conflict question). */
export function useSharedSaveRef(): SharedArtifactSaveRef | undefined {
  // Children are typed as a union of every actor a machine may start; these ids are the saves'.
  const save = ArtifactLifecycleActorContext.useSelector((s) => s.children.artifactSave as ArtifactSaveRef | undefined);
  return useSelector(save, (s) => s?.children.sharedArtifactSave as SharedArtifactSaveRef | undefined);
}

/** The form's answers. */
export function useDraft(): Draft {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.draft);
}

/** One answer of the form (a field re-renders only when its own answer changes). */
export function useDraftValue(key: string): DraftValue | undefined {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.draft[key]);
}

/** The first problem of one question. */
export function useFieldIssue(key: string): string | undefined {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.issues[key]);
}

/** Whether the form has problems (the summary at the top). */
export function useHasIssues(): boolean {
  return ArtifactLifecycleActorContext.useSelector((s) => Object.keys(s.context.issues).length > 0);
}

/** Why the page shows no artifact (404). */
export function useNotFoundMessage(): string | null {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.notFoundMessage);
}

/** Why the artifact could not be loaded. */
export function useLoadError(): UiError | null {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.error);
}

/** The button that saved last (to show which one is busy). */
export function useSaveIntent(): SaveIntent | null {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.intent);
}

/** Whether the page asks 'Leave this page? Your changes are not saved.' */
export function useAskingToLeave(): boolean {
  return ArtifactLifecycleActorContext.useSelector((s) => s.matches({ ready: 'confirmingLeave' }));
}

/** Whether the form is locked (saving, saved, leaving). */
export function useFormBusy(): boolean {
  return ArtifactLifecycleActorContext.useSelector((s) => s.hasTag('busy'));
}

/** The uploads area's actor, once the artifact is loaded. */
export function useUploadQueueRef(): UploadQueueRef | null {
  return ArtifactLifecycleActorContext.useSelector((s) => s.context.uploads);
}

/** What the edit page may ask. */
export function useArtifactEditEvents() {
  const actor = ArtifactLifecycleActorContext.useActorRef();
  return useMemo(
    () => ({
      change: (key: string, value: DraftValue) => actor.send({ type: 'field.change', key, value }),
      saveToLot: () => actor.send({ type: 'artifact.saveToLot' }),
      submit: () => actor.send({ type: 'artifact.submit' }),
      save: () => actor.send({ type: 'artifact.save' }),
      deleted: () => actor.send({ type: 'artifact.deleted' }),
      cancel: () => actor.send({ type: 'artifact.cancel' }),
      stay: () => actor.send({ type: 'leave.stay' }),
      leave: () => actor.send({ type: 'leave.confirm' }),
      retry: () => actor.send({ type: 'retry' }),
    }),
    [actor],
  );
}
