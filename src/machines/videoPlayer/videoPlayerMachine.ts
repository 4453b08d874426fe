/**
 * One video of an artifact with its timeline of moments and its caption tracks.
 *
 * Two regions at once:
 *   playback: paused ⇄ playing (the element's play / pause events)
 *             playing ─(moment.capture: "Comment at 3:12")→ paused (the element is paused)
 *   captions: loading ─(tracks)→ ready   └─(failed)→ failed ─(retry)→ loading
 *             ready ─(captions.upload)→ uploading ─(track)→ ready (the new track is shown)
 *                                          └─(refused / failed)→ ready (the message stays)
 *             ready ─(captions.edit)→ editing ─(captions.saved)→ ready (the track replaced)
 *                                        └─(captions.closed)→ ready
 * At any time: the element's time and length are followed, a marker or a comment's time seeks
 * there, and a caption track may be chosen (or none).
 *
 * Happy path: the video opens at the address's time (if any) with its markers; a click on a
 * marker seeks there; a teacher uploads a .vtt file and the captions
 * show at once.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { CaptionTrack, CaptionTrackSummary, CaptionUploadResponse } from '../../schemas/moments.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { listCaptions, uploadCaptions, type MediaHolder } from '../../services/momentService.ts';

export interface VideoPlayerInput {
  /** The video (its media id). */
  mediaId: number;
  /** The artifact holding it, whose caption tracks are shown and edited. */
  holder: MediaHolder;
  /** Its length in seconds when the server knows it. */
  duration: number | null;
  /** Where to start (a deep link's `t`), in seconds. */
  startAt: number | null;
}

export type { MediaHolder };

/** What the view must do to the element; `seq` tells a new command from the last one. */
export type PlayerCommand = { kind: 'seek'; time: number; seq: number } | { kind: 'pause'; seq: number };

/** A caption file as the upload form picked it (its text is read when it is sent). */
export type CaptionFile = Pick<File, 'name' | 'text'>;

export interface CaptionUploadRequest {
  holder: MediaHolder;
  mediaId: number;
  file: CaptionFile;
  language: string;
  label: string;
}

export interface VideoPlayerContext extends VideoPlayerInput {
  /** The element's current time (seconds). */
  time: number;
  command: PlayerCommand | null;
  tracks: readonly CaptionTrackSummary[];
  /** The caption track shown (`null`: captions off). */
  trackId: number | null;
  /** The track open in the caption editor. */
  editingId: number | null;
  /** Why the tracks could not be loaded or the last upload failed. */
  captionError: UiError | null;
  uploadError: UiError | null;
  /** What the server changed in the last uploaded file to fit the video (captions past its end). */
  uploadNotice: string | null;
}

export type VideoPlayerEvent =
  | { type: 'video.play' }
  | { type: 'video.pause' }
  | { type: 'video.time'; time: number }
  | { type: 'video.duration'; duration: number }
  | { type: 'moment.capture' }
  | { type: 'moment.seek'; time: number }
  | { type: 'captions.select'; trackId: number | null }
  | { type: 'captions.upload'; file: CaptionFile; language: string; label: string }
  | { type: 'captions.edit'; trackId: number }
  | { type: 'captions.saved'; track: CaptionTrack }
  | { type: 'captions.closed' }
  | { type: 'retry' };

/** The format of a caption file by its name: `.srt` is SubRip, anything else is read as WebVTT. */
export const captionFormat = (name: string): 'vtt' | 'srt' => (/\.srt$/i.test(name) ? 'srt' : 'vtt');

/** A track as the list keeps it: without its cues. */
const summaryOf = ({ cues: _cues, ...track }: CaptionTrack): CaptionTrackSummary => track;

const nextSeq = (command: PlayerCommand | null): number => (command?.seq ?? 0) + 1;

export const videoPlayerMachine = setup({
  types: {
    context: {} as VideoPlayerContext,
    events: {} as VideoPlayerEvent,
    input: {} as VideoPlayerInput,
    tags: {} as 'busy',
  },
  actors: {
    listCaptions: fromPromise<CaptionTrackSummary[], { holder: MediaHolder; mediaId: number }>(({ input, signal }) =>
      listCaptions(input.holder, input.mediaId, signal),
    ),
    uploadCaptions: fromPromise<CaptionUploadResponse, CaptionUploadRequest>(async ({ input, signal }) => {
      const source = await input.file.text();
      return uploadCaptions(
        input.holder,
        input.mediaId,
        { language: input.language, label: input.label, format: captionFormat(input.file.name), source },
        signal,
      );
    }),
  },
  guards: {
    isKnownTrack: ({ context }, params: { trackId: number | null }) =>
      params.trackId === null || context.tracks.some((t) => t.id === params.trackId),
    isEditable: ({ context }, params: { trackId: number }) =>
      context.tracks.some((t) => t.id === params.trackId && t.canEdit),
  },
  actions: {
    storeTime: assign({ time: (_, params: { time: number }) => params.time }),
    storeDuration: assign({ duration: (_, params: { duration: number }) => params.duration }),
    pause: assign({ command: ({ context }) => ({ kind: 'pause' as const, seq: nextSeq(context.command) }) }),
    seek: assign({
      command: ({ context }, params: { time: number }) => ({
        kind: 'seek' as const,
        time: params.time,
        seq: nextSeq(context.command),
      }),
      time: (_, params: { time: number }) => params.time,
    }),
    storeTracks: assign({
      tracks: (_, params: { tracks: readonly CaptionTrackSummary[] }) => params.tracks,
      // The first track shows unless the viewer turned captions off or chose another one.
      trackId: ({ context }, params: { tracks: readonly CaptionTrackSummary[] }) =>
        params.tracks.some((t) => t.id === context.trackId) ? context.trackId : (params.tracks[0]?.id ?? null),
      captionError: null,
    }),
    addTrack: assign({
      // A track in the language of one shown replaces it (the server replaced it too).
      tracks: ({ context }, params: { track: CaptionTrack; notice?: string | null }) =>
        context.tracks.some((t) => t.id === params.track.id)
          ? context.tracks.map((t) => (t.id === params.track.id ? summaryOf(params.track) : t))
          : [...context.tracks, summaryOf(params.track)],
      trackId: (_, params: { track: CaptionTrack; notice?: string | null }) => params.track.id,
      uploadError: null,
      uploadNotice: (_, params: { track: CaptionTrack; notice?: string | null }) => params.notice ?? null,
    }),
    replaceTrack: assign({
      tracks: ({ context }, params: { track: CaptionTrack }) =>
        context.tracks.map((t) => (t.id === params.track.id ? summaryOf(params.track) : t)),
    }),
    selectTrack: assign({ trackId: (_, params: { trackId: number | null }) => params.trackId }),
    openEditor: assign({ editingId: (_, params: { trackId: number }) => params.trackId }),
    closeEditor: assign({ editingId: null }),
    storeCaptionError: assign({ captionError: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeUploadError: assign({ uploadError: (_, params: { error: unknown }) => toUiError(params.error) }),
    clearUploadError: assign({ uploadError: null, uploadNotice: null }),
  },
}).createMachine({
  id: 'videoPlayer',
  context: ({ input }) => ({
    ...input,
    time: input.startAt ?? 0,
    command: input.startAt !== null ? { kind: 'seek', time: input.startAt, seq: 1 } : null,
    tracks: [],
    trackId: null,
    editingId: null,
    captionError: null,
    uploadError: null,
    uploadNotice: null,
  }),
  type: 'parallel',
  on: {
    'video.time': { actions: { type: 'storeTime', params: ({ event }) => event } },
    'video.duration': { actions: { type: 'storeDuration', params: ({ event }) => event } },
    'moment.seek': { actions: { type: 'seek', params: ({ event }) => event } },
    'captions.select': {
      guard: { type: 'isKnownTrack', params: ({ event }) => event },
      actions: { type: 'selectTrack', params: ({ event }) => event },
    },
  },
  states: {
    playback: {
      initial: 'paused',
      states: {
        paused: {
          on: { 'video.play': 'playing' },
        },
        playing: {
          on: {
            'video.pause': 'paused',
            'moment.capture': { target: 'paused', actions: 'pause' },
          },
        },
      },
    },
    captions: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'listCaptions',
            src: 'listCaptions',
            input: ({ context }) => ({ holder: context.holder, mediaId: context.mediaId }),
            onDone: {
              target: 'ready',
              actions: { type: 'storeTracks', params: ({ event }) => ({ tracks: event.output }) },
            },
            onError: {
              target: 'failed',
              actions: { type: 'storeCaptionError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          on: { retry: 'loading' },
        },
        ready: {
          on: {
            'captions.upload': 'uploading',
            'captions.edit': {
              guard: { type: 'isEditable', params: ({ event }) => event },
              target: 'editing',
              actions: { type: 'openEditor', params: ({ event }) => event },
            },
          },
        },
        uploading: {
          tags: ['busy'],
          entry: 'clearUploadError',
          invoke: {
            id: 'uploadCaptions',
            src: 'uploadCaptions',
            input: ({ context, event }) => {
              const e = event as Extract<VideoPlayerEvent, { type: 'captions.upload' }>;
              return {
                holder: context.holder,
                mediaId: context.mediaId,
                file: e.file,
                language: e.language,
                label: e.label,
              };
            },
            onDone: {
              target: 'ready',
              actions: {
                type: 'addTrack',
                params: ({ event }) => ({ track: event.output, notice: event.output.notice }),
              },
            },
            onError: {
              target: 'ready',
              actions: { type: 'storeUploadError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        editing: {
          on: {
            'captions.saved': {
              target: 'ready',
              actions: [{ type: 'replaceTrack', params: ({ event }) => event }, 'closeEditor'],
            },
            'captions.closed': { target: 'ready', actions: 'closeEditor' },
          },
        },
      },
    },
  },
});

export type VideoPlayerMachine = typeof videoPlayerMachine;
