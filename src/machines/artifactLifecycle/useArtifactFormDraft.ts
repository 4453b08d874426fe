import { useCallback, useState } from 'react';
import { useLocalDraft, type DraftOffer } from '../localDraft/useLocalDraft.ts';
import type { EditableArtifact } from './artifactSelectors.ts';
import { draftFromResponses, type Draft } from './draft.ts';
import { draftChanged } from './unsaved.ts';
import { useArtifactEditEvents, useArtifactKind, useDraft } from './useArtifactLifecycle.ts';

/** The answers as a local draft keeps them. */
export const artifactDraftText = (draft: Draft): string => JSON.stringify(draft);

/** The answers of a kept draft (only text or lists of text); `null` for anything else. */
export function parseArtifactDraft(text: string): Draft | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const draft: Draft = {};
    for (const [key, answer] of Object.entries(value)) {
      if (typeof answer === 'string' || (Array.isArray(answer) && answer.every((v) => typeof v === 'string')))
        draft[key] = answer as string | string[];
    }
    return draft;
  } catch {
    return null;
  }
}

/**
 * The local draft of the artifact form's answers (a personal or a shared artifact, new or not):
 * kept as they are typed, offered back when the form opens again after a crash or a reload,
 * forgotten once saved, cancelled or left without saving. Restoring puts each answer back.
 */
export function useArtifactFormDraft(artifact: EditableArtifact): DraftOffer | null {
  const kind = useArtifactKind();
  const draft = useDraft();
  const { change } = useArtifactEditEvents();
  // The answers as the form opened; a form showing them again (or once they are saved) holds nothing unsaved.
  const [opened] = useState(() => artifactDraftText(draftFromResponses(artifact.structure, artifact.responses)));
  const text = draftChanged(artifact, draft) ? artifactDraftText(draft) : opened;
  const apply = useCallback(
    (restored: string) => {
      for (const [key, value] of Object.entries(parseArtifactDraft(restored) ?? {})) change(key, value);
    },
    [change],
  );
  return useLocalDraft({
    form: `${kind === 'shared' ? 'shared-artifact' : 'artifact'}:${artifact.id}`,
    text,
    current: opened,
    base: artifact.updated_at,
    apply,
  });
}
