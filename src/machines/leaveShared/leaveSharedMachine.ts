/**
 * Leaving a shared portfolio (a teacher who is a member, not the owner).
 *
 * idle ─(leave.ask)→ confirming ─(leave.confirm)→ leaving ─(left)→ left
 *                       └─(leave.cancel)→ idle     └─(failed)→ idle (alert)
 *
 * Happy path: the teacher answers YES to the question of spec §6; the server ends the membership,
 * a toast says so, listeners hear `shared.left`, and the app shows the list of shared portfolios.
 */
import { emit, fromPromise, setup } from 'xstate';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { toUiError } from '../../services/errors.ts';
import { leaveSharedPortfolio } from '../../services/sharedService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

/** The question before leaving (spec §6). */
export const LEAVE_QUESTION =
  'Are you sure you want to end your membership in this Shared Portfolio? You will no longer be able to access artifacts or see comments uploaded to the portfolio.';

/** What the toast says once the membership ended. */
export const leftMessage = (name: string): string => `You left ${name}.`;

export interface LeaveSharedInput {
  sharedPortfolioId: number;
  /** The shared portfolio's name, for the toast. */
  name: string;
}

export type LeaveSharedContext = LeaveSharedInput;

export type LeaveSharedEvent = { type: 'leave.ask' } | { type: 'leave.confirm' } | { type: 'leave.cancel' };

/** Heard by `actor.on('shared.left', …)` once the membership ended. */
export type SharedLeftEmitted = { type: 'shared.left'; sharedPortfolioId: number };

export const leaveSharedMachine = setup({
  types: {
    context: {} as LeaveSharedContext,
    events: {} as LeaveSharedEvent,
    input: {} as LeaveSharedInput,
    emitted: {} as SharedLeftEmitted,
    tags: {} as 'busy',
  },
  actors: {
    leaveSharedPortfolio: fromPromise<SharedPortfolio, { sharedPortfolioId: number }>(({ input, signal }) =>
      leaveSharedPortfolio(input.sharedPortfolioId, undefined, signal),
    ),
  },
  actions: {
    emitLeft: emit(({ context }) => ({ type: 'shared.left' as const, sharedPortfolioId: context.sharedPortfolioId })),
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
    /** Shows the list of shared portfolios (provided by the app). */
    navigateToList: effect('navigateToList'),
  },
}).createMachine({
  id: 'leaveShared',
  context: ({ input }) => input,
  initial: 'idle',
  states: {
    idle: {
      on: { 'leave.ask': 'confirming' },
    },
    confirming: {
      on: {
        'leave.confirm': 'leaving',
        'leave.cancel': 'idle',
      },
    },
    leaving: {
      tags: ['busy'],
      invoke: {
        id: 'leaveSharedPortfolio',
        src: 'leaveSharedPortfolio',
        input: ({ context }) => ({ sharedPortfolioId: context.sharedPortfolioId }),
        onDone: {
          target: 'left',
          actions: [
            { type: 'notify', params: ({ context }) => ({ message: leftMessage(context.name), tone: 'success' }) },
            'emitLeft',
            'navigateToList',
          ],
        },
        onError: {
          target: 'idle',
          actions: {
            type: 'notify',
            params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }),
          },
        },
      },
    },
    left: { type: 'final' },
  },
});

export type LeaveSharedMachine = typeof leaveSharedMachine;
