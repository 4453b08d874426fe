import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom, InspectionEvent } from 'xstate';
import type { Media } from '../../schemas/media.ts';
import type { UiError } from '../../services/errors.ts';
import { mediaTextMachine, type MediaTextInput } from './mediaTextMachine.ts';

export type MediaTextRef = ActorRefFrom<typeof mediaTextMachine>;

/** The alt text editor of one file, living as long as the calling component (tests may give other logic and an inspector). */
export function useMediaTextActor(
  input: MediaTextInput,
  options: { logic?: typeof mediaTextMachine; inspect?: (event: InspectionEvent) => void } = {},
): MediaTextRef {
  return useActorRef(options.logic ?? mediaTextMachine, {
    input,
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
}

/** The file as last saved, the drafts, and where the editor stands. */
export function useMediaText(ref: MediaTextRef): {
  media: Media;
  alt: string;
  description: string;
  editing: boolean;
  saving: boolean;
  saved: boolean;
  error: UiError | null;
} {
  const media = useSelector(ref, (s) => s.context.media);
  const alt = useSelector(ref, (s) => s.context.alt);
  const description = useSelector(ref, (s) => s.context.description);
  const editing = useSelector(ref, (s) => !s.matches('idle'));
  const saving = useSelector(ref, (s) => s.hasTag('busy'));
  const saved = useSelector(ref, (s) => s.context.saved);
  const error = useSelector(ref, (s) => s.context.error);
  return useMemo(
    () => ({ media, alt, description, editing, saving, saved, error }),
    [media, alt, description, editing, saving, saved, error],
  );
}

/** What the alt text editor may ask. */
export function useMediaTextEvents(ref: MediaTextRef) {
  return useMemo(
    () => ({
      edit: () => ref.send({ type: 'text.edit' }),
      change: (field: 'alt' | 'description', value: string) => ref.send({ type: 'text.change', field, value }),
      save: () => ref.send({ type: 'text.save' }),
      cancel: () => ref.send({ type: 'text.cancel' }),
    }),
    [ref],
  );
}
