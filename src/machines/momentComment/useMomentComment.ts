import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { createContext, use, useContext, useEffect, useMemo } from 'react';
import type { ActorRefFrom, InspectionEvent } from 'xstate';
import type { CaptionTrack } from '../../schemas/moments.ts';
import type { Comment } from '../../schemas/sharedArtifact.ts';
import type { UiError } from '../../services/errors.ts';
import type { artifactNotesMachine } from '../artifactNotes/artifactNotesMachine.ts';
import type { captionEditorMachine } from '../captionEditor/captionEditorMachine.ts';
import type { videoPlayerMachine } from '../videoPlayer/videoPlayerMachine.ts';
import type {
  MomentCommentInput,
  momentCommentMachine,
  MomentPostedEmitted,
  ThreadFilter,
  ThreadSort,
} from './momentCommentMachine.ts';

/** The logic of video moments (players, the moment composer, the caption editor) with the app's messages. */
export interface MomentsSetup {
  player: typeof videoPlayerMachine;
  composer: typeof momentCommentMachine;
  captions: typeof captionEditorMachine;
  /** The owner's private notes of an artifact. */
  notes: typeof artifactNotesMachine;
  /** The address of a caption track's WebVTT file (`download`: as an attachment). */
  captionUrl: (track: Pick<CaptionTrack, 'url'>, download?: boolean) => string;
  /** The address of the export of a shared artifact video's comments at moments. */
  momentsExportUrl: (sharedArtifactId: number, mediaId: number, format: 'csv' | 'vtt') => string;
  /** An inspector for every actor made from them (tests). */
  inspect?: (event: InspectionEvent) => void;
}

/**
 * The video moments logic as the app supplies it: at once, or as its loader (the logic in a bundle
 * chunk of its own, loaded on first use): the logic once loaded, the same promise of it until then.
 */
export type MomentsSource = MomentsSetup | (() => MomentsSetup | Promise<MomentsSetup>);

/** Supplies the video moments logic to the artifact views below it. */
export const MomentsContext = createContext<MomentsSource | null>(null);

/** Whether the video moments logic is supplied here (views that may appear without it check first). */
export const useMomentsAvailable = (): boolean => useContext(MomentsContext) !== null;

/**
 * Starts loading the video moments logic where the app supplies it as a loader, so that it loads
 * beside the views that need it rather than after them.
 */
export function usePreloadMoments(when: boolean): void {
  const source = useContext(MomentsContext);
  if (!when || typeof source !== 'function') return;
  const loaded = source();
  // A failure shows where the logic is used (`useMomentsSetup`), which loads it again.
  if (loaded instanceof Promise) loaded.catch(() => undefined);
}

/** The video moments logic (throws without the app's wiring above; suspends while a loader loads it). */
export function useMomentsSetup(): MomentsSetup {
  const source = useContext(MomentsContext);
  if (!source) throw new Error('Video moments need MomentsContext (the app wiring of artifact pages) above them.');
  if (typeof source !== 'function') return source;
  const loaded = source();
  return loaded instanceof Promise ? use(loaded) : loaded;
}

export type MomentCommentRef = ActorRefFrom<typeof momentCommentMachine>;

/** The moment composer of one artifact, living as long as the calling component; `onPosted` hears of each save (with its answer). */
export function useMomentCommentActor(
  input: MomentCommentInput,
  onPosted?: (posted: MomentPostedEmitted) => void,
): MomentCommentRef {
  const { composer, inspect } = useMomentsSetup();
  const ref = useActorRef(composer, { input, ...(inspect ? { inspect } : {}) });
  useEffect(() => {
    if (!onPosted) return undefined;
    const subscription = ref.on('moment.posted', (event) => onPosted(event));
    return () => subscription.unsubscribe();
  }, [ref, onPosted]);
  return ref;
}

/** The moment being written (`null`: none), its text, and whether it is being sent. */
/** Names the draft of a moment comment or note: per artifact and video (`moment:<target>:<artifact>:<video>`). */
export const useMomentDraftForm = (ref: MomentCommentRef): string =>
  useSelector(ref, (s) => `moment:${s.context.target}:${s.context.artifactId}:${s.context.anchor?.media ?? 'none'}`);

export function useMomentDraft(ref: MomentCommentRef): {
  anchor: { media: number; start: number; end: number | null } | null;
  text: string;
  busy: boolean;
  canSubmit: boolean;
  canReact: boolean;
  error: UiError | null;
} {
  const anchor = useSelector(ref, (s) => s.context.anchor);
  const text = useSelector(ref, (s) => s.context.text);
  const busy = useSelector(ref, (s) => s.hasTag('busy'));
  const canSubmit = useSelector(ref, (s) => s.can({ type: 'moment.submit' }));
  const canReact = useSelector(ref, (s) => s.context.target === 'comment');
  const error = useSelector(ref, (s) => s.context.error);
  return useMemo(
    () => ({ anchor, text, busy, canSubmit, canReact, error }),
    [anchor, text, busy, canSubmit, canReact, error],
  );
}

/** The thread's filter and order. */
export function useThreadView(ref: MomentCommentRef): { filter: ThreadFilter; sort: ThreadSort } {
  const filter = useSelector(ref, (s) => s.context.filter);
  const sort = useSelector(ref, (s) => s.context.sort);
  return useMemo(() => ({ filter, sort }), [filter, sort]);
}

/** The comments a filter keeps, in the order asked (by time: by video, then start; the rest after, as posted). */
export function viewComments(comments: readonly Comment[], filter: ThreadFilter, sort: ThreadSort): readonly Comment[] {
  const kept =
    filter.kind === 'all'
      ? comments
      : comments.filter((c) => c.moment !== null && (filter.kind === 'moments' || c.moment.media === filter.media));
  if (sort === 'posted') return kept;
  const timed = kept
    .filter((c) => c.moment !== null)
    .sort((a, b) => a.moment!.media - b.moment!.media || a.moment!.start - b.moment!.start || a.id - b.id);
  return [...timed, ...kept.filter((c) => c.moment === null)];
}

/** What the composer and the thread's filter may ask. */
export function useMomentCommentEvents(ref: MomentCommentRef) {
  return useMemo(
    () => ({
      start: (media: number, time: number) => ref.send({ type: 'moment.start', media, time }),
      setEnd: (time: number) => ref.send({ type: 'moment.setEnd', time }),
      clearEnd: () => ref.send({ type: 'moment.clearEnd' }),
      changeText: (text: string) => ref.send({ type: 'draft.change', text }),
      submit: () => ref.send({ type: 'moment.submit' }),
      react: (value: string) => ref.send({ type: 'moment.react', value }),
      cancel: () => ref.send({ type: 'moment.cancel' }),
      filter: (filter: ThreadFilter) => ref.send({ type: 'thread.filter', filter }),
      sort: (sort: ThreadSort) => ref.send({ type: 'thread.sort', sort }),
      highlight: (commentId: number) => ref.send({ type: 'thread.highlight', commentId }),
    }),
    [ref],
  );
}
