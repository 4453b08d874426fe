import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  CAPTIONS_SAVED_MESSAGE,
  captionEditorMachine,
  type CaptionEditorEvent,
} from '../../src/machines/captionEditor/captionEditorMachine.ts';
import { cueProblems, showTime, type CaptionsDraft } from '../../src/machines/captionEditor/cues.ts';
import { parseClock } from '../../src/schemas/formatting.ts';
import { MomentsContext } from '../../src/machines/momentComment/useMomentComment.ts';
import type { CaptionTrack, CaptionUpdateBody } from '../../src/schemas/moments.ts';
import { readDraft, writeDraft } from '../../src/services/drafts.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { currentUser } from '../../src/services/session.ts';
import { makeUser } from '../../src/test/renderApp.tsx';
import { makeTrack, provideTestMoments } from '../../src/test/videoHarness.tsx';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { CaptionEditor, DISCARD_CAPTIONS_QUESTION } from '../../src/views/video/CaptionEditor.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(captionEditorMachine);

type Snapshot = SnapshotFrom<typeof captionEditorMachine>;

const TRACK = makeTrack();
const DURATION = 12;
const NEW_TEXT = 'Ready, steady, go!';
const NEW_LABEL = 'English (edited)';
const SAVED: CaptionTrack = {
  ...TRACK,
  cues: [{ ...TRACK.cues[0]!, text: NEW_TEXT }, TRACK.cues[1]!],
  updated_at: '2026-03-06T10:00:00.000Z',
};
const offline = new NetworkError();
const refused = new ApiError(400, 'invalid_captions', 'Caption 2: the end is after the end of the video.', '');

const ev = modelEvent<CaptionEditorEvent>();

/**
 * A draft of this track left by a reload before the editor opens (typed over the saved version):
 * offered once the cues are loaded, put back by Restore, forgotten once saved or discarded.
 */
const USER = makeUser('teacher');
const DRAFT_FORM = `captions:${TRACK.id}`;
const DRAFT_TEXT = 'Ready, steady… (typed before the reload)';
const DRAFT: CaptionsDraft = {
  label: TRACK.label,
  language: 'en',
  cues: [
    { start: showTime(0.5), end: showTime(2.5), text: DRAFT_TEXT },
    { start: showTime(3), end: showTime(5), text: TRACK.cues[1]!.text },
  ],
};
const DRAFT_STORED = JSON.stringify([DRAFT.label, DRAFT.language, DRAFT.cues.map((c) => [c.start, c.end, c.text])]);
const offerBar = () => screen.queryByRole('group', { name: 'Unsaved captions' });

/**
 * The model's events. To keep the paths few while taking every transition: each edit is made
 * once from the untouched track, and only a changed text, a removed cue or an added (empty) cue
 * is saved; a discard is asked from the untouched track and after changing a text.
 */
function events(snapshot: unknown): CaptionEditorEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: CaptionEditorEvent[] = [];
  const changedText = c.cues.length === 2 && c.cues[0]!.text === NEW_TEXT;
  const untouched =
    c.cues.length === 2 &&
    c.cues[0]!.text === TRACK.cues[0]!.text &&
    c.label === TRACK.label &&
    !c.showProblems &&
    c.error === null;
  if (isInvoking(s, 'loadCaptions'))
    list.push(
      ev('xstate.done.actor.loadCaptions', { output: TRACK }),
      ev('xstate.error.actor.loadCaptions', { error: offline }),
    );
  if (s.matches('failed')) list.push({ type: 'retry' }, { type: 'editor.discard' });
  if (s.matches('editing')) {
    if (untouched) {
      list.push(
        { type: 'cue.change', index: 0, field: 'text', value: NEW_TEXT },
        { type: 'cue.add' },
        { type: 'cue.remove', index: 1 },
        { type: 'track.change', field: 'label', value: NEW_LABEL },
        { type: 'editor.discard' },
        { type: 'track.restore', track: DRAFT },
      );
    }
    if (c.cues[0]?.text === DRAFT_TEXT && c.error === null)
      list.push({ type: 'editor.save' }, { type: 'editor.discard' });
    if (changedText && c.error === null) list.push({ type: 'editor.save' }, { type: 'editor.discard' });
    if (c.cues.length === 1 && c.error === null) list.push({ type: 'editor.save' });
    if (c.cues.length === 3 && !c.showProblems) list.push({ type: 'editor.save' });
  }
  if (s.matches('confirmingDiscard')) list.push({ type: 'discard.confirm' }, { type: 'discard.cancel' });
  if (isInvoking(s, 'saveCaptions'))
    list.push(
      ev('xstate.done.actor.saveCaptions', { output: SAVED }),
      ev('xstate.error.actor.saveCaptions', { error: refused }),
    );
  return list.filter((event) => s.can(event));
}

function setup() {
  const save = controllableActor<CaptionTrack, { trackId: number; body: CaptionUpdateBody }>();
  const load = controllableActor<CaptionTrack, { trackId: number }>();
  const onSaved = vi.fn();
  const onClosed = vi.fn();
  const moments = provideTestMoments(
    { captions: { saveCaptions: save.logic, loadCaptions: load.logic } },
    coverageInspector,
  );
  localStorage.clear();
  currentUser.value = USER;
  writeDraft(USER.id, DRAFT_FORM, DRAFT_STORED, TRACK.updated_at);
  /** The editor goes away once saved or closed, as on the video's page. */
  function Page() {
    const [open, setOpen] = useState(true);
    if (!open) return <p>Editor closed</p>;
    const close = (spy: () => void) => () => {
      spy();
      setOpen(false);
    };
    return (
      <CaptionEditor
        track={TRACK}
        duration={DURATION}
        onSaved={(track) => close(() => onSaved(track))()}
        onClosed={close(onClosed)}
      />
    );
  }
  render(
    <>
      <MomentsContext.Provider value={moments}>
        <Page />
      </MomentsContext.Provider>
      <Toaster />
    </>,
  );
  return { save, load, onSaved, onClosed, loaded: false, ux: userEvent.setup({ delay: null }) };
}

let h: ReturnType<typeof setup>;

const editor = () => screen.getByRole('form', { name: `Edit captions: ${TRACK.label}` });
const cue = (n: number) => within(editor()).getByRole('group', { name: `Caption ${n}` });

const checks = {
  loading: async () => {
    expect(screen.getByRole('status').textContent).toBe('Loading the captions…');
    expect(h.load.calls.at(-1)!.input).toEqual({ trackId: TRACK.id });
    expect(screen.queryByRole('form')).toBeNull();
  },
  failed: async () => {
    expect(screen.getByRole('alert').textContent).toContain('The captions could not be loaded.');
    expect(screen.queryByRole('form')).toBeNull();
  },
  editing: async (s: Snapshot) => {
    const form = editor();
    expect(form.getAttribute('aria-busy')).toBeNull();
    expect((within(form).getByRole('textbox', { name: 'Track label' }) as HTMLInputElement).value).toBe(
      s.context.label,
    );
    const groups = within(form).getAllByRole('group');
    expect(groups.map((g) => g.querySelector('legend')?.textContent)).toEqual(
      s.context.cues.map((_, i) => `Caption ${i + 1}`),
    );
    s.context.cues.forEach((c, i) => {
      expect((within(cue(i + 1)).getByRole('textbox', { name: 'Start (m:ss)' }) as HTMLInputElement).value).toBe(
        c.start,
      );
      expect((within(cue(i + 1)).getByRole('textbox', { name: 'End (m:ss)' }) as HTMLInputElement).value).toBe(c.end);
      expect((within(cue(i + 1)).getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement).value).toBe(c.text);
    });
    const problems = within(form).queryByRole('alert', { name: 'Problems to fix before saving' });
    if (s.context.showProblems) {
      // The added caption is empty: the problem is listed and its field marked.
      const expected = cueProblems(s.context, DURATION).map((p) => p.message);
      expect(expected.length).toBeGreaterThan(0);
      expect(
        within(problems!)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(expected);
      expect(within(cue(3)).getByRole('textbox', { name: 'Text' }).getAttribute('aria-invalid')).toBe('true');
    } else {
      expect(problems).toBeNull();
    }
    if (s.context.error) expect(within(form).getByText(refused.message).getAttribute('role')).toBe('alert');
    // The draft is offered until it is answered; once restored it is in the boxes and the offer is gone.
    if (s.context.cues[0]?.text === DRAFT_TEXT) expect(offerBar()).toBeNull();
    else if (
      s.context.label === TRACK.label &&
      s.context.cues.length === 2 &&
      s.context.cues[0]!.text === TRACK.cues[0]!.text &&
      !s.context.showProblems
    ) {
      expect(offerBar()!.querySelector('p')!.textContent).toMatch(
        /^Restore your unsaved text from \d{1,2}:\d\d[ap]m\?$/,
      );
    }
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(h.onSaved).not.toHaveBeenCalled();
    expect(h.onClosed).not.toHaveBeenCalled();
  },
  saving: async (s: Snapshot) => {
    expect(editor().getAttribute('aria-busy')).toBe('true');
    const call = h.save.calls.at(-1)!;
    expect(call.input).toEqual({
      trackId: TRACK.id,
      body: {
        label: s.context.label,
        language: 'en',
        cues: s.context.cues.map((c) => ({ start: parseClock(c.start), end: parseClock(c.end), text: c.text })),
      },
    });
  },
  confirmingDiscard: async () => {
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain(DISCARD_CAPTIONS_QUESTION);
  },
  saved: async () => {
    expect(h.onSaved).toHaveBeenCalledWith(SAVED);
    expect(await screen.findByText(CAPTIONS_SAVED_MESSAGE)).toBeTruthy();
    // Saved: the draft is forgotten.
    await act(() => vi.waitFor(() => expect(readDraft(USER.id, DRAFT_FORM)).toBeNull()));
  },
  closed: async () => {
    expect(h.onClosed).toHaveBeenCalledTimes(1);
    expect(h.onSaved).not.toHaveBeenCalled();
    // Discarded: the draft is forgotten; never offered (the cues did not load), it stays for the next time.
    await act(() =>
      vi.waitFor(() => expect(readDraft(USER.id, DRAFT_FORM)?.text ?? null).toBe(h.loaded ? null : DRAFT_STORED)),
    );
  },
};

beforeEach(() => clearToasts());
afterEach(() => {
  clearToasts();
  localStorage.clear();
  currentUser.value = null;
});

describe('captionEditor model (a caption track edited cue by cue)', () => {
  const paths = checkedShortestPaths(
    captionEditorMachine,
    { input: { track: TRACK, duration: DURATION }, events },
    checks,
    9,
  );
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = setup();
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'cue.change': async () => {
            const box = within(cue(1)).getByRole('textbox', { name: 'Text' });
            await h.ux.clear(box);
            await h.ux.type(box, NEW_TEXT);
          },
          'cue.add': async () => {
            await h.ux.click(within(editor()).getByRole('button', { name: 'Add caption' }));
          },
          'cue.remove': async () => {
            await h.ux.click(within(editor()).getByRole('button', { name: 'Remove caption 2' }));
          },
          'track.restore': async () => {
            await h.ux.click(within(offerBar()!).getByRole('button', { name: 'Restore' }));
          },
          'track.change': async () => {
            const box = within(editor()).getByRole('textbox', { name: 'Track label' });
            await h.ux.clear(box);
            await h.ux.type(box, NEW_LABEL);
          },
          'editor.save': async () => {
            await h.ux.click(within(editor()).getByRole('button', { name: 'Save captions' }));
          },
          'editor.discard': async () => {
            const close = screen.queryByRole('button', { name: 'Close' });
            await h.ux.click(close ?? within(editor()).getByRole('button', { name: 'Discard' }));
          },
          'discard.confirm': async () => {
            await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES' }));
          },
          'discard.cancel': async () => {
            await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'NO' }));
          },
          'xstate.done.actor.loadCaptions': async () => {
            h.loaded = true;
            await act(async () => h.load.next().deferred.resolve(TRACK));
          },
          'xstate.error.actor.loadCaptions': async () => {
            await act(async () => h.load.next().deferred.reject(offline));
          },
          retry: async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
          },
          'xstate.done.actor.saveCaptions': async () => {
            await act(async () => h.save.next().deferred.resolve(SAVED));
          },
          'xstate.error.actor.saveCaptions': async () => {
            await act(async () => h.save.next().deferred.reject(refused));
          },
        },
      });
    });
  }
});
