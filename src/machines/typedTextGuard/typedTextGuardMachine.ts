/**
 * The boxes with typed text on screen (a comment, a moment comment, a caption being edited, a
 * comment being edited…) and the question before leaving them. Forms with a machine of their
 * own (the artifact form, the shared-portfolio form) ask their own question; this machine covers
 * every other box.
 *
 * clean ⇄ typed (box.typed / box.cleared keep the set of boxes holding unsaved text; the state follows it)
 * clean ─(leave.request)→ clean (the app goes on at once)
 * typed ─(leave.request)→ confirmingLeave ─(leave.confirm)→ clean (the app goes on; the boxes are forgotten)
 *                                         └─(leave.stay)→ typed (the app stays; the text is kept)
 *
 * Happy path: the teacher types a comment and picks another artifact; "Leave this page? Your
 * changes are not saved." — Stay on this page keeps the text; Leave without saving goes on.
 */
import { assign, setup } from 'xstate';
import { effect } from '../shared/effect.ts';

export interface TypedTextGuardContext {
  /** The boxes that hold typed text not yet saved, by a key of each box. */
  boxes: readonly string[];
}

export type TypedTextGuardEvent =
  | { type: 'box.typed'; box: string }
  | { type: 'box.cleared'; box: string }
  | { type: 'leave.request' }
  | { type: 'leave.confirm' }
  | { type: 'leave.stay' };

export const typedTextGuardMachine = setup({
  types: {
    context: {} as TypedTextGuardContext,
    events: {} as TypedTextGuardEvent,
  },
  guards: {
    hasTypedText: ({ context }) => context.boxes.length > 0,
    hasNoTypedText: ({ context }) => context.boxes.length === 0,
  },
  actions: {
    addBox: assign({
      boxes: ({ context }, params: { box: string }) =>
        context.boxes.includes(params.box) ? context.boxes : [...context.boxes, params.box],
    }),
    removeBox: assign({
      boxes: ({ context }, params: { box: string }) => context.boxes.filter((b) => b !== params.box),
    }),
    forgetBoxes: assign({ boxes: [] }),
    /** Lets the held navigation happen (provided by the app). */
    allowLeave: effect('allowLeave'),
    /** Drops the held navigation (provided by the app). */
    stayHere: effect('stayHere'),
  },
}).createMachine({
  id: 'typedTextGuard',
  context: { boxes: [] },
  initial: 'clean',
  on: {
    'box.typed': { actions: { type: 'addBox', params: ({ event }) => event } },
    'box.cleared': { actions: { type: 'removeBox', params: ({ event }) => event } },
  },
  states: {
    clean: {
      always: { guard: 'hasTypedText', target: 'typed' },
      on: { 'leave.request': { actions: 'allowLeave' } },
    },
    typed: {
      always: { guard: 'hasNoTypedText', target: 'clean' },
      on: { 'leave.request': 'confirmingLeave' },
    },
    confirmingLeave: {
      on: {
        // The boxes are forgotten first: they go away with the page and must not ask again on the way.
        'leave.confirm': { target: 'clean', actions: ['forgetBoxes', 'allowLeave'] },
        'leave.stay': { target: 'typed', actions: 'stayHere' },
      },
    },
  },
});

export type TypedTextGuardMachine = typeof typedTextGuardMachine;

/** Whether reloading or closing the tab would lose typed text. */
export const hasTypedText = (snapshot: { context: TypedTextGuardContext }): boolean =>
  snapshot.context.boxes.length > 0;
