import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CaptionTrack, CaptionUpdateBody } from '../../schemas/moments.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import type { Notice } from '../shared/notice.ts';
import { CAPTIONS_SAVED_MESSAGE, captionEditorMachine } from './captionEditorMachine.ts';

const track: CaptionTrack = {
  id: 8,
  media: 5,
  language: 'en',
  label: 'English',
  cueCount: 1,
  url: '/captions/8.vtt',
  canEdit: true,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  cues: [{ start: 1, end: 3.5, text: 'Hello' }],
};

function start(save: (body: CaptionUpdateBody) => Promise<CaptionTrack> = async () => track) {
  const notices: Notice[] = [];
  const sent: CaptionUpdateBody[] = [];
  const actor = createActor(
    captionEditorMachine.provide({
      actors: {
        loadCaptions: fromPromise<CaptionTrack, { trackId: number }>(async () => track),
        saveCaptions: fromPromise<CaptionTrack, { trackId: number; body: CaptionUpdateBody }>(({ input }) => {
          sent.push(input.body);
          return save(input.body);
        }),
      },
      actions: { notify: (_, notice) => notices.push(notice) },
    }),
    { input: { track, duration: 10 } },
  ).start();
  return { actor, notices, sent };
}

async function editing(save?: (body: CaptionUpdateBody) => Promise<CaptionTrack>) {
  const started = start(save);
  await waitFor(started.actor, (s) => s.matches('editing'));
  return started;
}

describe('captionEditorMachine guards', () => {
  it('isValid: a cue past the end of the video is not saved; its problems show', async () => {
    const { actor, sent } = await editing();
    actor.send({ type: 'cue.change', index: 0, field: 'end', value: '0:12' });
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.showProblems).toBe(true);
    expect(sent).toEqual([]);
  });

  it('isChanged: discarding an unchanged track closes at once; a changed one asks first', async () => {
    const unchanged = await editing();
    const closed: string[] = [];
    unchanged.actor.on('captions.closed', (e) => closed.push(e.type));
    unchanged.actor.send({ type: 'editor.discard' });
    expect(unchanged.actor.getSnapshot().status).toBe('done');
    expect(closed).toEqual(['captions.closed']);

    const { actor } = await editing();
    actor.send({ type: 'track.change', field: 'label', value: 'English (UK)' });
    actor.send({ type: 'editor.discard' });
    expect(actor.getSnapshot().value).toBe('confirmingDiscard');
    actor.send({ type: 'discard.cancel' });
    expect(actor.getSnapshot().context.label).toBe('English (UK)');
  });
});

describe('captionEditorMachine actions', () => {
  it('storeTrack shows the loaded cues as clock times', async () => {
    const { actor } = await editing();
    expect(actor.getSnapshot().context.cues).toEqual([{ key: 1, start: '0:01', end: '0:03.5', text: 'Hello' }]);
    expect(actor.getSnapshot().context.nextKey).toBe(2);
  });

  it('addCue starts a two-second cue where a loaded cue ends (as the editor shows its time)', async () => {
    const { actor } = await editing();
    actor.send({ type: 'cue.add' });
    expect(actor.getSnapshot().context.cues[1]).toEqual({ key: 2, start: '0:03.5', end: '0:05.5', text: '' });
  });

  it('addCue starts at 0:00 after a cue whose end cannot be read', async () => {
    const { actor } = await editing();
    actor.send({ type: 'cue.change', index: 0, field: 'end', value: 'soon' });
    actor.send({ type: 'cue.add' });
    expect(actor.getSnapshot().context.cues[1]).toMatchObject({ start: '0:00', end: '0:02' });
  });

  it('addCue starts a two-second cue where the last ends (typed in seconds); removeCue drops the one asked', async () => {
    const { actor } = await editing();
    actor.send({ type: 'cue.change', index: 0, field: 'end', value: '7.5' });
    actor.send({ type: 'cue.add' });
    expect(actor.getSnapshot().context.cues[1]).toEqual({ key: 2, start: '0:07.5', end: '0:09.5', text: '' });
    actor.send({ type: 'cue.remove', index: 0 });
    expect(actor.getSnapshot().context.cues.map((c) => c.key)).toEqual([2]);
  });

  it('restoreTrack puts a local draft in place with fresh keys', async () => {
    const { actor } = await editing();
    actor.send({
      type: 'track.restore',
      track: { label: 'Draft', language: 'de', cues: [{ start: '0:02', end: '0:04', text: 'Hallo' }] },
    });
    const { label, language, cues, nextKey } = actor.getSnapshot().context;
    expect({ label, language, cues, nextKey }).toEqual({
      label: 'Draft',
      language: 'de',
      cues: [{ key: 2, start: '0:02', end: '0:04', text: 'Hallo' }],
      nextKey: 3,
    });
  });

  it('a save sends the trimmed track, says "Captions saved" and emits the saved track', async () => {
    const { actor, notices, sent } = await editing();
    const saved: CaptionTrack[] = [];
    actor.on('captions.saved', (e) => saved.push(e.track));
    actor.send({ type: 'track.change', field: 'label', value: '  English  ' });
    actor.send({ type: 'cue.change', index: 0, field: 'text', value: ' Hi ' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([{ label: 'English', language: 'en', cues: [{ start: 1, end: 3.5, text: 'Hi' }] }]);
    expect(notices).toEqual([{ message: CAPTIONS_SAVED_MESSAGE, tone: 'success' }]);
    expect(saved).toEqual([track]);
  });

  it('a refused save keeps the edits and the message; the next save clears the message', async () => {
    const answers = [
      () => Promise.reject(new ApiError(400, 'invalid', 'Bad cue.', '')),
      () => new Promise<never>(() => {}),
    ];
    const { actor } = await editing(() => answers.shift()!());
    actor.send({ type: 'cue.change', index: 0, field: 'text', value: 'Hi' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'invalid', status: 400, message: 'Bad cue.' });
    expect(actor.getSnapshot().context.cues[0]?.text).toBe('Hi');
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a failed load can be retried or discarded', async () => {
    const actor = createActor(
      captionEditorMachine.provide({
        actors: {
          loadCaptions: fromPromise<CaptionTrack, { trackId: number }>(() => Promise.reject(new NetworkError())),
        },
      }),
      { input: { track, duration: null } },
    ).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error?.kind).toBe('network');
    actor.send({ type: 'editor.discard' });
    expect(actor.getSnapshot().status).toBe('done');
  });
});
