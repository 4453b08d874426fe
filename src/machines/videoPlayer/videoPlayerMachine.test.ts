import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CaptionTrackSummary, CaptionUploadResponse } from '../../schemas/moments.ts';
import { ApiError } from '../../services/errors.ts';
import {
  captionFormat,
  videoPlayerMachine,
  type CaptionUploadRequest,
  type MediaHolder,
} from './videoPlayerMachine.ts';

const track = (id: number, language: string, canEdit = true): CaptionTrackSummary => ({
  id,
  media: 9,
  language,
  label: language,
  cueCount: 2,
  url: `/captions/${id}.vtt`,
  canEdit,
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
});
const english = track(1, 'en');
const spanish = track(2, 'es', false);
const holder: MediaHolder = { kind: 'artifact', artifactId: 12 };
const file = { name: 'french.SRT', text: async () => '1\n00:00:01,000 --> 00:00:02,000\nBonjour' };

function start(startAt: number | null, upload: () => Promise<CaptionUploadResponse>) {
  const sent: CaptionUploadRequest[] = [];
  const actor = createActor(
    videoPlayerMachine.provide({
      actors: {
        listCaptions: fromPromise<CaptionTrackSummary[], { holder: MediaHolder; mediaId: number }>(async () => [
          english,
          spanish,
        ]),
        uploadCaptions: fromPromise<CaptionUploadResponse, CaptionUploadRequest>(({ input }) => {
          sent.push(input);
          return upload();
        }),
      },
    }),
    { input: { mediaId: 9, holder, duration: 60, startAt } },
  ).start();
  return { actor, sent };
}

const uploaded: CaptionUploadResponse = { ...track(3, 'fr'), cues: [], notice: 'One caption past the end was cut.' };

describe('videoPlayerMachine guards', () => {
  it('isKnownTrack: only a listed track or none may be chosen', async () => {
    const { actor } = start(null, async () => uploaded);
    await waitFor(actor, (s) => s.matches({ captions: 'ready' }));
    expect(actor.getSnapshot().context.trackId).toBe(1);
    actor.send({ type: 'captions.select', trackId: 99 });
    expect(actor.getSnapshot().context.trackId).toBe(1);
    actor.send({ type: 'captions.select', trackId: null });
    expect(actor.getSnapshot().context.trackId).toBeNull();
  });

  it('isEditable: a track the viewer may not edit does not open the editor', async () => {
    const { actor } = start(null, async () => uploaded);
    await waitFor(actor, (s) => s.matches({ captions: 'ready' }));
    actor.send({ type: 'captions.edit', trackId: 2 });
    expect(actor.getSnapshot().matches({ captions: 'ready' })).toBe(true);
    actor.send({ type: 'captions.edit', trackId: 1 });
    expect(actor.getSnapshot().context.editingId).toBe(1);
  });
});

describe('videoPlayerMachine actions', () => {
  it('opens at the address time; a marker seeks and capturing a moment pauses, each a new command', () => {
    const { actor } = start(42, async () => uploaded);
    expect(actor.getSnapshot().context).toMatchObject({ time: 42, command: { kind: 'seek', time: 42, seq: 1 } });
    actor.send({ type: 'moment.seek', time: 7 });
    actor.send({ type: 'video.play' });
    actor.send({ type: 'moment.capture' });
    expect(actor.getSnapshot().matches({ playback: 'paused' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ time: 7, command: { kind: 'pause', seq: 3 } });
  });

  it('an uploaded track is shown at once with the server notice', async () => {
    const { actor, sent } = start(null, async () => uploaded);
    await waitFor(actor, (s) => s.matches({ captions: 'ready' }));
    actor.send({ type: 'captions.upload', file, language: 'fr', label: 'Français' });
    await waitFor(actor, (s) => s.matches({ captions: 'ready' }) && s.context.trackId === 3);
    expect(sent).toEqual([{ holder, mediaId: 9, file, language: 'fr', label: 'Français' }]);
    expect(actor.getSnapshot().context.tracks.map((t) => t.id)).toEqual([1, 2, 3]);
    expect(actor.getSnapshot().context.uploadNotice).toBe('One caption past the end was cut.');
  });

  it('captionFormat: a file named .srt (any case) is sent as SubRip, anything else as WebVTT', () => {
    expect(captionFormat(file.name)).toBe('srt');
    expect(captionFormat('french.vtt')).toBe('vtt');
    expect(captionFormat('french.txt')).toBe('vtt');
  });

  it('a refused upload keeps the tracks and stores the message', async () => {
    const refusal = new ApiError(400, 'invalid', 'The caption file is empty.', '');
    const { actor } = start(null, () => Promise.reject(refusal));
    await waitFor(actor, (s) => s.matches({ captions: 'ready' }));
    actor.send({ type: 'captions.upload', file, language: 'fr', label: 'Français' });
    await waitFor(actor, (s) => s.context.uploadError !== null);
    expect(actor.getSnapshot().context.uploadError?.message).toBe('The caption file is empty.');
    expect(actor.getSnapshot().context.tracks).toEqual([english, spanish]);
    expect(actor.getSnapshot().context.trackId).toBe(1);
  });
});
