/**
 * The caption editor of one caption track: its label, language and cues, cue by cue.
 *
 * loading ─(track: its cues, loaded when the editor opens)→ editing
 *    └─(failed)→ failed ─(retry)→ loading
 *                  └─(editor.discard)→ closed
 * editing ─(cue.change | cue.add | cue.remove | track.change | track.restore: a local draft put back)→ editing
 *    ├─(editor.save: no problems)→ saving ─(saved)→ saved (final; listeners hear `captions.saved`)
 *    │                                └─(refused / failed)→ editing (the message shows; the edits are kept)
 *    ├─(editor.save: problems)→ editing (every problem is listed and marked at its field)
 *    └─(editor.discard)→ closed (final; `captions.closed`) when nothing changed,
 *                       otherwise confirmingDiscard ─(discard.confirm)→ closed
 *                                                   └─(discard.cancel)→ editing
 *
 * Happy path: the teacher corrects a cue's text and end, adds one, saves, and the player shows
 * the corrected captions.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { CaptionTrack, CaptionTrackSummary, CaptionUpdateBody } from '../../schemas/moments.ts';
import { parseClock } from '../../schemas/formatting.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { loadCaptions, saveCaptions } from '../../services/momentService.ts';
import { effect } from '../shared/effect.ts';
import { cueProblems, showTime, toCues, toDrafts, type CaptionsDraft, type CueDraft } from './cues.ts';
import type { Notice } from '../shared/notice.ts';

export interface CaptionEditorInput {
  /** The track as a video's list holds it (without its cues: they are loaded when the editor opens). */
  track: CaptionTrackSummary;
  /** The video's length (cue times must lie within it), when known. */
  duration: number | null;
}

export interface CaptionEditorContext {
  trackId: number;
  duration: number | null;
  label: string;
  language: string;
  cues: CueDraft[];
  /** The track as saved, to tell whether anything changed. */
  original: string;
  /** Problems are shown once a save was asked for. */
  showProblems: boolean;
  nextKey: number;
  error: UiError | null;
}

export type CaptionEditorEvent =
  | { type: 'cue.change'; index: number; field: 'start' | 'end' | 'text'; value: string }
  | { type: 'cue.add' }
  | { type: 'cue.remove'; index: number }
  | { type: 'track.change'; field: 'label' | 'language'; value: string }
  /** A local draft of the track (left by a crash or a reload) put back in place of what the editor holds. */
  | { type: 'track.restore'; track: CaptionsDraft }
  | { type: 'retry' }
  | { type: 'editor.save' }
  | { type: 'editor.discard' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' };

export type CaptionEditorEmitted = { type: 'captions.saved'; track: CaptionTrack } | { type: 'captions.closed' };

export const CAPTIONS_SAVED_MESSAGE = 'Captions saved';

/** Whether the track as edited differs from the track as saved (and is not saved yet). */
export const captionsChanged = (snapshot: { status: string; context: CaptionEditorContext }): boolean =>
  snapshot.status === 'active' && fingerprint(snapshot.context) !== snapshot.context.original;

/** The track as edited, as text: what tells a change, and what a local draft keeps. */
export const fingerprint = (c: Pick<CaptionEditorContext, 'label' | 'language' | 'cues'>): string =>
  JSON.stringify([c.label, c.language, c.cues.map(({ start, end, text }) => [start, end, text])]);

/** The body of a save. */
export const toBody = (c: CaptionEditorContext): CaptionUpdateBody => ({
  label: c.label.trim(),
  language: c.language.trim(),
  cues: toCues(c.cues),
});

export const captionEditorMachine = setup({
  types: {
    context: {} as CaptionEditorContext,
    events: {} as CaptionEditorEvent,
    input: {} as CaptionEditorInput,
    emitted: {} as CaptionEditorEmitted,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadCaptions: fromPromise<CaptionTrack, { trackId: number }>(({ input, signal }) =>
      loadCaptions(input.trackId, signal),
    ),
    saveCaptions: fromPromise<CaptionTrack, { trackId: number; body: CaptionUpdateBody }>(({ input, signal }) =>
      saveCaptions(input.trackId, input.body, signal),
    ),
  },
  guards: {
    isValid: ({ context }) => cueProblems(context, context.duration).length === 0,
    isChanged: ({ context }) => fingerprint(context) !== context.original,
  },
  actions: {
    storeTrack: assign(({ context }, params: { track: CaptionTrack }) => {
      const base = { label: params.track.label, language: params.track.language, cues: toDrafts(params.track.cues) };
      return { ...context, ...base, original: fingerprint(base), nextKey: base.cues.length + 1, error: null };
    }),
    changeCue: assign({
      cues: ({ context }, params: { index: number; field: 'start' | 'end' | 'text'; value: string }) =>
        context.cues.map((c, i) => (i === params.index ? { ...c, [params.field]: params.value } : c)),
    }),
    addCue: assign({
      // A new cue starts where the last one ends and lasts two seconds.
      cues: ({ context }) => {
        const last = context.cues.at(-1);
        // Its end as the editor shows it (`0:03.5`) or as typed (`7.5`); unreadable: the start of the video.
        const from = (last && parseClock(last.end)) ?? 0;
        return [...context.cues, { key: context.nextKey, start: showTime(from), end: showTime(from + 2), text: '' }];
      },
      nextKey: ({ context }) => context.nextKey + 1,
    }),
    removeCue: assign({
      cues: ({ context }, params: { index: number }) => context.cues.filter((_, i) => i !== params.index),
    }),
    restoreTrack: assign(({ context }, params: { track: CaptionsDraft }) => ({
      label: params.track.label,
      language: params.track.language,
      cues: params.track.cues.map((cue, i) => ({ ...cue, key: context.nextKey + i })),
      nextKey: context.nextKey + params.track.cues.length,
    })),
    changeTrack: assign(({ context }, params: { field: 'label' | 'language'; value: string }) => ({
      ...context,
      [params.field]: params.value,
    })),
    showProblems: assign({ showProblems: true }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    clearError: assign({ error: null }),
    emitSaved: emit((_, params: { track: CaptionTrack }) => ({ type: 'captions.saved' as const, track: params.track })),
    emitClosed: emit({ type: 'captions.closed' as const }),
    /** Tells the user something (provided by the app: a toast). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'captionEditor',
  context: ({ input }) => {
    const base = { label: input.track.label, language: input.track.language, cues: [] };
    return {
      ...base,
      trackId: input.track.id,
      duration: input.duration,
      original: fingerprint(base),
      showProblems: false,
      nextKey: 1,
      error: null,
    };
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadCaptions',
        src: 'loadCaptions',
        input: ({ context }) => ({ trackId: context.trackId }),
        onDone: {
          target: 'editing',
          actions: { type: 'storeTrack', params: ({ event }) => ({ track: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: {
        retry: 'loading',
        'editor.discard': 'closed',
      },
    },
    editing: {
      on: {
        'cue.change': { actions: { type: 'changeCue', params: ({ event }) => event } },
        'cue.add': { actions: 'addCue' },
        'cue.remove': { actions: { type: 'removeCue', params: ({ event }) => event } },
        'track.change': { actions: { type: 'changeTrack', params: ({ event }) => event } },
        'track.restore': { actions: { type: 'restoreTrack', params: ({ event }) => event } },
        'editor.save': [{ guard: 'isValid', target: 'saving' }, { actions: 'showProblems' }],
        'editor.discard': [{ guard: 'isChanged', target: 'confirmingDiscard' }, { target: 'closed' }],
      },
    },
    saving: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'saveCaptions',
        src: 'saveCaptions',
        input: ({ context }) => ({ trackId: context.trackId, body: toBody(context) }),
        onDone: {
          target: 'saved',
          actions: [
            { type: 'notify', params: { message: CAPTIONS_SAVED_MESSAGE, tone: 'success' } },
            { type: 'emitSaved', params: ({ event }) => ({ track: event.output }) },
          ],
        },
        onError: {
          target: 'editing',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    confirmingDiscard: {
      on: {
        'discard.confirm': 'closed',
        'discard.cancel': 'editing',
      },
    },
    saved: { type: 'final' },
    closed: { type: 'final', entry: 'emitClosed' },
  },
});

export type CaptionEditorMachine = typeof captionEditorMachine;
