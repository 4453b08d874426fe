import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type ActorRefFrom } from 'xstate';
import type { Portfolio } from '../../schemas/portfolio.ts';
import type { SharedPortfolio, SharedPortfolioBody } from '../../schemas/sharedPortfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { SHARED_PORTFOLIO_ABILITIES } from '../../test/abilityFixtures.ts';
import { makeSharedArtifact, makeSharedPortfolio, makeTemplatePortfolio, people } from '../../test/sharedFixtures.ts';
import { buildBody, EMPTY_VALUES, rowsForCreate } from './sharedForm.ts';
import { sharedPortfolioLoadMachine } from '../sharedPortfolioLoad/sharedPortfolioLoadMachine.ts';
import { sharedPortfolioSaveMachine } from '../sharedPortfolioSave/sharedPortfolioSaveMachine.ts';
import type { SharedPortfolioFieldsMachine } from './sharedPortfolioFieldsMachine.ts';
import { ACCESS_MESSAGES } from './sharedPortfolioFormTypes.ts';
import { sharedFormHasUnsavedChanges, sharedPortfolioFormMachine } from './sharedPortfolioFormMachine.ts';

const template: Portfolio = makeTemplatePortfolio({
  structure: [{ key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true }],
});
const sp: SharedPortfolio = makeSharedPortfolio({ id: 9 });
const lead = { id: people.lee.id, abilities: { createSharedPortfolio: true } } as never;
const teacher = { id: people.tess.id, abilities: { createSharedPortfolio: false } } as never;

/** The form with its service calls answered at once (saves refused with `saveError`), and its effects recorded. */
function start(
  input: { mode: 'create' | 'edit'; sharedPortfolioId?: number | null; currentUser?: unknown },
  answers: { loaded?: SharedPortfolio; loadError?: unknown; saveError?: unknown } = {},
) {
  const effects = { allowLeave: vi.fn(), stayHere: vi.fn(), notify: vi.fn(), navigate: vi.fn() };
  const saves: SharedPortfolioBody[] = [];
  const save = fromPromise<SharedPortfolio, { body: SharedPortfolioBody }>(async ({ input: { body } }) => {
    saves.push(body);
    if (answers.saveError) throw answers.saveError;
    return sp;
  });
  const logic = sharedPortfolioFormMachine.provide({
    actions: {
      allowLeave: effects.allowLeave,
      stayHere: effects.stayHere,
      notify: effects.notify,
      navigateToSharedPortfolio: effects.navigate,
      navigateToSharedPortfolios: effects.navigate,
    },
    // The service calls are the children's (loading and saving).
    actors: {
      sharedPortfolioLoad: sharedPortfolioLoadMachine.provide({
        actors: {
          fetchTemplate: fromPromise(async () => template),
          fetchSharedPortfolio: fromPromise(async () => {
            if (answers.loadError) throw answers.loadError;
            return answers.loaded ?? sp;
          }),
        },
      }),
      sharedPortfolioSave: sharedPortfolioSaveMachine.provide({
        actors: { createSharedPortfolio: save, updateSharedPortfolio: save as never },
      }),
    },
  });
  const actor = createActor(logic, {
    input: { sharedPortfolioId: 9, currentUser: lead, ...input } as never,
  }).start();
  const fields = () => actor.getSnapshot().children.fields as ActorRefFrom<SharedPortfolioFieldsMachine>;
  /** Waits until the form is in this state. */
  const reach = (state: 'editing' | 'unavailable' | 'saved') => waitFor(actor, (snapshot) => snapshot.matches(state));
  return { actor, effects, saves, fields, reach };
}

describe('sharedPortfolioFormMachine guards', () => {
  it('mayOpen: only a user the server lets create one gets a new form', async () => {
    expect(start({ mode: 'create', currentUser: teacher }).actor.getSnapshot().context.problem).toBe(
      ACCESS_MESSAGES.noPermission,
    );
    const { actor, reach } = start({ mode: 'create' });
    await reach('editing');
    expect(actor.getSnapshot().children.fields).toBeDefined();
  });

  it('mayOpen and storeAccessProblem: an edit without an id, or of a portfolio the user may not edit, is not found', async () => {
    const noId = start({ mode: 'edit', sharedPortfolioId: null }).actor.getSnapshot();
    expect(noId.value).toBe('unavailable');
    expect(noId.context.problem).toBe(ACCESS_MESSAGES.notFound);
    const { actor, reach } = start(
      { mode: 'edit' },
      { loaded: { ...sp, abilities: SHARED_PORTFOLIO_ABILITIES.member } },
    );
    await reach('unavailable');
    expect(actor.getSnapshot().context.problem).toBe(ACCESS_MESSAGES.notFound);
  });

  it('isLoaded, isLoadedForEdit, hasLoadFailed and storeLoad: what loading ended with is stored', async () => {
    const created = start({ mode: 'create' });
    await created.reach('editing');
    expect(created.actor.getSnapshot().context.sharedPortfolio).toBeNull();
    expect(created.actor.getSnapshot().children.participants).toBeUndefined();
    const edited = start({ mode: 'edit' });
    await edited.reach('editing');
    expect(edited.actor.getSnapshot().context).toMatchObject({ sharedPortfolio: sp, error: null });
    expect(edited.actor.getSnapshot().children.participants).toBeDefined();
    const offline = start({ mode: 'edit' }, { loadError: new ApiError(500, 'server', 'Down.', '') });
    await waitFor(offline.actor, (snapshot) => snapshot.matches('loadFailed'));
    expect(offline.actor.getSnapshot().context.error).toMatchObject({ message: 'Down.' });
  });

  it('hasNoArtifacts: Delete is asked only while the portfolio holds no artifacts', async () => {
    const empty = start({ mode: 'edit' });
    const full = start({ mode: 'edit' }, { loaded: { ...sp, sharedArtifacts: [makeSharedArtifact()] } });
    await empty.reach('editing');
    await full.reach('editing');
    empty.actor.send({ type: 'portfolio.delete' });
    full.actor.send({ type: 'portfolio.delete' });
    expect(empty.actor.getSnapshot().value).toBe('confirmingDelete');
    expect(full.actor.getSnapshot().value).toBe('editing');
  });

  it('hasUnsavedChanges: a link leaves at once until the fields say they changed, then asks', async () => {
    const { actor, effects, reach } = start({ mode: 'create' });
    await reach('editing');
    actor.send({ type: 'leave.request' });
    expect(actor.getSnapshot().value).toBe('leaving');
    expect(effects.allowLeave).toHaveBeenCalledTimes(1);
    const other = start({ mode: 'create' });
    await other.reach('editing');
    other.fields().send({ type: 'field.change', field: 'name', value: 'Team' });
    expect(sharedFormHasUnsavedChanges(other.actor.getSnapshot())).toBe(true);
    other.actor.send({ type: 'leave.request' });
    expect(other.actor.getSnapshot().value).toBe('confirmingLeave');
    other.actor.send({ type: 'leave.stay' });
    expect(other.effects.stayHere).toHaveBeenCalledTimes(1);
  });
});

describe('sharedPortfolioFormMachine actions', () => {
  it('spawnFields: the fields start from the template, every question on', async () => {
    const { fields, reach } = start({ mode: 'create' });
    await reach('editing');
    expect(fields().getSnapshot().context.rows).toEqual(rowsForCreate(template.structure));
  });

  it('isSaved, storeRefusal, countRefusal and clearSaveError: a refusal counts; a refused check clears the server’s', async () => {
    const refused = new ApiError(400, 'invalid', 'No.', '');
    const { actor, fields, reach } = start({ mode: 'create' }, { saveError: refused });
    await reach('editing');
    fields().send({ type: 'field.change', field: 'name', value: 'Team' });
    fields().send({ type: 'form.submit' });
    await waitFor(actor, (snapshot) => snapshot.context.saveError !== null);
    expect(actor.getSnapshot().context).toMatchObject({ saveError: 'No.', refusals: 1 });
    fields().send({ type: 'field.change', field: 'name', value: '' });
    fields().send({ type: 'form.submit' });
    expect(actor.getSnapshot().context).toMatchObject({ saveError: null, refusals: 2 });
  });

  it('storeBody: the fields’ body is what is sent; saved, it says so and opens the portfolio', async () => {
    const { actor, fields, saves, effects, reach } = start({ mode: 'create' });
    await reach('editing');
    fields().send({ type: 'field.change', field: 'name', value: 'Team' });
    fields().send({ type: 'form.submit' });
    await reach('saved');
    expect(saves).toEqual([buildBody({ ...EMPTY_VALUES, name: 'Team' }, rowsForCreate(template.structure))]);
    expect(actor.getSnapshot().value).toBe('saved');
    expect(effects.notify).toHaveBeenCalledWith(expect.anything(), {
      message: 'Successfully created shared portfolio',
      tone: 'success',
    });
  });

  it('reopenFields: after a refused save the fields can be changed again', async () => {
    const { fields, reach } = start({ mode: 'create' }, { saveError: new ApiError(400, 'invalid', 'No.', '') });
    await reach('editing');
    fields().send({ type: 'field.change', field: 'name', value: 'Team' });
    fields().send({ type: 'form.submit' });
    expect(fields().getSnapshot().value).toBe('submitted');
    await waitFor(fields(), (snapshot) => snapshot.matches('editing'));
    fields().send({ type: 'field.change', field: 'name', value: 'Again' });
    expect(fields().getSnapshot().context.values.name).toBe('Again');
  });
});
