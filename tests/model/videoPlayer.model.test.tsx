import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { type MomentMark } from '../../src/machines/videoPlayer/markers.ts';
import {
  videoPlayerMachine,
  type CaptionUploadRequest,
  type MediaHolder,
  type VideoPlayerEvent,
} from '../../src/machines/videoPlayer/videoPlayerMachine.ts';
import type { CaptionTrack, CaptionUpdateBody, CaptionUploadResponse } from '../../src/schemas/moments.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import {
  makeTrack,
  makeVideo,
  provideTestMoments,
  renderVideoMoments,
  stubMediaElements,
} from '../../src/test/videoHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName, stepLabel } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import { formatClock } from '../../src/schemas/formatting.ts';

trackCoverage(videoPlayerMachine);

type Snapshot = SnapshotFrom<typeof videoPlayerMachine>;

const VIDEO = makeVideo();
/** The video as the page names it (ramp-race.webm → "ramp race"). */
const VIDEO_LABEL = 'ramp race';
const TRACK = makeTrack();
const UPLOADED = {
  ...makeTrack({ id: 82, label: 'Español', language: 'es', url: '/captions/82/track.vtt' }),
  notice: null,
};
const EDITED = { ...TRACK, cues: [TRACK.cues[0]!], updated_at: '2026-03-06T10:00:00.000Z' };
const offline = new NetworkError();
const malformed = new ApiError(400, 'invalid_captions', 'Line 3 of the caption file is not a valid cue timing.', '');
const PLAYED_TO = 5;
const SEEK_TO = 3;
const DURATION = 12;
/** The timeline's one marker: Ana's comment at 3 s. */
const MARK: MomentMark = { kind: 'comment', id: 31, start: SEEK_TO, end: null, who: 'Ana Teacher' };

const ev = modelEvent<VideoPlayerEvent>();

/**
 * The model's events in a state. To keep the paths few while taking every transition: the
 * playback events come while the captions rest as loaded; the caption events while the player
 * was not touched; each time, length and seek is told once.
 */
function events(snapshot: unknown): VideoPlayerEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: VideoPlayerEvent[] = [];
  if (isInvoking(s, 'listCaptions'))
    list.push(
      ev('xstate.done.actor.listCaptions', { output: [TRACK] }),
      ev('xstate.error.actor.listCaptions', { error: offline }),
    );
  if (s.matches({ captions: 'failed' })) list.push({ type: 'retry' });
  const restingCaptions =
    s.matches({ captions: 'ready' }) &&
    c.tracks.length === 1 &&
    c.trackId === TRACK.id &&
    c.uploadError === null &&
    c.tracks[0] === TRACK;
  const untouched =
    s.matches({ playback: 'paused' }) && c.time === 0 && c.command === null && c.duration === VIDEO.duration;
  if (restingCaptions) {
    // Playing again after "Comment at" paused it would number new pause commands without end.
    if (s.matches({ playback: 'paused' }) && c.command === null) list.push({ type: 'video.play' });
    if (s.matches({ playback: 'playing' })) {
      list.push({ type: 'video.pause' });
      if (c.time === 0) list.push({ type: 'video.time', time: PLAYED_TO });
      if (c.time === PLAYED_TO) list.push({ type: 'moment.capture' });
    }
    if (untouched)
      list.push({ type: 'moment.seek', time: SEEK_TO }, { type: 'video.duration', duration: DURATION + 0.5 });
  }
  if (untouched && s.matches({ captions: 'ready' })) {
    if (c.trackId === TRACK.id && c.tracks.length === 1) list.push({ type: 'captions.select', trackId: null });
    if (c.trackId === null) list.push({ type: 'captions.select', trackId: TRACK.id });
    if (c.tracks.length === 1 && c.trackId === TRACK.id && c.uploadError === null && c.tracks[0] === TRACK) {
      list.push(
        { type: 'captions.upload', file: new File(['WEBVTT'], 'subtitulos.vtt'), language: 'es', label: 'Español' },
        { type: 'captions.edit', trackId: TRACK.id },
      );
    }
  }
  if (isInvoking(s, 'uploadCaptions'))
    list.push(
      ev('xstate.done.actor.uploadCaptions', { output: UPLOADED }),
      ev('xstate.error.actor.uploadCaptions', { error: malformed }),
    );
  if (s.matches({ captions: 'editing' }))
    list.push({ type: 'captions.saved', track: EDITED }, { type: 'captions.closed' });
  return list.filter((event) => s.can(event));
}

/** An event in a path's name, with the time or track it tells. */
function stepName(e: { type: string; time?: number; trackId?: number | null }): string {
  const type = stepLabel(e.type);
  return e.time !== undefined ? `${type} ${e.time}` : e.trackId !== undefined ? `${type} ${e.trackId}` : type;
}

function setup() {
  const media = stubMediaElements(DURATION + 0.5);
  const fakes = {
    listCaptions: controllableActor<CaptionTrack[], { holder: MediaHolder; mediaId: number }>(),
    uploadCaptions: controllableActor<CaptionUploadResponse, CaptionUploadRequest>(),
    saveCaptions: controllableActor<CaptionTrack, { trackId: number; body: CaptionUpdateBody }>(),
  };
  let live: Snapshot | null = null;
  let composer: { context: { highlighted: number | null } } | null = null;
  const moments = provideTestMoments(
    {
      player: { listCaptions: fakes.listCaptions.logic, uploadCaptions: fakes.uploadCaptions.logic },
      captions: { saveCaptions: fakes.saveCaptions.logic, loadCaptions: fromPromise(() => Promise.resolve(TRACK)) },
    },
    (event) => {
      coverageInspector(event);
      const logic = (event.actorRef as unknown as { logic?: { id?: string } }).logic;
      if (event.type === '@xstate.snapshot' && logic?.id === 'videoPlayer') live = event.snapshot as Snapshot;
      if (event.type === '@xstate.snapshot' && logic?.id === 'momentComment') composer = event.snapshot as never;
    },
  );
  const rendered = renderVideoMoments({ moments, video: VIDEO, marks: [MARK] });
  return { ...rendered, fakes, media, live: () => live, composer: () => composer };
}

let h: ReturnType<typeof setup>;

const video = () => document.querySelector('video')!;
const panel = () => screen.getByText(/^Captions of/).closest('details')!;
const openPanel = async () => {
  if (!panel().open) await h.ux.click(within(panel()).getByText(/^Captions of/));
};

const checks = {
  'playback.paused': async (s: Snapshot) => {
    expect(h.live()?.value).toEqual(s.value);
    if (s.context.command?.kind === 'pause') {
      // "Comment at 0:05" paused the element and opened the composer at that time.
      expect(h.media.pause).toHaveBeenCalledTimes(1);
      expect(screen.getByRole('form', { name: 'Comment at 0:05' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: /^Comment at/ })).toBeNull();
    } else {
      expect(screen.getByRole('button', { name: `Comment at ${formatClock(s.context.time)}` })).toBeTruthy();
    }
    if (s.context.command?.kind === 'seek') {
      expect(video().currentTime).toBe(SEEK_TO);
      // The marker's comment is highlighted.
      expect(h.composer()?.context.highlighted).toBe(MARK.id);
    }
  },
  'playback.playing': async (s: Snapshot) => {
    expect(h.live()?.value).toEqual(s.value);
    expect(screen.getByRole('button', { name: `Comment at ${formatClock(s.context.time)}` })).toBeTruthy();
    // Playing: nothing is being composed, so the player was not paused by "Comment at".
    expect(screen.queryByRole('form', { name: /^Comment at/ })).toBeNull();
  },
  'captions.loading': async () => {
    expect(within(panel()).getByText('Loading captions…')).toBeTruthy();
    expect(h.fakes.listCaptions.calls.map((c) => c.input)).toEqual([
      { holder: { kind: 'sharedArtifact', artifactId: 70 }, mediaId: VIDEO.id },
    ]);
    expect(screen.queryByRole('form', { name: /Upload captions/ })).toBeNull();
  },
  'captions.failed': async (s: Snapshot) => {
    const alert = within(panel()).getByRole('alert');
    expect(alert.textContent).toContain(`The captions could not be loaded. ${s.context.captionError!.message}`);
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  'captions.ready': async (s: Snapshot) => {
    await waitFor(() => expect(video().querySelectorAll('track')).toHaveLength(s.context.tracks.length));
    const tracks = [...video().querySelectorAll('track')];
    expect(
      tracks.map((t) => [
        t.getAttribute('kind'),
        t.getAttribute('label'),
        t.getAttribute('srclang'),
        t.getAttribute('src')?.endsWith(`/api/v1/captions/${t.getAttribute('src')?.split('/captions/')[1]}`),
      ]),
    ).toEqual(s.context.tracks.map((t) => ['captions', t.label, t.language, true]));
    expect(tracks.map((t) => t.getAttribute('src')!.split('/api/v1')[1])).toEqual(s.context.tracks.map((t) => t.url));
    const select = screen.getByRole('combobox', { name: 'Captions' }) as HTMLSelectElement;
    expect(select.value).toBe(s.context.trackId === null ? '' : String(s.context.trackId));
    const list = within(panel()).getByRole('list', { name: 'Caption tracks' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(s.context.tracks.map((t) => `Download ${t.label} captions`));
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')?.endsWith('?download=1')),
    ).toEqual(s.context.tracks.map(() => true));
    expect(
      within(panel())
        .getByRole('form', { name: `Upload captions for ${VIDEO_LABEL}` })
        .getAttribute('aria-busy'),
    ).toBeNull();
    if (s.context.uploadError) expect(within(panel()).getByRole('alert').textContent).toBe(malformed.message);
    else expect(within(panel()).queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('form', { name: /^Edit captions/ })).toBeNull();
  },
  'captions.uploading': async () => {
    expect(
      within(panel())
        .getByRole('form', { name: `Upload captions for ${VIDEO_LABEL}` })
        .getAttribute('aria-busy'),
    ).toBe('true');
    const call = h.fakes.uploadCaptions.calls.at(-1)!;
    expect({ ...call.input, file: call.input.file.name }).toEqual({
      holder: { kind: 'sharedArtifact', artifactId: 70 },
      mediaId: VIDEO.id,
      file: 'subtitulos.vtt',
      language: 'es',
      label: 'Español',
    });
  },
  'captions.editing': async () => {
    const editor = screen.getByRole('form', { name: 'Edit captions: English' });
    expect(
      within(editor)
        .getAllByRole('group')
        .map((g) => g.querySelector('legend')?.textContent),
    ).toEqual(['Caption 1', 'Caption 2']);
  },
};

beforeEach(() => clearToasts());
afterEach(() => clearToasts());

describe('videoPlayer model (a video with its timeline and captions)', () => {
  const paths = checkedShortestPaths(
    videoPlayerMachine,
    {
      input: {
        mediaId: VIDEO.id,
        holder: { kind: 'sharedArtifact', artifactId: 70 },
        duration: VIDEO.duration,
        startAt: null,
      },
      events,
    },
    checks,
    10,
  );
  for (const path of paths) {
    it(`${pathName(path, stepName)}`, async () => {
      h = setup();
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'xstate.done.actor.listCaptions': async () => {
            await act(async () => h.fakes.listCaptions.next().deferred.resolve([TRACK]));
          },
          'xstate.error.actor.listCaptions': async () => {
            await act(async () => h.fakes.listCaptions.next().deferred.reject(offline));
          },
          retry: async () => {
            await openPanel();
            await h.ux.click(within(panel()).getByRole('button', { name: 'Try again' }));
          },
          'video.play': async () => {
            await act(async () => video().play());
          },
          'video.pause': async () => {
            act(() => video().pause());
          },
          'video.time': async () => {
            act(() => {
              video().currentTime = PLAYED_TO;
              fireEvent.timeUpdate(video());
            });
          },
          'video.duration': async () => {
            act(() => {
              fireEvent.loadedMetadata(video());
            });
          },
          'moment.capture': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Comment at 0:05' }));
          },
          'moment.seek': async () => {
            // The timeline's marker at 3 s, operated by the keyboard.
            const marker = screen.getByRole('button', { name: 'Comment by Ana Teacher at 0:03' });
            marker.focus();
            await h.ux.keyboard('{Enter}');
          },
          'captions.select': async (step) => {
            const { trackId } = step.event as unknown as { trackId: number | null };
            await h.ux.selectOptions(
              screen.getByRole('combobox', { name: 'Captions' }),
              trackId === null ? '' : String(trackId),
            );
          },
          'captions.upload': async () => {
            await openPanel();
            await h.ux.upload(
              within(panel()).getByLabelText('Caption file (.vtt or .srt)'),
              new File(['WEBVTT\n\n00:00.500 --> 00:02.000\nListo'], 'subtitulos.vtt', { type: 'text/vtt' }),
            );
            await h.ux.clear(within(panel()).getByRole('textbox', { name: 'Label' }));
            await h.ux.type(within(panel()).getByRole('textbox', { name: 'Label' }), 'Español');
            await h.ux.clear(within(panel()).getByRole('textbox', { name: 'Language tag' }));
            await h.ux.type(within(panel()).getByRole('textbox', { name: 'Language tag' }), 'es');
            await h.ux.click(within(panel()).getByRole('button', { name: 'Upload captions' }));
          },
          'xstate.done.actor.uploadCaptions': async () => {
            await act(async () => h.fakes.uploadCaptions.next().deferred.resolve(UPLOADED));
          },
          'xstate.error.actor.uploadCaptions': async () => {
            await act(async () => h.fakes.uploadCaptions.next().deferred.reject(malformed));
          },
          'captions.edit': async () => {
            await openPanel();
            await h.ux.click(within(panel()).getByRole('button', { name: 'Edit English captions' }));
            // The editor loads the track's cues (the list comes without them).
            await screen.findByRole('form', { name: 'Edit captions: English' });
          },
          'captions.saved': async () => {
            const editor = screen.getByRole('form', { name: 'Edit captions: English' });
            await h.ux.click(within(editor).getAllByRole('button', { name: /^Remove caption/ })[1]!);
            await h.ux.click(within(editor).getByRole('button', { name: 'Save captions' }));
            const call = h.fakes.saveCaptions.next();
            expect(call.input).toEqual({
              trackId: TRACK.id,
              body: { label: 'English', language: 'en', cues: [TRACK.cues[0]] },
            });
            await act(async () => call.deferred.resolve(EDITED));
            expect(await screen.findByText('Captions saved')).toBeTruthy();
          },
          'captions.closed': async () => {
            await h.ux.click(
              within(screen.getByRole('form', { name: 'Edit captions: English' })).getByRole('button', {
                name: 'Discard',
              }),
            );
          },
        },
      });
    });
  }
});
