/**
 * What an image viewer opened from a bare link (as the mobile apps open files, or a link in a new
 * tab) learns of its file from the server: its name as uploaded, its alt text and the artifact of
 * the link's holder that holds it (the way back).
 *
 * starting ─(the viewer knows the file already: opened from an artifact)→ skipped
 *    └→ loading ─(found)→ known
 *          └─(failed, or the link is not genuine)→ unknown (the viewer falls back on "Image" and Back)
 *
 * Happy path: a teacher taps a photo in the mobile app; the viewer opens titled "ramp-photo.jpg"
 * with "← Back to Ramp races".
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ViewedFile } from '../../schemas/media.ts';
import { getViewedFile } from '../../services/mediaService.ts';

export interface ViewedFileInput {
  /** The capability part of the file's address; `null` when the viewer knows the file already. */
  capability: string | null;
  /** The stored file's name. */
  name: string;
}

export interface ViewedFileContext extends ViewedFileInput {
  file: ViewedFile | null;
}

export const viewedFileMachine = setup({
  types: { context: {} as ViewedFileContext, input: {} as ViewedFileInput },
  actors: {
    fetchViewedFile: fromPromise<ViewedFile, { capability: string; name: string }>(({ input, signal }) =>
      getViewedFile(input.capability, input.name, signal),
    ),
  },
  guards: {
    isKnownAlready: ({ context }) => context.capability === null || context.capability === '' || context.name === '',
  },
}).createMachine({
  id: 'viewedFile',
  context: ({ input }) => ({ ...input, file: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'isKnownAlready', target: 'skipped' }, { target: 'loading' }],
    },
    skipped: { type: 'final' },
    loading: {
      invoke: {
        id: 'fetchViewedFile',
        src: 'fetchViewedFile',
        input: ({ context }) => ({ capability: context.capability ?? '', name: context.name }),
        onDone: { target: 'known', actions: assign({ file: ({ event }) => event.output }) },
        onError: 'unknown',
      },
    },
    known: { type: 'final' },
    unknown: { type: 'final' },
  },
});

export type ViewedFileMachine = typeof viewedFileMachine;
