import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { Portfolio } from '../../schemas/portfolio.ts';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { SHARED_PORTFOLIO_ABILITIES } from '../../test/abilityFixtures.ts';
import { makeSharedPortfolio, makeTemplatePortfolio } from '../../test/sharedFixtures.ts';
import { EMPTY_VALUES, rowsForCreate, rowsForEdit, valuesOf } from '../sharedPortfolioForm/sharedForm.ts';
import { ACCESS_MESSAGES } from '../sharedPortfolioForm/sharedPortfolioFormTypes.ts';
import { sharedPortfolioLoadMachine, type SharedPortfolioLoadInput } from './sharedPortfolioLoadMachine.ts';

const template: Portfolio = makeTemplatePortfolio({
  structure: [{ key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true }],
});
const sp: SharedPortfolio = makeSharedPortfolio({ id: 9 });
const missing = new ApiError(404, 'not_found', 'Not found.', '');

/** Loads with the services answering as given (a value, or an error thrown), and resolves with the output. */
function load(input: SharedPortfolioLoadInput, answers: { template?: unknown; sharedPortfolio?: unknown } = {}) {
  const asked: number[] = [];
  const answer = async <T>(value: unknown, fallback: T): Promise<T> => {
    if (value instanceof Error) throw value;
    return (value as T | undefined) ?? fallback;
  };
  const logic = sharedPortfolioLoadMachine.provide({
    actors: {
      fetchTemplate: fromPromise(() => answer(answers.template, template)),
      fetchSharedPortfolio: fromPromise(({ input: { id } }: { input: { id: number } }) => {
        asked.push(id);
        return answer(answers.sharedPortfolio, sp);
      }),
    },
  });
  const actor = createActor(logic, { input }).start();
  return { output: toPromise(actor), asked };
}

const create: SharedPortfolioLoadInput = { mode: 'create', sharedPortfolioId: null };
const edit: SharedPortfolioLoadInput = { mode: 'edit', sharedPortfolioId: 9 };

describe('sharedPortfolioLoadMachine guards', () => {
  it('isCreate: a new one loads the template, an edit the portfolio of the address', async () => {
    const created = load(create);
    expect(await created.output).toMatchObject({ kind: 'loaded', sharedPortfolio: null });
    expect(created.asked).toEqual([]);
    const edited = load(edit);
    expect(await edited.output).toMatchObject({ kind: 'loaded', sharedPortfolio: sp });
    expect(edited.asked).toEqual([9]);
  });

  it('canEdit: a portfolio the user may not edit is not found', async () => {
    const member = { ...sp, abilities: SHARED_PORTFOLIO_ABILITIES.member };
    expect(await load(edit, { sharedPortfolio: member }).output).toEqual({
      kind: 'unavailable',
      problem: ACCESS_MESSAGES.notFound,
    });
  });

  it('isNotFound: a missing template or portfolio makes the page unavailable; other failures can be retried', async () => {
    expect(await load(create, { template: missing }).output).toEqual({
      kind: 'unavailable',
      problem: ACCESS_MESSAGES.templateMissing,
    });
    expect(await load(edit, { sharedPortfolio: missing }).output).toEqual({
      kind: 'unavailable',
      problem: ACCESS_MESSAGES.notFound,
    });
    expect(await load(create, { template: new NetworkError() }).output).toMatchObject({
      kind: 'failed',
      error: { kind: 'network' },
    });
  });
});

describe('sharedPortfolioLoadMachine actions', () => {
  it('storeTemplate: a new form starts empty, with every template question', async () => {
    expect(await load(create).output).toEqual({
      kind: 'loaded',
      fields: { values: EMPTY_VALUES, rows: rowsForCreate(template.structure) },
      sharedPortfolio: null,
    });
  });

  it('storeSharedPortfolio: an edited form starts from what the portfolio holds', async () => {
    expect(await load(edit).output).toEqual({
      kind: 'loaded',
      fields: { values: valuesOf(sp), rows: rowsForEdit(sp) },
      sharedPortfolio: sp,
    });
  });

  it('storeProblem and storeError: why the page cannot be shown, or why loading failed, fit to show', async () => {
    expect(await load(edit, { sharedPortfolio: missing }).output).toMatchObject({ kind: 'unavailable' });
    const down = new ApiError(500, 'server', 'The server is down.', '');
    expect(await load(edit, { sharedPortfolio: down }).output).toEqual({
      kind: 'failed',
      error: { kind: 'unexpected', status: 500, message: 'The server is down.' },
    });
  });
});
