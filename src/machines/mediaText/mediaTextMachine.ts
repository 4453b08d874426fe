/**
 * The alt text and description of one file as an artifact holds it (the edit page's files).
 *
 * idle ─(text.edit)→ editing (the saved values as drafts)
 * editing ─(text.change)→ editing
 *    ├─(text.save: within the limits)→ saving ─(saved)→ idle (the file as saved; 'Alt text and description saved')
 *    │                                    └─(refused / failed)→ editing (the message shows; the drafts kept)
 *    └─(text.cancel)→ idle (the drafts dropped)
 *
 * An image without alt text is prompted for it (a note and "Add alt text"); nothing is blocked.
 *
 * Happy path: the teacher opens "Add alt text" on a photo, describes it, saves, and the photo's
 * `alt` is that description wherever it appears.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Media, MediaKind } from '../../schemas/media.ts';
import { ALT_MAX, DESCRIPTION_MAX, type MediaTextBody } from '../../schemas/moments.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { saveMediaText, type MediaHolder } from '../../services/momentService.ts';

export interface MediaTextInput {
  holder: MediaHolder;
  kind: MediaKind;
  media: Media;
}

export interface MediaTextContext extends MediaTextInput {
  alt: string;
  description: string;
  error: UiError | null;
  /** The last save succeeded (until the next edit). */
  saved: boolean;
}

export type MediaTextEvent =
  | { type: 'text.edit' }
  | { type: 'text.change'; field: 'alt' | 'description'; value: string }
  | { type: 'text.save' }
  | { type: 'text.cancel' };

/** Whether a file should be prompted for alt text: an image with none. */
export const needsAlt = (kind: MediaKind, media: Pick<Media, 'alt'>): boolean => kind === 'images' && media.alt.trim() === '';

export const mediaTextMachine = setup({
  types: {
    context: {} as MediaTextContext,
    events: {} as MediaTextEvent,
    input: {} as MediaTextInput,
    tags: {} as 'busy',
  },
  actors: {
    saveMediaText: fromPromise<Media, { holder: MediaHolder; mediaId: number; body: MediaTextBody }>(({ input, signal }) => saveMediaText(input.holder, input.mediaId, input.body, signal)),
  },
  guards: {
    withinLimits: ({ context }) => context.alt.length <= ALT_MAX && context.description.length <= DESCRIPTION_MAX,
  },
  actions: {
    openDrafts: assign({ alt: ({ context }) => context.media.alt, description: ({ context }) => context.media.description, error: null, saved: false }),
    change: assign(({ context }, params: { field: 'alt' | 'description'; value: string }) => ({
      ...context,
      [params.field]: params.value.slice(0, params.field === 'alt' ? ALT_MAX : DESCRIPTION_MAX),
    })),
    storeMedia: assign({ media: (_, params: { media: Media }) => params.media, saved: true }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'mediaText',
  context: ({ input }) => ({ ...input, alt: input.media.alt, description: input.media.description, error: null, saved: false }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'text.edit': { target: 'editing', actions: 'openDrafts' } },
    },
    editing: {
      on: {
        'text.change': { actions: { type: 'change', params: ({ event }) => event } },
        'text.save': { guard: 'withinLimits', target: 'saving' },
        'text.cancel': { target: 'idle', actions: 'clearError' },
      },
    },
    saving: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'saveMediaText',
        src: 'saveMediaText',
        input: ({ context }) => ({ holder: context.holder, mediaId: context.media.id, body: { alt: context.alt.trim(), description: context.description.trim() } }),
        onDone: {
          target: 'idle',
          actions: { type: 'storeMedia', params: ({ event }) => ({ media: event.output }) },
        },
        onError: { target: 'editing', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});

export type MediaTextMachine = typeof mediaTextMachine;
