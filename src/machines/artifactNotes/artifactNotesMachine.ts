/**
 * The owner's private notes at moments of the videos of her own artifact (only she sees them).
 *
 * loading ─(notes)→ ready   └─(failed)→ failed ─(retry)→ loading
 * ready ─(notes.refresh: a note was added)→ loading (the listed notes stay meanwhile)
 * ready ─(note.delete)→ deleting ─(deleted)→ ready (the note goes; 'Note deleted')
 *                          └─(refused / failed)→ ready (the message shows)
 *
 * Happy path: the teacher opens her artifact, plays its video, "Note at 1:05" pauses it, she
 * writes a note; the list and the timeline show it; she copies the artifact with "include notes".
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Note } from '../../schemas/moments.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { deleteNote, listNotes } from '../../services/momentService.ts';

export interface ArtifactNotesInput {
  artifactId: number;
}

export interface ArtifactNotesContext extends ArtifactNotesInput {
  notes: readonly Note[];
  /** The note being deleted. */
  deletingId: number | null;
  error: UiError | null;
}

export type ArtifactNotesEvent =
  { type: 'notes.refresh' } | { type: 'note.delete'; noteId: number } | { type: 'retry' };

/** Notes by video, then time. */
const byMoment = (notes: readonly Note[]): Note[] =>
  [...notes].sort((a, b) => a.media - b.media || a.start - b.start || a.id - b.id);

export const artifactNotesMachine = setup({
  types: {
    context: {} as ArtifactNotesContext,
    events: {} as ArtifactNotesEvent,
    input: {} as ArtifactNotesInput,
    tags: {} as 'busy',
  },
  actors: {
    listNotes: fromPromise<Note[], { artifactId: number }>(({ input, signal }) => listNotes(input.artifactId, signal)),
    deleteNote: fromPromise<Note, { noteId: number }>(({ input, signal }) => deleteNote(input.noteId, signal)),
  },
  guards: {
    isListed: ({ context }, params: { noteId: number }) => context.notes.some((n) => n.id === params.noteId),
  },
  actions: {
    storeNotes: assign({ notes: (_, params: { notes: readonly Note[] }) => byMoment(params.notes), error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    markDeleting: assign({ deletingId: (_, params: { noteId: number }) => params.noteId, error: null }),
    dropDeleted: assign({
      notes: ({ context }) => context.notes.filter((n) => n.id !== context.deletingId),
      deletingId: null,
    }),
    clearDeleting: assign({ deletingId: null }),
  },
}).createMachine({
  id: 'artifactNotes',
  context: ({ input }) => ({ ...input, notes: [], deletingId: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'listNotes',
        src: 'listNotes',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: { target: 'ready', actions: { type: 'storeNotes', params: ({ event }) => ({ notes: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { retry: 'loading' },
    },
    ready: {
      on: {
        'notes.refresh': 'loading',
        'note.delete': {
          guard: { type: 'isListed', params: ({ event }) => event },
          target: 'deleting',
          actions: { type: 'markDeleting', params: ({ event }) => event },
        },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteNote',
        src: 'deleteNote',
        input: ({ context }) => ({ noteId: context.deletingId! }),
        onDone: { target: 'ready', actions: 'dropDeleted' },
        onError: {
          target: 'ready',
          actions: [{ type: 'storeError', params: ({ event }) => ({ error: event.error }) }, 'clearDeleting'],
        },
      },
    },
  },
});

export type ArtifactNotesMachine = typeof artifactNotesMachine;
