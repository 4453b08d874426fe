import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { bodyOf, draftOf, startDraft } from '../../src/machines/rubricEditor/rubricDraft.ts';
import {
  rubricEditorMachine,
  type RubricEditorEvent,
  type RubricEditorLoaded,
  type RubricSave,
} from '../../src/machines/rubricEditor/rubricEditorMachine.ts';
import { RubricEditorLogicContext } from '../../src/machines/rubricEditor/useRubricEditor.ts';
import { NGSS_PRACTICES_TEMPLATE } from '../../src/schemas/rubricTemplates.ts';
import type { PortfolioRubric, Rubric } from '../../src/schemas/rubrics.ts';
import { ApiError } from '../../src/services/errors.ts';
import { TALK_RUBRIC } from '../../src/test/scoringFixtures.ts';
import { RubricPanel } from '../../src/views/rubrics/RubricPanel.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking, trackMachine } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { reportCoverageAfterAll } from './support/report.ts';

// A shared portfolio's rubric (decision 055): choosing it, and creating or editing rubrics,
// driven through the Rubric section of the portfolio's settings. Deleting rubrics and the
// installation's rubrics page are in rubricEditor.installation.model.test.tsx: the run's summary
// checks that the two files together cover every state and transition.
reportCoverageAfterAll(trackMachine(rubricEditorMachine), { part: true });

type Snapshot = SnapshotFrom<typeof rubricEditorMachine>;
type Step = { event: unknown };

const EDITABLE: Rubric = { ...TALK_RUBRIC, abilities: { edit: true }, usage: { scores: 1, portfolios: [] } };
const LOADED: RubricEditorLoaded = {
  chosen: { rubric: null, abilities: { score: true, choose: true } },
  rubrics: [EDITABLE],
};
const CHOSEN: PortfolioRubric = {
  rubric: { ...EDITABLE, usage: { scores: 1, portfolios: [{ id: 7, name: 'Grade 5 PLC' }] } },
  abilities: { score: true, choose: true },
};
const EDITED: Rubric = { ...EDITABLE, version: 2, used: false };
const CREATED: Rubric = { ...EDITABLE, id: 51, name: NGSS_PRACTICES_TEMPLATE.name, used: false };
const refused = new ApiError(403, 'forbidden', 'Only the portfolio’s lead may do this.', '');
const ev = modelEvent<RubricEditorEvent>();

const START_EDIT = JSON.stringify(draftOf(EDITABLE));
const START_NGSS = JSON.stringify(startDraft('ngss'));

/** Every editing gesture once, on the saved rubric as loaded. */
const EDITS: RubricEditorEvent[] = [
  { type: 'draft.change', at: { criterion: 0, field: 'label' }, value: 'Talk' },
  { type: 'draft.addCriterion' },
  { type: 'draft.removeCriterion', criterion: 1 },
  { type: 'draft.moveCriterion', criterion: 1, by: -1 },
  { type: 'draft.addLevel', criterion: 0 },
  { type: 'draft.removeLevel', criterion: 0, level: 2 },
  { type: 'draft.moveLevel', criterion: 0, level: 1, by: 1 },
];

/** Few paths, every transition: each choice once, from the untouched state. */
function events(snapshot: unknown): RubricEditorEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: RubricEditorEvent[] = [];
  if (isInvoking(s, 'loadRubrics'))
    list.push(
      ev('xstate.done.actor.loadRubrics', { output: LOADED }),
      ev('xstate.error.actor.loadRubrics', { error: refused }),
    );
  if (s.matches('loadFailed')) list.push({ type: 'retry' });
  if (s.matches({ ready: 'idle' }) && c.notice === null && c.error === null && c.chosen?.rubric === null)
    list.push(
      { type: 'rubric.choose', rubric: EDITABLE.id },
      { type: 'editor.start', from: 'ngss' },
      { type: 'editor.start', from: 'empty' },
      { type: 'editor.edit', rubric: EDITABLE.id },
    );
  if (isInvoking(s, 'chooseRubric'))
    list.push(
      ev('xstate.done.actor.chooseRubric', { output: CHOSEN }),
      ev('xstate.error.actor.chooseRubric', { error: refused }),
    );
  if (s.matches({ ready: 'editing' }) && c.error === null) {
    const draft = JSON.stringify(c.draft);
    if (c.editing && draft === START_EDIT) list.push(...EDITS, { type: 'editor.save' }, { type: 'editor.cancel' });
    if (!c.editing && draft === START_NGSS) list.push({ type: 'editor.save' });
    if (!c.editing && c.draft?.name === '')
      list.push(c.tried ? { type: 'draft.change', at: { field: 'name' }, value: 'Lab talk' } : { type: 'editor.save' });
  }
  if (isInvoking(s, 'saveRubric')) {
    list.push(ev('xstate.done.actor.saveRubric', { output: c.editing ? EDITED : CREATED }));
    if (c.editing) list.push(ev('xstate.error.actor.saveRubric', { error: refused }));
  }
  return list;
}

function setup() {
  const load = controllableActor<RubricEditorLoaded>();
  const choose = controllableActor<PortfolioRubric, { sharedPortfolioId: number; rubric: number | null }>();
  const save = controllableActor<Rubric, RubricSave>();
  const logic = rubricEditorMachine.provide({
    actors: { loadRubrics: load.logic as never, chooseRubric: choose.logic, saveRubric: save.logic },
  });
  render(
    <RubricEditorLogicContext.Provider value={{ logic, inspect: coverageInspector }}>
      <RubricPanel sharedPortfolioId={7} />
    </RubricEditorLogicContext.Provider>,
  );
  return { load, choose, save, ux: userEvent.setup() };
}

const button = (name: string | RegExp) => screen.getByRole('button', { name });
const form = () => screen.getByRole('form');

const checks = {
  loading: () => {
    expect(screen.getByText('Loading the rubrics')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  },
  loadFailed: () => {
    expect(screen.getByRole('alert').textContent).toContain('The rubrics could not be loaded.');
    expect(button('Try again')).toBeTruthy();
  },
  'ready.idle': (s: Snapshot) => {
    const select = screen.getByLabelText('Members score with') as HTMLSelectElement;
    // After a refusal the pick stays, to try again.
    expect(select.value).toBe(String(s.context.error ? EDITABLE.id : (s.context.chosen?.rubric?.id ?? '')));
    const statuses = screen.getAllByRole('status').map((e) => e.textContent);
    if (s.context.notice) expect(statuses).toContain(s.context.notice);
    if (s.context.error) expect(screen.getByRole('alert').textContent).toBe(refused.message);
    else expect(screen.queryByRole('alert')).toBeNull();
    const rubrics = screen.getByRole('list', { name: 'Rubrics this portfolio may use' });
    expect(within(rubrics).getAllByRole('listitem')).toHaveLength(s.context.rubrics.length);
    // What uses the rubric follows the choice.
    expect(rubrics.textContent).toContain(
      s.context.chosen?.rubric
        ? '1 score given · chosen by “Grade 5 PLC”'
        : '1 score given · no shared portfolio scores with it',
    );
    expect(button('Edit Discourse').hasAttribute('disabled')).toBe(false);
    expect(screen.queryByRole('form')).toBeNull();
  },
  'ready.choosing': () => {
    expect(button(/Choosing the rubric|Use this rubric/).hasAttribute('disabled')).toBe(true);
    expect(button('New empty rubric').hasAttribute('disabled')).toBe(true);
  },
  'ready.editing': (s: Snapshot) => {
    const c = s.context;
    const draft = c.draft!;
    expect(within(form()).getByRole('heading', { level: 3 }).textContent).toBe(
      c.editing ? `Edit “${c.editing.name}”` : 'New rubric',
    );
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(draft.name);
    expect(within(form()).getAllByRole('group')).toHaveLength(draft.criteria.length);
    const labels = screen.getAllByLabelText('Label') as HTMLInputElement[];
    expect(labels.map((l) => l.value)).toEqual(draft.criteria.map((d) => d.label));
    const firstLevels = screen.getAllByLabelText(/^Level \d label$/) as HTMLInputElement[];
    expect(firstLevels.map((l) => l.value)).toEqual(draft.criteria.flatMap((d) => d.levels.map((l) => l.label)));
    // Editing a rubric that scores use says what saving does.
    if (c.editing?.used) expect(form().textContent).toContain('Saving makes version 2');
    const errors = Object.values(c.errors);
    if (errors.length > 0) {
      const summary = within(form()).getByRole('alert');
      expect(within(summary).getAllByRole('listitem')).toHaveLength(errors.length);
      expect(summary.textContent).toContain('The rubric was not saved.');
    } else if (c.error) expect(within(form()).getByRole('alert').textContent).toContain(refused.message);
    else expect(within(form()).queryByRole('alert')).toBeNull();
    expect(button('Cancel').hasAttribute('disabled')).toBe(false);
  },
  'ready.saving': () => {
    expect(form().getAttribute('aria-busy')).toBe('true');
    expect(button('Cancel').hasAttribute('disabled')).toBe(true);
  },
  // Deleting is walked on the installation's page (its own file); the panel is the same.
  'ready.confirmingDelete': (s: Snapshot) => {
    expect(screen.getByRole('group', { name: `Delete “${s.context.removing!.name}”?` })).toBeTruthy();
  },
  'ready.deleting': () => {
    expect(button('Delete rubric').getAttribute('aria-busy')).toBe('true');
    expect(screen.getAllByRole('status').map((e) => e.textContent)).toContain('Deleting the rubric…');
  },
};

const GESTURES: Record<string, (e: RubricEditorEvent) => string> = {
  'draft.addCriterion': () => 'Add a criterion',
  'draft.removeCriterion': () => 'Remove Questioning',
  'draft.moveCriterion': () => 'Move up Questioning',
  'draft.addLevel': () => 'Add a level to Student talk',
  'draft.removeLevel': () => 'Remove High of Student talk',
  'draft.moveLevel': () => 'Higher Some of Student talk',
};

describe('rubric editor model', () => {
  const paths = checkedShortestPaths(rubricEditorMachine, { input: { sharedPortfolioId: 7 }, events }, checks, 12);
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      const h = setup();
      const settle = async (
        call: { deferred: { resolve: (v: never) => void; reject: (e: unknown) => void } },
        step: Step,
      ) => {
        const e = step.event as { type: string; output?: unknown; error?: unknown };
        await act(async () =>
          e.type.startsWith('xstate.done') ? call.deferred.resolve(e.output as never) : call.deferred.reject(e.error),
        );
      };
      const click = (step: Step) =>
        h.ux.click(button(GESTURES[(step.event as RubricEditorEvent).type]!(step.event as RubricEditorEvent)));
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'xstate.done.actor.loadRubrics': (step: Step) => settle(h.load.next(), step),
          'xstate.error.actor.loadRubrics': (step: Step) => settle(h.load.next(), step),
          retry: () => h.ux.click(button('Try again')),
          'rubric.choose': async () => {
            await h.ux.selectOptions(screen.getByLabelText('Members score with'), String(EDITABLE.id));
            await h.ux.click(button('Use this rubric'));
          },
          'xstate.done.actor.chooseRubric': async (step: Step) => {
            const call = h.choose.next();
            expect(call.input).toEqual({ sharedPortfolioId: 7, rubric: EDITABLE.id });
            await settle(call, step);
          },
          'xstate.error.actor.chooseRubric': (step: Step) => settle(h.choose.next(), step),
          'editor.start': (step: Step) =>
            h.ux.click(
              button(
                (step.event as { from: string }).from === 'ngss'
                  ? 'New rubric from the NGSS practices'
                  : 'New empty rubric',
              ),
            ),
          'editor.edit': () => h.ux.click(button('Edit Discourse')),
          'draft.change': (step: Step) => {
            const e = step.event as Extract<RubricEditorEvent, { type: 'draft.change' }>;
            const field = 'criterion' in e.at ? screen.getAllByLabelText('Label')[0]! : screen.getByLabelText('Name');
            fireEvent.change(field, { target: { value: e.value } });
          },
          'draft.addCriterion': click,
          'draft.removeCriterion': click,
          'draft.moveCriterion': click,
          'draft.addLevel': click,
          'draft.removeLevel': click,
          'draft.moveLevel': click,
          'editor.save': () => h.ux.click(button('Save rubric')),
          'editor.cancel': () => h.ux.click(button('Cancel')),
          'xstate.done.actor.saveRubric': async (step: Step) => {
            const call = h.save.next();
            const editing = (step.event as { output: Rubric }).output === EDITED;
            expect(call.input).toEqual(
              editing
                ? { id: EDITABLE.id, sharedPortfolioId: 7, body: bodyOf(draftOf(EDITABLE)) }
                : { id: null, sharedPortfolioId: 7, body: bodyOf(startDraft('ngss')) },
            );
            await settle(call, step);
          },
          'xstate.error.actor.saveRubric': (step: Step) => settle(h.save.next(), step),
        },
      });
    });
  }
});
