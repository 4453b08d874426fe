/** What leaving the artifact edit page would lose. */
import type { ActorRefFrom } from 'xstate';
import type { uploadQueueMachine } from '../upload/uploadQueueMachine.ts';
import type { EditableArtifact } from './artifactSelectors.ts';
import { draftFromResponses, type Draft, type DraftValue } from './draft.ts';

const same = (a: DraftValue | undefined, b: DraftValue | undefined): boolean => {
  const x = a ?? '';
  const y = b ?? '';
  if (Array.isArray(x) || Array.isArray(y)) {
    const xs = Array.isArray(x) ? x : x === '' ? [] : [x];
    const ys = Array.isArray(y) ? y : y === '' ? [] : [y];
    return xs.length === ys.length && xs.every((v) => ys.includes(v));
  }
  return x.trim() === y.trim();
};

/** Whether the form's answers differ from the artifact's as last saved. */
export function draftChanged(artifact: EditableArtifact, draft: Draft): boolean {
  const saved = draftFromResponses(artifact.structure, artifact.responses);
  return [...new Set([...Object.keys(saved), ...Object.keys(draft)])].some((key) => !same(saved[key], draft[key]));
}

/**
 * Whether the artifact was never saved: a new artifact (Create New Artifact) until its first
 * save. Leaving its page removes it, files included. Shared artifacts are always saved.
 */
export function isNeverSaved(artifact: EditableArtifact | null): boolean {
  return artifact !== null && 'saved' in artifact && artifact.saved === false;
}

/**
 * Whether leaving now loses work: answers typed and not saved, files still uploading, or the
 * files of a never-saved artifact (which go with it).
 */
export function hasUnsavedWork(context: {
  artifact: EditableArtifact | null;
  draft: Draft;
  uploads: ActorRefFrom<typeof uploadQueueMachine> | null;
}): boolean {
  const { artifact, draft, uploads } = context;
  if (!artifact) return false;
  if (draftChanged(artifact, draft)) return true;
  const queue = uploads?.getSnapshot().context;
  if (!queue) return false;
  if (queue.rows.some((row) => row.status === 'waiting' || row.status === 'active')) return true;
  return (
    isNeverSaved(artifact) && queue.media.images.length + queue.media.videos.length + queue.media.documents.length > 0
  );
}

/** Whether reloading or closing the tab now would lose work (the browser then asks). */
export function artifactEditHasUnsavedChanges(snapshot: {
  matches: (state: { ready: 'editing' | 'confirmingLeave' }) => boolean;
  context: Parameters<typeof hasUnsavedWork>[0];
}): boolean {
  return (
    (snapshot.matches({ ready: 'editing' }) || snapshot.matches({ ready: 'confirmingLeave' })) &&
    hasUnsavedWork(snapshot.context)
  );
}
