import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { mediaTextMachine, type MediaTextEvent } from '../../src/machines/mediaText/mediaTextMachine.ts';
import { useMediaTextActor, useMediaText } from '../../src/machines/mediaText/useMediaText.ts';
import type { Media } from '../../src/schemas/media.ts';
import type { MediaTextBody } from '../../src/schemas/moments.ts';
import type { MediaHolder } from '../../src/services/momentService.ts';
import { ApiError } from '../../src/services/errors.ts';
import { makeMedia } from '../../src/test/artifactFixtures.ts';
import { MediaPreview } from '../../src/views/artifacts/MediaList.tsx';
import { ALT_PROMPT, MediaTextEditor } from '../../src/views/artifacts/MediaTextEditor.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName, stepLabel } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(mediaTextMachine);

type Snapshot = SnapshotFrom<typeof mediaTextMachine>;

const IMAGE = makeMedia('images', {
  id: 41,
  name: 'ramp.png',
  caption: 'A',
  alt: '',
  description: '',
  formats: { thumbnail: { url: '/uploads/thumb_ramp.png' } } as never,
});
const ALT = 'Two toy cars at the top of a ramp';
const DESCRIPTION = 'The red car is heavier.';
const SAVED: Media = { ...IMAGE, alt: ALT, description: DESCRIPTION };
const HOLDER: MediaHolder = { kind: 'artifact', artifactId: 7 };
const refused = new ApiError(400, 'invalid_request', 'Alt text can be at most 1000 characters.', '');

const ev = modelEvent<MediaTextEvent>();

/** The model's events: the fields are written once each from the fresh editor, then saved (or cancelled). */
function events(snapshot: unknown): MediaTextEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: MediaTextEvent[] = [];
  if (s.matches('idle') && c.media.alt === '') list.push({ type: 'text.edit' });
  if (s.matches('editing')) {
    if (c.alt === '') list.push({ type: 'text.change', field: 'alt', value: ALT });
    if (c.alt === ALT && c.description === '')
      list.push({ type: 'text.change', field: 'description', value: DESCRIPTION });
    if (c.error === null && c.alt === ALT) list.push({ type: 'text.save' });
    list.push({ type: 'text.cancel' });
  }
  if (isInvoking(s, 'saveMediaText'))
    list.push(
      ev('xstate.done.actor.saveMediaText', { output: SAVED }),
      ev('xstate.error.actor.saveMediaText', { error: refused }),
    );
  return list.filter((event) => s.can(event));
}

/** An event in a path's name, with the field it writes. */
const stepName = (e: { type: string; field?: string }) => stepLabel(e.type) + (e.field ? ` ${e.field}` : '');

/** A file tile as the edit page shows it: its picture (the alt as saved) and its alt text editor. */
function Tile({ logic }: { logic: typeof mediaTextMachine }) {
  const editor = useMediaTextActor(
    { holder: HOLDER, kind: 'images', media: IMAGE },
    { logic, inspect: coverageInspector },
  );
  const { media } = useMediaText(editor);
  return (
    <div>
      <MediaPreview kind="images" media={media} />
      <MediaTextEditor editor={editor} kind="images" />
    </div>
  );
}

function setup() {
  const save = controllableActor<Media, { holder: MediaHolder; mediaId: number; body: MediaTextBody }>();
  const logic = mediaTextMachine.provide({ actors: { saveMediaText: save.logic } });
  const view = render(<Tile logic={logic} />);
  return { save, view, ux: userEvent.setup({ delay: null }) };
}

let h: ReturnType<typeof setup>;

const LABEL = 'ramp';
const group = () => screen.getByRole('group', { name: `Alt text and description of ${LABEL}` });
const img = () => h.view.container.querySelector('img')!;

const checks = {
  idle: async (s: Snapshot) => {
    expect(screen.queryByRole('group')).toBeNull();
    // The image's alt is its saved alt text; without one, a prompt (the page is not blocked).
    expect(img().getAttribute('alt')).toBe(s.context.media.alt);
    if (s.context.media.alt === '') {
      expect(screen.getByText(ALT_PROMPT)).toBeTruthy();
      expect(screen.getByRole('button', { name: `Add alt text of ${LABEL}` })).toBeTruthy();
    } else {
      expect(screen.queryByText(ALT_PROMPT)).toBeNull();
      expect(screen.getByRole('button', { name: `Edit alt text of ${LABEL}` })).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe('Saved');
    }
  },
  editing: async (s: Snapshot) => {
    expect((within(group()).getByRole('textbox', { name: 'Alt text' }) as HTMLInputElement).value).toBe(s.context.alt);
    expect((within(group()).getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).value).toBe(
      s.context.description,
    );
    expect(group().getAttribute('aria-busy')).toBeNull();
    if (s.context.error) expect(within(group()).getByRole('alert').textContent).toBe(refused.message);
    else expect(within(group()).queryByRole('alert')).toBeNull();
    expect(img().getAttribute('alt')).toBe('');
  },
  saving: async (s: Snapshot) => {
    expect(group().getAttribute('aria-busy')).toBe('true');
    expect(h.save.calls.at(-1)!.input).toEqual({
      holder: HOLDER,
      mediaId: IMAGE.id,
      body: { alt: s.context.alt, description: s.context.description },
    });
  },
};

describe('mediaText model (the alt text and description of a file)', () => {
  const paths = checkedShortestPaths(
    mediaTextMachine,
    { input: { holder: HOLDER, kind: 'images', media: IMAGE }, events },
    checks,
    4,
  );
  for (const path of paths) {
    it(`${pathName(path, stepName)}`, async () => {
      h = setup();
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'text.edit': async () => {
            await h.ux.click(screen.getByRole('button', { name: `Add alt text of ${LABEL}` }));
          },
          'text.change': async (step) => {
            const { field } = step.event as unknown as { field: 'alt' | 'description' };
            const box = within(group()).getByRole('textbox', { name: field === 'alt' ? 'Alt text' : 'Description' });
            await h.ux.type(box, field === 'alt' ? ALT : DESCRIPTION);
          },
          'text.save': async () => {
            await h.ux.click(within(group()).getByRole('button', { name: 'Save' }));
          },
          'text.cancel': async () => {
            await h.ux.click(within(group()).getByRole('button', { name: 'Cancel' }));
          },
          'xstate.done.actor.saveMediaText': async () => {
            await act(async () => h.save.next().deferred.resolve(SAVED));
          },
          'xstate.error.actor.saveMediaText': async () => {
            await act(async () => h.save.next().deferred.reject(refused));
          },
        },
      });
    });
  }
});
