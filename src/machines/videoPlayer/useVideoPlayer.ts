import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CaptionTrack, CaptionTrackSummary } from '../../schemas/moments.ts';
import type { UiError } from '../../services/errors.ts';
import { useMomentsSetup } from '../momentComment/useMomentComment.ts';
import type { CaptionFile, PlayerCommand, VideoPlayerInput, videoPlayerMachine } from './videoPlayerMachine.ts';

export type VideoPlayerRef = ActorRefFrom<typeof videoPlayerMachine>;

/** The player of one video, living as long as the calling component. */
export function useVideoPlayerActor(input: VideoPlayerInput): VideoPlayerRef {
  const { player, inspect } = useMomentsSetup();
  return useActorRef(player, { input, ...(inspect ? { inspect } : {}) });
}

/** What the view must do to the element next. */
export const usePlayerCommand = (ref: VideoPlayerRef): PlayerCommand | null =>
  useSelector(ref, (s) => s.context.command);

/** The element's time (seconds) and the video's length, when known. */
export function usePlayerTime(ref: VideoPlayerRef): { time: number; duration: number | null } {
  const time = useSelector(ref, (s) => s.context.time);
  const duration = useSelector(ref, (s) => s.context.duration);
  return useMemo(() => ({ time, duration }), [time, duration]);
}

/** Whether the video is playing. */
export const usePlaying = (ref: VideoPlayerRef): boolean => useSelector(ref, (s) => s.matches({ playback: 'playing' }));

export type CaptionsStatus = 'loading' | 'failed' | 'ready' | 'uploading' | 'editing';

/** The caption tracks, the one shown, and where loading, uploading or editing stands. */
export function useCaptions(ref: VideoPlayerRef): {
  status: CaptionsStatus;
  tracks: readonly CaptionTrackSummary[];
  trackId: number | null;
  editing: CaptionTrackSummary | null;
  error: UiError | null;
  uploadError: UiError | null;
  uploadNotice: string | null;
} {
  const status = useSelector(ref, (s): CaptionsStatus => {
    for (const state of ['loading', 'failed', 'uploading', 'editing'] as const)
      if (s.matches({ captions: state })) return state;
    return 'ready';
  });
  const tracks = useSelector(ref, (s) => s.context.tracks);
  const trackId = useSelector(ref, (s) => s.context.trackId);
  const editingId = useSelector(ref, (s) => s.context.editingId);
  const error = useSelector(ref, (s) => s.context.captionError);
  const uploadError = useSelector(ref, (s) => s.context.uploadError);
  const uploadNotice = useSelector(ref, (s) => s.context.uploadNotice);
  return useMemo(
    () => ({
      status,
      tracks,
      trackId,
      editing: tracks.find((t) => t.id === editingId) ?? null,
      error,
      uploadError,
      uploadNotice,
    }),
    [status, tracks, trackId, editingId, error, uploadError, uploadNotice],
  );
}

/** What the player may ask. */
export function useVideoPlayerEvents(ref: VideoPlayerRef) {
  return useMemo(
    () => ({
      played: () => ref.send({ type: 'video.play' }),
      paused: () => ref.send({ type: 'video.pause' }),
      timeChanged: (time: number) => ref.send({ type: 'video.time', time }),
      durationKnown: (duration: number) => ref.send({ type: 'video.duration', duration }),
      capture: () => ref.send({ type: 'moment.capture' }),
      seek: (time: number) => ref.send({ type: 'moment.seek', time }),
      selectTrack: (trackId: number | null) => ref.send({ type: 'captions.select', trackId }),
      upload: (file: CaptionFile, language: string, label: string) =>
        ref.send({ type: 'captions.upload', file, language, label }),
      edit: (trackId: number) => ref.send({ type: 'captions.edit', trackId }),
      saved: (track: CaptionTrack) => ref.send({ type: 'captions.saved', track }),
      closed: () => ref.send({ type: 'captions.closed' }),
      retry: () => ref.send({ type: 'retry' }),
    }),
    [ref],
  );
}
