import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CaptionTrack, CaptionTrackSummary } from '../../schemas/moments.ts';
import type { UiError } from '../../services/errors.ts';
import { useLocalDraft, type DraftOffer } from '../localDraft/useLocalDraft.ts';
import { useMomentsSetup } from '../momentComment/useMomentComment.ts';
import {
  captionsChanged,
  fingerprint,
  type CaptionEditorInput,
  type captionEditorMachine,
} from './captionEditorMachine.ts';
import { cueProblems, parseCaptionsDraft, type CueDraft, type CueProblem } from './cues.ts';

export type CaptionEditorRef = ActorRefFrom<typeof captionEditorMachine>;

/** The caption editor of one track; `onSaved` hears the saved track, `onClosed` a discard. */
export function useCaptionEditorActor(
  input: CaptionEditorInput,
  onSaved: (track: CaptionTrack) => void,
  onClosed: () => void,
): CaptionEditorRef {
  const { captions, inspect } = useMomentsSetup();
  const ref = useActorRef(captions, { input, ...(inspect ? { inspect } : {}) });
  useEffect(() => {
    const saved = ref.on('captions.saved', (event) => onSaved(event.track));
    const closed = ref.on('captions.closed', () => onClosed());
    return () => {
      saved.unsubscribe();
      closed.unsubscribe();
    };
  }, [ref, onSaved, onClosed]);
  return ref;
}

const NONE: readonly CueProblem[] = [];

/** The track as edited, its problems (once a save was asked for), and where the editor stands. */
export function useCaptionEditor(ref: CaptionEditorRef): {
  label: string;
  language: string;
  cues: readonly CueDraft[];
  problems: readonly CueProblem[];
  saving: boolean;
  confirming: boolean;
  /** Where loading the track's cues stands. */
  load: 'loading' | 'failed' | 'loaded';
  error: UiError | null;
} {
  const label = useSelector(ref, (s) => s.context.label);
  const language = useSelector(ref, (s) => s.context.language);
  const cues = useSelector(ref, (s) => s.context.cues);
  const show = useSelector(ref, (s) => s.context.showProblems);
  const duration = useSelector(ref, (s) => s.context.duration);
  const saving = useSelector(ref, (s) => s.hasTag('busy'));
  const confirming = useSelector(ref, (s) => s.matches('confirmingDiscard'));
  const error = useSelector(ref, (s) => s.context.error);
  const load = useSelector(ref, (s) => (s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'loaded'));
  const problems = useMemo(
    () => (show ? cueProblems({ label, language, cues }, duration) : NONE),
    [show, label, language, cues, duration],
  );
  return { label, language, cues, problems, saving, confirming, load, error };
}

/** What the caption editor may ask. */
export function useCaptionEditorEvents(ref: CaptionEditorRef) {
  return useMemo(
    () => ({
      changeCue: (index: number, field: 'start' | 'end' | 'text', value: string) =>
        ref.send({ type: 'cue.change', index, field, value }),
      addCue: () => ref.send({ type: 'cue.add' }),
      removeCue: (index: number) => ref.send({ type: 'cue.remove', index }),
      changeTrack: (field: 'label' | 'language', value: string) => ref.send({ type: 'track.change', field, value }),
      retry: () => ref.send({ type: 'retry' }),
      save: () => ref.send({ type: 'editor.save' }),
      discard: () => ref.send({ type: 'editor.discard' }),
      confirmDiscard: () => ref.send({ type: 'discard.confirm' }),
      cancelDiscard: () => ref.send({ type: 'discard.cancel' }),
    }),
    [ref],
  );
}

/** Whether the track as edited has changes that are not saved. */
export const useCaptionsChanged = (ref: CaptionEditorRef): boolean => useSelector(ref, captionsChanged);

/**
 * The local draft of a track being edited (call once its cues are loaded): kept as it is typed,
 * offered back when the editor opens again after a crash or a reload, forgotten once saved or
 * discarded. Restoring puts the label, the language and every cue back.
 */
export function useCaptionsDraft(ref: CaptionEditorRef, track: CaptionTrackSummary): DraftOffer | null {
  const text = useSelector(ref, (s) => fingerprint(s.context));
  const [current] = useState(() => ref.getSnapshot().context.original);
  const apply = useCallback(
    (restored: string) => {
      const draft = parseCaptionsDraft(restored);
      if (draft) ref.send({ type: 'track.restore', track: draft });
    },
    [ref],
  );
  return useLocalDraft({ form: `captions:${track.id}`, text, current, base: track.updated_at, apply });
}
