import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Media } from '../../schemas/media.ts';
import { ALT_MAX, type MediaTextBody } from '../../schemas/moments.ts';
import { ApiError } from '../../services/errors.ts';
import type { MediaHolder } from '../../services/momentService.ts';
import { makeMedia } from '../../test/artifactFixtures.ts';
import { mediaTextMachine, needsAlt } from './mediaTextMachine.ts';

const photo = makeMedia('images', { id: 5, alt: '', description: 'Old' });
const holder: MediaHolder = { kind: 'artifact', artifactId: 31 };
type SaveInput = { holder: MediaHolder; mediaId: number; body: MediaTextBody };

function start(answer: (input: SaveInput) => Promise<Media> = async () => ({ ...photo, alt: 'A ramp' })) {
  const sent: SaveInput[] = [];
  const actor = createActor(
    mediaTextMachine.provide({
      actors: {
        saveMediaText: fromPromise<Media, SaveInput>(({ input }) => {
          sent.push(input);
          return answer(input);
        }),
      },
    }),
    { input: { holder, kind: 'images', media: photo } },
  ).start();
  actor.send({ type: 'text.edit' });
  return { actor, sent };
}

describe('mediaTextMachine guards', () => {
  it('needsAlt: only an image without alt text is prompted', () => {
    expect(needsAlt('images', { alt: '  ' })).toBe(true);
    expect(needsAlt('images', { alt: 'A ramp' })).toBe(false);
    expect(needsAlt('videos', { alt: '' })).toBe(false);
  });

  it('withinLimits / change: typing is cut at the limit, so what is typed can be saved', () => {
    const { actor } = start();
    actor.send({ type: 'text.change', field: 'alt', value: 'x'.repeat(ALT_MAX + 5) });
    expect(actor.getSnapshot().context.alt).toHaveLength(ALT_MAX);
    expect(actor.getSnapshot().can({ type: 'text.save' })).toBe(true);
  });
});

describe('mediaTextMachine actions', () => {
  it('a save sends the trimmed texts for the file and keeps the file as saved', async () => {
    const { actor, sent } = start();
    actor.send({ type: 'text.change', field: 'alt', value: '  A ramp  ' });
    actor.send({ type: 'text.save' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toEqual([{ holder, mediaId: 5, body: { alt: 'A ramp', description: 'Old' } }]);
    expect(actor.getSnapshot().context).toMatchObject({ saved: true, media: { alt: 'A ramp' } });
  });

  it('a refusal keeps the drafts and the message; cancel drops both, a new edit starts from the saved file', async () => {
    const { actor } = start(() => Promise.reject(new ApiError(403, 'forbidden', 'Not yours.', '')));
    actor.send({ type: 'text.change', field: 'description', value: 'New' });
    actor.send({ type: 'text.save' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context).toMatchObject({ description: 'New', error: { message: 'Not yours.' } });
    actor.send({ type: 'text.cancel' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'text.edit' });
    expect(actor.getSnapshot().context).toMatchObject({ description: 'Old', saved: false });
  });
});
