import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { makeSharedPortfolio, TEAM_QUESTION } from '../../test/sharedFixtures.ts';
import { buildBody, FORM_MESSAGES, rowsForEdit, valuesOf } from './sharedForm.ts';
import { sharedPortfolioFieldsMachine, type SharedPortfolioFieldsReport } from './sharedPortfolioFieldsMachine.ts';

const sp = makeSharedPortfolio({
  templateStructure: [
    { key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true },
    { key: 'nextSteps', text: 'What would you do next?', type: 'longText' },
  ],
  structure: [{ key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true }, TEAM_QUESTION],
});

/** The fields of a loaded portfolio, with what they tell the form recorded. */
function start() {
  const reports: SharedPortfolioFieldsReport[] = [];
  const logic = sharedPortfolioFieldsMachine.provide({
    actions: {
      reportChange: ({ context }) =>
        reports.push({ type: 'fields.changed', unsaved: JSON.stringify(context.values) !== JSON.stringify(values) }),
      reportInvalid: () => reports.push({ type: 'form.invalid' }),
      reportValid: ({ context }) => reports.push({ type: 'form.valid', body: buildBody(context.values, context.rows) }),
    },
  });
  const values = valuesOf(sp);
  const actor = createActor(logic, { input: { values, rows: rowsForEdit(sp) } }).start();
  return { actor, reports, context: () => actor.getSnapshot().context };
}

describe('sharedPortfolioFieldsMachine guards', () => {
  it('isToggleable: an optional template question switches; a core one and an unknown key do not', () => {
    const { actor, context } = start();
    actor.send({ type: 'question.toggle', key: 'nextSteps', included: true });
    expect(context().rows.find((r) => r.key === 'nextSteps')).toMatchObject({ included: true });
    const before = context().rows;
    actor.send({ type: 'question.toggle', key: 'artifactName', included: false });
    actor.send({ type: 'question.toggle', key: 'nope', included: false });
    expect(context().rows).toBe(before);
  });

  it('isBonusQuestion: only a team question is changed or removed', () => {
    const { actor, context } = start();
    const before = context().rows;
    actor.send({ type: 'question.change', key: 'nextSteps', field: 'text', value: 'x' });
    actor.send({ type: 'question.remove', key: 'artifactName' });
    expect(context().rows).toBe(before);
    actor.send({ type: 'question.change', key: TEAM_QUESTION.key, field: 'text', value: 'Where?' });
    expect(context().rows.at(-1)).toMatchObject({ kind: 'bonus', text: 'Where?' });
    actor.send({ type: 'question.remove', key: TEAM_QUESTION.key });
    expect(context().rows.some((r) => r.kind === 'bonus')).toBe(false);
  });

  it('hasErrors: an empty name keeps the fields editing; a valid form is submitted', () => {
    const { actor } = start();
    actor.send({ type: 'field.change', field: 'name', value: ' ' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'field.change', field: 'name', value: 'Team' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('submitted');
  });
});

describe('sharedPortfolioFieldsMachine actions', () => {
  it('storeValues: messages stay hidden until the first Save, then follow the typing', () => {
    const { actor, context } = start();
    actor.send({ type: 'field.change', field: 'name', value: '' });
    expect(context().errors).toEqual({ questions: {} });
    actor.send({ type: 'form.submit' });
    expect(context().errors.name).toBe(FORM_MESSAGES.nameRequired);
    actor.send({ type: 'field.change', field: 'name', value: 'Team' });
    expect(context().errors.name).toBeUndefined();
  });

  it('showErrors and reportInvalid: a refused Save marks the fields checked and tells the form', () => {
    const { actor, context, reports } = start();
    actor.send({ type: 'question.add' });
    actor.send({ type: 'form.submit' });
    expect(context().validated).toBe(true);
    expect(Object.keys(context().errors.questions)).toHaveLength(1);
    expect(reports.at(-1)).toEqual({ type: 'form.invalid' });
  });

  it('reportChange: every change tells the form whether the fields differ from what was loaded', () => {
    const { actor, reports } = start();
    actor.send({ type: 'grades.change', grades: ['K'] });
    expect(reports).toEqual([{ type: 'fields.changed', unsaved: true }]);
  });

  it('reportValid: a valid Save hands the form the body; nothing changes until the form reopens the fields', () => {
    const { actor, context, reports } = start();
    actor.send({ type: 'form.submit' });
    expect(reports).toEqual([{ type: 'form.valid', body: buildBody(valuesOf(sp), rowsForEdit(sp)) }]);
    actor.send({ type: 'field.change', field: 'name', value: 'Ignored' });
    expect(context().values.name).toBe(sp.name);
    actor.send({ type: 'form.reopen' });
    actor.send({ type: 'field.change', field: 'name', value: 'Again' });
    expect(context().values.name).toBe('Again');
  });

  it('form.restore: a draft puts back the values and team questions; core questions stay on', () => {
    const { actor, context } = start();
    const rows = rowsForEdit(sp).map((r) => (r.kind === 'template' ? { ...r, included: false } : r));
    actor.send({ type: 'form.restore', draft: { values: { ...valuesOf(sp), topic: 'Ramps' }, rows } });
    expect(context().values.topic).toBe('Ramps');
    expect(context().rows.find((r) => r.key === 'artifactName')).toMatchObject({ included: true });
    expect(context().rows.find((r) => r.key === 'nextSteps')).toMatchObject({ included: false });
  });
});
