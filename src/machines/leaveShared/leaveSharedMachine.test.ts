import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { makeSharedPortfolio } from '../../test/sharedFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import { leaveSharedMachine } from './leaveSharedMachine.ts';

function start(answer: () => Promise<SharedPortfolio> = async () => makeSharedPortfolio({ id: 9 })) {
  const notices: Notice[] = [];
  const asked: number[] = [];
  const left: number[] = [];
  let listed = 0;
  const actor = createActor(
    leaveSharedMachine.provide({
      actors: {
        leaveSharedPortfolio: fromPromise<SharedPortfolio, { sharedPortfolioId: number }>(({ input }) => {
          asked.push(input.sharedPortfolioId);
          return answer();
        }),
      },
      actions: { notify: (_, notice) => notices.push(notice), navigateToList: () => (listed += 1) },
    }),
    { input: { sharedPortfolioId: 9, name: 'Science circle' } },
  ).start();
  actor.on('shared.left', (e) => left.push(e.sharedPortfolioId));
  return { actor, notices, asked, left, listed: () => listed };
}

describe('leaveSharedMachine actions', () => {
  it('nothing is asked of the server until the question is answered YES', () => {
    const { actor, asked } = start();
    actor.send({ type: 'leave.confirm' });
    actor.send({ type: 'leave.ask' });
    actor.send({ type: 'leave.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(asked).toEqual([]);
  });

  it('leaving names the portfolio in the toast, emits shared.left and shows the list', async () => {
    const { actor, notices, asked, left, listed } = start();
    actor.send({ type: 'leave.ask' });
    actor.send({ type: 'leave.confirm' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(asked).toEqual([9]);
    expect(notices).toEqual([{ message: 'You left Science circle.', tone: 'success' }]);
    expect(left).toEqual([9]);
    expect(listed()).toBe(1);
  });

  it('a refusal alerts the server message and stays a member', async () => {
    const { actor, notices, left, listed } = start(() =>
      Promise.reject(new ApiError(403, 'forbidden', 'The owner cannot leave.', '')),
    );
    actor.send({ type: 'leave.ask' });
    actor.send({ type: 'leave.confirm' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(notices).toEqual([{ message: 'The owner cannot leave.', tone: 'error' }]);
    expect(left).toEqual([]);
    expect(listed()).toBe(0);
  });
});
