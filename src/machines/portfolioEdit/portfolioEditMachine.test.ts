import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Portfolio, PortfolioListItem, PortfolioUpdateBody } from '../../schemas/portfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { listItemOf, makeArtifact, makePortfolio } from '../../test/portfolioHarness.tsx';
import type { Notice } from '../shared/notice.ts';
import { PORTFOLIO_DELETED, PORTFOLIO_SAVED, portfolioEditMachine } from './portfolioEditMachine.ts';

const empty = makePortfolio({ id: 7, name: 'Forces', subject: 'Science', topic: 'Magnets' });
const filled = makePortfolio({ id: 7, artifacts: [makeArtifact({ id: 70 })] });
const missing = new ApiError(404, 'not_found', 'Portfolio not found.', '');

function start(portfolio: Portfolio | Error = empty) {
  const notices: Notice[] = [];
  const sent: PortfolioUpdateBody[] = [];
  const effects: string[] = [];
  const actor = createActor(
    portfolioEditMachine.provide({
      actors: {
        getPortfolio: fromPromise<Portfolio, { portfolioId: number }>(async () => {
          if (portfolio instanceof Error) throw portfolio;
          return portfolio;
        }),
        updatePortfolio: fromPromise<Portfolio, { portfolioId: number; body: PortfolioUpdateBody }>(
          async ({ input }) => {
            sent.push(input.body);
            return empty;
          },
        ),
        deletePortfolio: fromPromise<PortfolioListItem, { portfolioId: number }>(async () => listItemOf(empty)),
      },
      actions: {
        notify: (_, notice) => notices.push(notice),
        showPortfolio: (_, params) => effects.push(`portfolio ${params.portfolioId}`),
        showPortfolioList: () => effects.push('list'),
        allowLeave: () => effects.push('go'),
        stayHere: () => effects.push('stay'),
      },
    }),
    { input: { portfolioId: 7 } },
  ).start();
  return { actor, notices, sent, effects };
}

describe('portfolioEditMachine guards', () => {
  it('isNotFound: a 404 shows "not found", not the retry', async () => {
    const { actor } = start(missing);
    await waitFor(actor, (s) => s.matches('notFound'));
    expect(actor.getSnapshot().context.error).toEqual({
      kind: 'notFound',
      status: 404,
      message: 'Portfolio not found.',
    });
  });

  it('isFormValid: a blank name is not sent; its message then follows what is typed', async () => {
    const { actor, sent } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'field.change', field: 'name', value: ' ' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({ name: 'A name is required.' });
    actor.send({ type: 'field.change', field: 'name', value: 'Pulleys' });
    expect(actor.getSnapshot().context.errors).toEqual({});
    expect(sent).toEqual([]);
  });

  it('hasNoArtifacts: a portfolio with artifacts cannot be deleted', async () => {
    const { actor } = start(filled);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'delete.request' });
    expect(actor.getSnapshot().value).toBe('editing');
  });

  it('hasUnsavedChanges: leaving after a change asks first; grades in another order are no change', async () => {
    const { actor, effects } = start(makePortfolio({ id: 7, grades: ['5th', '6th'] }));
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'grades.change', grades: ['6th', '5th'] });
    actor.send({ type: 'leave.request' });
    expect(actor.getSnapshot().value).toBe('leaving');
    expect(effects).toEqual(['go']);
  });

  it('hasUnsavedChanges: a changed topic asks before leaving; staying keeps it', async () => {
    const { actor, effects } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'field.change', field: 'topic', value: 'Gravity' });
    actor.send({ type: 'leave.request' });
    expect(actor.getSnapshot().value).toBe('confirmingLeave');
    actor.send({ type: 'leave.stay' });
    expect(effects).toEqual(['stay']);
    expect(actor.getSnapshot().context.values.topic).toBe('Gravity');
  });
});

describe('portfolioEditMachine actions', () => {
  it('a save sends the trimmed name, toasts and shows the portfolio', async () => {
    const { actor, sent, notices, effects } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'field.change', field: 'name', value: '  Pulleys ' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(sent).toEqual([expect.objectContaining({ name: 'Pulleys' })]);
    expect(notices).toEqual([{ message: PORTFOLIO_SAVED, tone: 'success' }]);
    expect(effects).toEqual(['portfolio 7']);
  });

  it('a confirmed delete toasts and goes back to the list', async () => {
    const { actor, notices, effects } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'delete.request' });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('deleted'));
    expect(notices).toEqual([{ message: PORTFOLIO_DELETED, tone: 'success' }]);
    expect(effects).toEqual(['list']);
  });
});
