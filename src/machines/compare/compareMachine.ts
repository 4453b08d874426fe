/**
 * Compare mode of an artifacts table (spec §4): at most two artifacts side by side.
 *
 * off ─(compare.toggle)→ on.empty ─(pick)→ on.single ─(pick)→ on.pair ─(pick a third)→ on.pair (it replaces the second)
 *                          ↑ (pick a picked one removes it)      ↑──────────────────────┘
 * on ─(compare.toggle)→ off: the selection is cleared.
 */
import { assign, setup } from 'xstate';
import { COMPARE_MAX } from '../../schemas/catalog.ts';

export interface CompareContext {
  /** The ids of the artifacts compared, in the order they were picked (at most two). */
  selection: readonly number[];
}

export type CompareEvent =
  | { type: 'compare.toggle' }
  /** A row's checkbox: picks the artifact, or un-picks it when it was picked. */
  | { type: 'compare.pick'; artifactId: number };

export const compareMachine = setup({
  types: {
    context: {} as CompareContext,
    events: {} as CompareEvent,
  },
  guards: {
    isPicked: ({ context }, params: { artifactId: number }) => context.selection.includes(params.artifactId),
  },
  actions: {
    clearSelection: assign({ selection: [] }),
    addToSelection: assign({
      selection: ({ context }, params: { artifactId: number }) => [...context.selection, params.artifactId],
    }),
    removeFromSelection: assign({
      selection: ({ context }, params: { artifactId: number }) =>
        context.selection.filter((id) => id !== params.artifactId),
    }),
    replaceSecond: assign({
      selection: ({ context }, params: { artifactId: number }) => [
        ...context.selection.slice(0, COMPARE_MAX - 1),
        params.artifactId,
      ],
    }),
  },
}).createMachine({
  id: 'compare',
  context: { selection: [] },
  initial: 'off',
  states: {
    off: {
      on: { 'compare.toggle': 'on' },
    },
    on: {
      initial: 'empty',
      exit: 'clearSelection',
      on: { 'compare.toggle': 'off' },
      states: {
        empty: {
          on: {
            'compare.pick': { target: 'single', actions: { type: 'addToSelection', params: ({ event }) => event } },
          },
        },
        single: {
          on: {
            'compare.pick': [
              {
                guard: { type: 'isPicked', params: ({ event }) => event },
                target: 'empty',
                actions: { type: 'removeFromSelection', params: ({ event }) => event },
              },
              { target: 'pair', actions: { type: 'addToSelection', params: ({ event }) => event } },
            ],
          },
        },
        pair: {
          on: {
            'compare.pick': [
              {
                guard: { type: 'isPicked', params: ({ event }) => event },
                target: 'single',
                actions: { type: 'removeFromSelection', params: ({ event }) => event },
              },
              { actions: { type: 'replaceSecond', params: ({ event }) => event } },
            ],
          },
        },
      },
    },
  },
});

export type CompareMachine = typeof compareMachine;
