import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { SharedPortfolio, SharedPortfolioBody } from '../../schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeSharedPortfolio } from '../../test/sharedFixtures.ts';
import { savedId, sharedPortfolioSaveMachine, type SharedPortfolioSaveInput } from './sharedPortfolioSaveMachine.ts';

const body = { name: 'Team' } as SharedPortfolioBody;
const saved: SharedPortfolio = makeSharedPortfolio({ id: 42 });

/** Saves with the server answering the portfolio, or throwing `error`; records what was sent where. */
function save(input: SharedPortfolioSaveInput, error?: unknown) {
  const sent: { call: string; input: unknown }[] = [];
  const answer = (call: string) =>
    fromPromise(async ({ input: sentInput }: { input: unknown }) => {
      sent.push({ call, input: sentInput });
      if (error) throw error;
      return saved;
    });
  const logic = sharedPortfolioSaveMachine.provide({
    actors: { createSharedPortfolio: answer('create') as never, updateSharedPortfolio: answer('update') as never },
  });
  return { output: toPromise(createActor(logic, { input }).start()), sent };
}

describe('sharedPortfolioSaveMachine guards', () => {
  it('isCreate: a new one is created, an edited one updated under its id', async () => {
    const created = save({ mode: 'create', sharedPortfolioId: null, body });
    await created.output;
    expect(created.sent).toEqual([{ call: 'create', input: { body } }]);
    const updated = save({ mode: 'edit', sharedPortfolioId: 9, body });
    await updated.output;
    expect(updated.sent).toEqual([{ call: 'update', input: { id: 9, body } }]);
  });
});

describe('sharedPortfolioSaveMachine actions', () => {
  it('storeSaved: the save ends with the saved portfolio’s id', async () => {
    const output = await save({ mode: 'create', sharedPortfolioId: null, body }).output;
    expect(output).toEqual({ kind: 'saved', id: 42 });
    expect(savedId(output)).toBe(42);
  });

  it('storeRefusal: the server’s reason, or why it could not be reached, fit to show', async () => {
    const invalid = new ApiError(400, 'invalid_questions', 'Question text is required.', '');
    const refused = await save({ mode: 'edit', sharedPortfolioId: 9, body }, invalid).output;
    expect(refused).toEqual({ kind: 'refused', message: 'Question text is required.' });
    expect(() => savedId(refused)).toThrow('The save was refused');
    expect(await save({ mode: 'create', sharedPortfolioId: null, body }, new NetworkError()).output).toEqual({
      kind: 'refused',
      message: new NetworkError().message,
    });
  });
});
