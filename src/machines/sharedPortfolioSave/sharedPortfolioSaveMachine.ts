/**
 * The save of the shared portfolio form, invoked by `sharedPortfolioForm` once its fields handed
 * it a valid body: a new shared portfolio is created, an edited one updated. It ends with the saved
 * portfolio's id, or with why the server refused (the form shows it and the fields open again).
 *
 * choosing ─[create]→ creating ─(created)→ saved
 *    │                   └─(refused / failed)→ refused
 *    └─[edit]→ updating ─(updated)→ saved
 *                 └─(refused / failed)→ refused
 */
import { assign, fromPromise, setup } from 'xstate';
import type { SharedPortfolio, SharedPortfolioBody } from '../../schemas/sharedPortfolio.ts';
import { toUiError } from '../../services/errors.ts';
import { createSharedPortfolio, updateSharedPortfolio } from '../../services/sharedService.ts';
import type { FormMode } from '../sharedPortfolioForm/sharedPortfolioFormTypes.ts';

export interface SharedPortfolioSaveInput {
  mode: FormMode;
  /** The portfolio to update (ignored on create). */
  sharedPortfolioId: number | null;
  /** What to send (the fields' body). */
  body: SharedPortfolioBody;
}

/** The saved portfolio's id, or the server's reason, fit to show. */
export type SharedPortfolioSaveOutput = { kind: 'saved'; id: number } | { kind: 'refused'; message: string };

interface SharedPortfolioSaveContext extends SharedPortfolioSaveInput {
  output: SharedPortfolioSaveOutput | null;
}

export const sharedPortfolioSaveMachine = setup({
  types: {
    context: {} as SharedPortfolioSaveContext,
    input: {} as SharedPortfolioSaveInput,
    output: {} as SharedPortfolioSaveOutput,
  },
  actors: {
    createSharedPortfolio: fromPromise<SharedPortfolio, { body: SharedPortfolioBody }>(({ input, signal }) =>
      createSharedPortfolio(input.body, signal),
    ),
    updateSharedPortfolio: fromPromise<SharedPortfolio, { id: number; body: SharedPortfolioBody }>(
      ({ input, signal }) => updateSharedPortfolio(input.id, input.body, signal),
    ),
  },
  guards: {
    isCreate: ({ context }) => context.mode === 'create',
  },
  actions: {
    storeSaved: assign({
      output: (_, params: { saved: SharedPortfolio }): SharedPortfolioSaveOutput => ({
        kind: 'saved',
        id: params.saved.id,
      }),
    }),
    /** The server's reason (or why it could not be reached), as the form shows it. */
    storeRefusal: assign({
      output: (_, params: { error: unknown }): SharedPortfolioSaveOutput => ({
        kind: 'refused',
        message: toUiError(params.error).message,
      }),
    }),
  },
}).createMachine({
  id: 'sharedPortfolioSave',
  context: ({ input }) => ({ ...input, output: null }),
  output: ({ context }) => context.output!,
  initial: 'choosing',
  states: {
    choosing: { always: [{ guard: 'isCreate', target: 'creating' }, { target: 'updating' }] },
    creating: {
      invoke: {
        id: 'createSharedPortfolio',
        src: 'createSharedPortfolio',
        input: ({ context }) => ({ body: context.body }),
        onDone: { target: 'saved', actions: { type: 'storeSaved', params: ({ event }) => ({ saved: event.output }) } },
        onError: {
          target: 'refused',
          actions: { type: 'storeRefusal', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    updating: {
      invoke: {
        id: 'updateSharedPortfolio',
        src: 'updateSharedPortfolio',
        input: ({ context }) => ({ id: context.sharedPortfolioId!, body: context.body }),
        onDone: { target: 'saved', actions: { type: 'storeSaved', params: ({ event }) => ({ saved: event.output }) } },
        onError: {
          target: 'refused',
          actions: { type: 'storeRefusal', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    saved: { type: 'final' },
    refused: { type: 'final' },
  },
});

export type SharedPortfolioSaveMachine = typeof sharedPortfolioSaveMachine;

/** The saved portfolio's id (asked only of a save that ended saved). */
export function savedId(output: SharedPortfolioSaveOutput): number {
  if (output.kind !== 'saved') throw new Error('The save was refused');
  return output.id;
}
