/**
 * The local draft of one form's typed text (a comment, a comment being edited, a moment comment):
 * kept in the browser as it is typed, offered back when the same form opens again, forgotten once
 * saved or discarded.
 *
 * starting ─(no user, or no draft other than the text shown)→ tracking
 *    └─(a draft of this user and form that differs from the text shown)→ offering
 * offering ─(draft.restore)→ tracking (the form takes the draft's text)
 *    └─(draft.discard)→ tracking (the draft is forgotten, or replaced by what was typed meanwhile)
 * tracking.idle ─(text.change)→ tracking.typing ─(after persistDelay, or page.hidden)→ tracking.idle (kept; or
 *                                                  forgotten when the text is the saved one or blank)
 * any ─(form.closed: the form went away inside the app — saved, cancelled or left on purpose)→ closed (forgotten)
 *
 * A draft typed over an older version of the server's copy is offered with a warning that the
 * copy changed since; it is never put into the form without the user's choice.
 *
 * Happy path: a teacher types a comment, the tab crashes; she opens the artifact again, "Restore
 * your unsaved text from 10:42am?" — Restore, and the comment is back in the box.
 */
import { assign, emit, setup } from 'xstate';
import { deleteDraft, readDraft, writeDraft, type StoredDraft } from '../../services/drafts.ts';

/** How long after the last keystroke the draft is written. */
export const PERSIST_DELAY_MS = 500;

export interface LocalDraftInput {
  /** The signed-in user (`null`: no drafts). */
  userId: number | null;
  /** The form and its object, e.g. `comment:new:70`. */
  form: string;
  /** The text the form shows when it opens (the saved text, or '' for something new). */
  current: string;
  /** The version of the server's copy (e.g. its `updated_at`), `null` for something new. */
  base: string | null;
}

export interface LocalDraftContext extends LocalDraftInput {
  /** The text as typed. */
  text: string;
  /** The draft offered back. */
  offer: StoredDraft | null;
}

export type LocalDraftEvent =
  | { type: 'text.change'; text: string }
  | { type: 'draft.restore' }
  | { type: 'draft.discard' }
  | { type: 'form.closed' }
  /** The page is being hidden or unloaded (a reload, a closed tab): what is typed is kept at once. */
  | { type: 'page.hidden' };

/** Heard by `actor.on('draft.restored', …)`: the text to put into the form. */
export type DraftRestoredEmitted = { type: 'draft.restored'; text: string };

/** Whether the offered draft was typed over an older version of the server's copy. */
export const isStale = (context: Pick<LocalDraftContext, 'offer' | 'base'>): boolean =>
  context.offer !== null && context.offer.base !== context.base;

export const localDraftMachine = setup({
  types: {
    context: {} as LocalDraftContext,
    events: {} as LocalDraftEvent,
    input: {} as LocalDraftInput,
    emitted: {} as DraftRestoredEmitted,
  },
  delays: {
    persistDelay: PERSIST_DELAY_MS,
  },
  guards: {
    hasOffer: ({ context }) => context.offer !== null,
  },
  actions: {
    storeText: assign({ text: (_, params: { text: string }) => params.text }),
    /** Keeps the text as the draft, or forgets the draft when there is nothing unsaved. */
    persist: ({ context }) => {
      if (context.userId === null) return;
      if (context.text.trim() === '' || context.text === context.current) deleteDraft(context.userId, context.form);
      else writeDraft(context.userId, context.form, context.text, context.base);
    },
    forget: ({ context }) => {
      if (context.userId !== null) deleteDraft(context.userId, context.form);
    },
    clearOffer: assign({ offer: null }),
    takeOffer: assign({ text: ({ context }) => context.offer?.text ?? context.text }),
    /** Listeners put the draft's text into the form (the form's own change). */
    emitRestored: emit(({ context }) => ({ type: 'draft.restored' as const, text: context.offer?.text ?? '' })),
  },
}).createMachine({
  id: 'localDraft',
  context: ({ input }) => {
    const stored = input.userId === null ? null : readDraft(input.userId, input.form);
    return {
      ...input,
      text: input.current,
      offer: stored && stored.text !== input.current && stored.text.trim() !== '' ? stored : null,
    };
  },
  initial: 'starting',
  on: {
    'form.closed': '.closed',
  },
  states: {
    starting: {
      always: [{ guard: 'hasOffer', target: 'offering' }, { target: 'tracking' }],
    },
    offering: {
      on: {
        // Typed before answering: the offered draft stays stored until the user answers.
        'text.change': { actions: { type: 'storeText', params: ({ event }) => event } },
        'draft.restore': {
          target: 'tracking',
          actions: ['takeOffer', 'emitRestored', 'clearOffer'],
        },
        // The offered draft goes; what was typed meanwhile is kept as the draft instead.
        'draft.discard': { target: 'tracking', actions: ['clearOffer', 'persist'] },
      },
    },
    tracking: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'text.change': { target: 'typing', actions: { type: 'storeText', params: ({ event }) => event } } },
        },
        typing: {
          after: { persistDelay: { target: 'idle', actions: 'persist' } },
          on: {
            'text.change': {
              target: 'typing',
              reenter: true,
              actions: { type: 'storeText', params: ({ event }) => event },
            },
            'page.hidden': { target: 'idle', actions: 'persist' },
          },
        },
      },
    },
    closed: {
      type: 'final',
      entry: 'forget',
    },
  },
});

export type LocalDraftMachine = typeof localDraftMachine;
