import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import type { Portfolio, PortfolioCreateBody } from '../../schemas/portfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { makePortfolio } from '../../test/portfolioHarness.tsx';
import type { Notice } from '../shared/notice.ts';
import { PORTFOLIO_CREATED, portfolioCreateMachine, type PortfolioAddedEvent } from './portfolioCreateMachine.ts';
import { EMPTY_NEW_PORTFOLIO } from './newPortfolioForm.ts';

const created = makePortfolio({ id: 40, name: 'Forces' });
const refusal = new ApiError(409, 'conflict', 'A portfolio with this name exists.', '');

/** The row inside a parent that records what the row reports. */
function start(answer: () => Promise<Portfolio> = async () => created) {
  const notices: Notice[] = [];
  const sent: PortfolioCreateBody[] = [];
  const reported: PortfolioAddedEvent[] = [];
  const row = portfolioCreateMachine.provide({
    actors: {
      createPortfolio: fromPromise<Portfolio, PortfolioCreateBody>(({ input }) => {
        sent.push(input);
        return answer();
      }),
    },
    actions: { notify: (_, notice) => notices.push(notice) },
  });
  const parent = createActor(
    setup({
      types: { events: {} as PortfolioAddedEvent, children: {} as { row: 'row' } },
      actors: { row },
    }).createMachine({
      invoke: { id: 'row', src: 'row' },
      on: { 'portfolio.added': { actions: ({ event }) => reported.push(event) } },
    }),
  ).start();
  const actor = parent.getSnapshot().children.row!;
  actor.send({ type: 'create.open' });
  return { actor, notices, sent, reported };
}

describe('portfolioCreateMachine guards', () => {
  it('isFormValid: a blank name is not sent and gets its message; each refusal is counted', () => {
    const { actor, sent } = start();
    actor.send({ type: 'field.change', field: 'name', value: '   ' });
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('invalid');
    expect(actor.getSnapshot().context.errors).toEqual({ name: 'A name is required.' });
    expect(actor.getSnapshot().context.refusals).toBe(2);
    expect(sent).toEqual([]);
  });

  it('isNameChange: only typing in the name clears the messages', () => {
    const { actor } = start();
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'field.change', field: 'topic', value: 'Magnets' });
    expect(actor.getSnapshot().value).toBe('invalid');
    expect(actor.getSnapshot().context.errors.name).toBe('A name is required.');
    actor.send({ type: 'field.change', field: 'name', value: 'F' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({});
  });
});

describe('portfolioCreateMachine actions', () => {
  it('a save sends the trimmed row, toasts, reports the portfolio and empties the row', async () => {
    const { actor, sent, notices, reported } = start();
    actor.send({ type: 'field.change', field: 'name', value: '  Forces ' });
    actor.send({ type: 'grades.change', grades: ['5th', '6th'] });
    actor.send({ type: 'field.change', field: 'topic', value: '  ' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(sent).toEqual([{ name: 'Forces', grades: ['5th', '6th'], subject: null, topic: null }]);
    expect(notices).toEqual([{ message: PORTFOLIO_CREATED, tone: 'success' }]);
    expect(reported).toEqual([{ type: 'portfolio.added', portfolio: created }]);
    expect(actor.getSnapshot().context.values).toEqual(EMPTY_NEW_PORTFOLIO);
  });

  it('a refusal alerts the server message and keeps what was typed', async () => {
    const { actor, notices, reported } = start(() => Promise.reject(refusal));
    actor.send({ type: 'field.change', field: 'name', value: 'Forces' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(notices).toEqual([{ message: 'A portfolio with this name exists.', tone: 'error' }]);
    expect(reported).toEqual([]);
    expect(actor.getSnapshot().context.values.name).toBe('Forces');
  });

  it('cancelling discards what was typed', () => {
    const { actor } = start();
    actor.send({ type: 'field.change', field: 'name', value: 'Forces' });
    actor.send({ type: 'form.cancel' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.values).toEqual(EMPTY_NEW_PORTFOLIO);
  });
});
