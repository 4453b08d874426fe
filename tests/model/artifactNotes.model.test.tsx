import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  artifactNotesMachine,
  type ArtifactNotesEvent,
} from '../../src/machines/artifactNotes/artifactNotesMachine.ts';
import type { MomentPost } from '../../src/machines/momentComment/momentCommentMachine.ts';
import { MomentsContext } from '../../src/machines/momentComment/useMomentComment.ts';
import type { CaptionTrack, Note } from '../../src/schemas/moments.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { makeVideo, provideTestMoments, stubMediaElements } from '../../src/test/videoHarness.tsx';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { NOTES_PRIVACY, PersonalVideoMoments } from '../../src/views/video/PersonalVideoMoments.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import { formatMoment } from '../../src/schemas/formatting.ts';

trackCoverage(artifactNotesMachine);

type Snapshot = SnapshotFrom<typeof artifactNotesMachine>;

const ARTIFACT = 31;
const VIDEO = makeVideo();
const note = (id: number, start: number, text: string): Note => ({
  id,
  artifact: ARTIFACT,
  media: VIDEO.id,
  start,
  end: null,
  text,
  created_at: '2026-03-05T10:00:00.000Z',
  updated_at: '2026-03-05T10:00:00.000Z',
});
const FIRST = note(51, 3, 'They start to predict here.');
const ADDED = note(52, 5, 'A good question from Ana.');
const offline = new NetworkError();

const ev = modelEvent<ArtifactNotesEvent>();

/** What the server lists: the one note at first, then also the note just written. */
const listed = (s: Snapshot): Note[] => (s.context.notes.length === 0 ? [FIRST] : [FIRST, ADDED]);

/**
 * The model's events. To keep the paths few while taking every transition: a note is written or
 * deleted only from the first list of one note, without a failure.
 */
function events(snapshot: unknown): ArtifactNotesEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: ArtifactNotesEvent[] = [];
  if (isInvoking(s, 'listNotes'))
    list.push(
      ev('xstate.done.actor.listNotes', { output: listed(s) }),
      ev('xstate.error.actor.listNotes', { error: offline }),
    );
  if (s.matches('failed')) list.push({ type: 'retry' });
  if (s.matches('ready') && c.notes.length === 1 && c.error === null)
    list.push({ type: 'notes.refresh' }, { type: 'note.delete', noteId: FIRST.id });
  if (isInvoking(s, 'deleteNote'))
    list.push(
      ev('xstate.done.actor.deleteNote', { output: FIRST }),
      ev('xstate.error.actor.deleteNote', { error: offline }),
    );
  return list.filter((event) => s.can(event));
}

function setup() {
  const media = stubMediaElements(12);
  const fakes = {
    listNotes: controllableActor<Note[], { artifactId: number }>(),
    deleteNote: controllableActor<Note, { noteId: number }>(),
    postMoment: controllableActor<unknown, MomentPost>(),
    listCaptions: controllableActor<CaptionTrack[], { mediaId: number }>(),
  };
  const moments = provideTestMoments(
    {
      notes: { listNotes: fakes.listNotes.logic, deleteNote: fakes.deleteNote.logic },
      composer: { postMoment: fakes.postMoment.logic },
      player: { listCaptions: fakes.listCaptions.logic },
    },
    coverageInspector,
  );
  const location = memoryLocation({ path: `/my-portfolios/7/artifacts/${ARTIFACT}` });
  render(
    <Router hook={location.hook}>
      <MomentsContext.Provider value={moments}>
        <PersonalVideoMoments artifactId={ARTIFACT} videos={[VIDEO]} />
      </MomentsContext.Provider>
      <Toaster />
    </Router>,
  );
  return { fakes, media, ux: userEvent.setup({ delay: null }) };
}

let h: ReturnType<typeof setup>;

const section = () => screen.getByRole('region', { name: 'My private notes on the video' });
const noteList = () => within(section()).queryByRole('list', { name: 'My notes' });

function expectNotes(notes: readonly Note[]) {
  const items = noteList() ? within(noteList()!).getAllByRole('listitem') : [];
  expect(items.map((li) => li.getAttribute('aria-label'))).toEqual(notes.map((n) => `Note at ${formatMoment(n)}`));
  expect(items.map((li) => li.querySelector('p')?.textContent)).toEqual(notes.map((n) => n.text));
  // The timeline shows a marker for each note.
  for (const n of notes)
    expect(within(section()).getByRole('button', { name: `Your note at ${formatMoment(n)}` })).toBeTruthy();
}

const checks = {
  loading: async (s: Snapshot) => {
    expect(within(section()).getByText(NOTES_PRIVACY)).toBeTruthy();
    expect(h.fakes.listNotes.calls.at(-1)!.input).toEqual({ artifactId: ARTIFACT });
    if (s.context.notes.length === 0)
      expect(within(section()).getByText('Loading notes…').getAttribute('role')).toBe('status');
    else expect(within(section()).queryByText('Loading notes…')).toBeNull();
    expectNotes(s.context.notes);
  },
  failed: async (s: Snapshot) => {
    const alert = within(section()).getByRole('alert');
    expect(alert.textContent).toContain(`The notes could not be loaded. ${s.context.error!.message}`);
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(noteList()).toBeNull();
  },
  ready: async (s: Snapshot) => {
    expect(section().getAttribute('aria-busy')).toBeNull();
    expectNotes(s.context.notes);
    if (s.context.notes.length === 0) expect(within(section()).getByText(/^No notes yet/)).toBeTruthy();
    if (s.context.error) expect(within(section()).getByRole('alert').textContent).toBe(s.context.error.message);
    else expect(within(section()).queryByRole('alert')).toBeNull();
  },
  deleting: async (s: Snapshot) => {
    expect(section().getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.deleteNote.calls.at(-1)!.input).toEqual({ noteId: s.context.deletingId });
  },
};

beforeEach(() => clearToasts());
afterEach(() => clearToasts());

describe('artifactNotes model (private notes at moments of one’s own videos)', () => {
  const paths = checkedShortestPaths(artifactNotesMachine, { input: { artifactId: ARTIFACT }, events }, checks, 4);
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = setup();
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'xstate.done.actor.listNotes': async (step) => {
            const output = (step.event as unknown as { output: Note[] }).output;
            await act(async () => h.fakes.listNotes.next().deferred.resolve(output));
          },
          'xstate.error.actor.listNotes': async () => {
            await act(async () => h.fakes.listNotes.next().deferred.reject(offline));
          },
          retry: async () => {
            await h.ux.click(within(section()).getByRole('button', { name: 'Try again' }));
          },
          'notes.refresh': async () => {
            // "Note at 0:05" while the video plays, a text, Post Note: the list is read again.
            const video = document.querySelector('video')!;
            await act(async () => video.play());
            act(() => {
              video.currentTime = ADDED.start;
              fireEvent.timeUpdate(video);
            });
            await h.ux.click(within(section()).getByRole('button', { name: 'Note at 0:05' }));
            await h.ux.type(within(section()).getByRole('textbox', { name: 'Note text' }), ADDED.text);
            await h.ux.click(within(section()).getByRole('button', { name: 'Post Note' }));
            const post = h.fakes.postMoment.next();
            expect(post.input).toEqual({
              target: 'note',
              artifactId: ARTIFACT,
              moment: { media: VIDEO.id, start: ADDED.start, end: null },
              text: ADDED.text,
            });
            expect(h.media.pause).toHaveBeenCalled();
            await act(async () => post.deferred.resolve(ADDED));
            expect(await screen.findByText('Note added at 0:05')).toBeTruthy();
          },
          'note.delete': async () => {
            await h.ux.click(within(section()).getByRole('button', { name: `Delete note at ${formatMoment(FIRST)}` }));
          },
          'xstate.done.actor.deleteNote': async () => {
            await act(async () => h.fakes.deleteNote.next().deferred.resolve(FIRST));
          },
          'xstate.error.actor.deleteNote': async () => {
            await act(async () => h.fakes.deleteNote.next().deferred.reject(offline));
          },
        },
      });
    });
  }
});
