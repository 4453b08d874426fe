import { act, render, screen, within } from '@testing-library/react';
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
import type { Rubric } from '../../src/schemas/rubrics.ts';
import { ApiError } from '../../src/services/errors.ts';
import { TALK_RUBRIC } from '../../src/test/scoringFixtures.ts';
import { RubricPanel } from '../../src/views/rubrics/RubricPanel.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking, trackMachine } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { reportCoverageAfterAll } from './support/report.ts';

// The installation's rubrics (decision 058), the researchers' rubrics page: the same machine
// without a shared portfolio (nothing to choose), creating from the NGSS practices, editing a
// scored rubric into its next version, and deleting (refused while scores use a rubric). The
// portfolio's paths are in rubricEditor.model.test.tsx; the run's summary checks both together.
reportCoverageAfterAll(trackMachine(rubricEditorMachine), { part: true });

type Snapshot = SnapshotFrom<typeof rubricEditorMachine>;
type Step = { event: unknown };

/** Scored with, and chosen by a portfolio: deleting it is refused. */
const WALKTHROUGH: Rubric = {
  ...TALK_RUBRIC,
  sharedPortfolio: null,
  abilities: { edit: true },
  usage: { scores: 2, portfolios: [{ id: 7, name: 'Grade 5 PLC' }] },
};
/** Nothing uses it: deleting it works. */
const SPARE: Rubric = {
  ...TALK_RUBRIC,
  id: 52,
  name: 'Spare',
  sharedPortfolio: null,
  used: false,
  abilities: { edit: true },
  usage: { scores: 0, portfolios: [] },
};
const LOADED: RubricEditorLoaded = { chosen: null, rubrics: [SPARE, WALKTHROUGH] };
const NEXT: Rubric = { ...WALKTHROUGH, version: 2, used: false };
const CREATED: Rubric = { ...SPARE, id: 53, name: NGSS_PRACTICES_TEMPLATE.name, usage: { scores: 0, portfolios: [] } };
const inUse = new ApiError(
  409,
  'rubric_scored',
  '2 scores were given with this rubric, and they keep it: it cannot be deleted. To stop using it, choose another rubric (or none) in “Grade 5 PLC”.',
  '',
);
const ev = modelEvent<RubricEditorEvent>();
const START_NGSS = JSON.stringify(startDraft('ngss'));
const START_EDIT = JSON.stringify(draftOf(WALKTHROUGH));

function events(snapshot: unknown): RubricEditorEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: RubricEditorEvent[] = [];
  if (isInvoking(s, 'loadRubrics')) list.push(ev('xstate.done.actor.loadRubrics', { output: LOADED }));
  if (s.matches({ ready: 'idle' }) && c.notice === null && c.error === null && c.rubrics.length === 2)
    list.push(
      { type: 'editor.start', from: 'ngss' },
      { type: 'editor.edit', rubric: WALKTHROUGH.id },
      { type: 'rubric.delete', rubric: WALKTHROUGH.id },
      { type: 'rubric.delete', rubric: SPARE.id },
    );
  if (s.matches({ ready: 'editing' })) {
    const draft = JSON.stringify(c.draft);
    if ((c.editing && draft === START_EDIT) || (!c.editing && draft === START_NGSS)) list.push({ type: 'editor.save' });
  }
  if (isInvoking(s, 'saveRubric'))
    list.push(ev('xstate.done.actor.saveRubric', { output: c.editing ? NEXT : CREATED }));
  if (s.matches({ ready: 'confirmingDelete' })) {
    list.push({ type: 'delete.confirm' });
    if (c.removing?.id === SPARE.id) list.push({ type: 'delete.cancel' });
  }
  if (isInvoking(s, 'deleteRubric'))
    list.push(
      c.removing?.id === SPARE.id
        ? ev('xstate.done.actor.deleteRubric', { output: SPARE })
        : ev('xstate.error.actor.deleteRubric', { error: inUse }),
    );
  return list;
}

function setup() {
  const load = controllableActor<RubricEditorLoaded>();
  const save = controllableActor<Rubric, RubricSave>();
  const remove = controllableActor<Rubric, { id: number }>();
  const logic = rubricEditorMachine.provide({
    actors: { loadRubrics: load.logic as never, saveRubric: save.logic, deleteRubric: remove.logic },
  });
  render(
    <RubricEditorLogicContext.Provider value={{ logic, inspect: coverageInspector }}>
      <RubricPanel sharedPortfolioId={null} />
    </RubricEditorLogicContext.Provider>,
  );
  return { load, save, remove, ux: userEvent.setup() };
}

const button = (name: string | RegExp) => screen.getByRole('button', { name });
const list = () => screen.getByRole('list', { name: 'Installation-wide rubrics' });
const item = (name: string) => within(list()).getByText(name, { selector: 'strong' }).closest('li')!;

const checks = {
  loading: () => expect(screen.getByText('Loading the rubrics')).toBeTruthy(),
  // Not reached here (the portfolio's file walks it).
  loadFailed: () => expect(button('Try again')).toBeTruthy(),
  'ready.idle': (s: Snapshot) => {
    const c = s.context;
    // Nothing to choose on the installation's page.
    expect(screen.queryByLabelText('Members score with')).toBeNull();
    expect(within(list()).getAllByRole('listitem')).toHaveLength(c.rubrics.length);
    if (c.rubrics.some((r) => r.id === WALKTHROUGH.id)) {
      const walkthrough = item(c.rubrics.find((r) => r.id === WALKTHROUGH.id)!.name);
      expect(walkthrough.textContent).toContain(
        `2 criteria · version ${c.rubrics.find((r) => r.id === WALKTHROUGH.id)!.version}`,
      );
      expect(walkthrough.textContent).toContain('2 scores given · chosen by “Grade 5 PLC”');
    }
    if (c.rubrics.some((r) => r.id === SPARE.id))
      expect(item('Spare').textContent).toContain('No scores yet · no shared portfolio scores with it');
    const statuses = screen.getAllByRole('status').map((e) => e.textContent);
    if (c.notice) expect(statuses).toContain(c.notice);
    if (c.error) expect(screen.getByRole('alert').textContent).toBe(inUse.message);
    else expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('group', { name: /^Delete/ })).toBeNull();
    // Once the question closed, the focus is back on the rubric's Delete, or past the rubric gone.
    if (c.error) expect(document.activeElement).toBe(button(`Delete ${WALKTHROUGH.name}`));
    if (c.notice === `“${SPARE.name}” deleted.`)
      expect(document.activeElement).toBe(button('New rubric from the NGSS practices'));
    expect(button('New rubric from the NGSS practices').hasAttribute('disabled')).toBe(false);
  },
  // Not reached here: the installation's page chooses nothing.
  'ready.choosing': () => expect(screen.getByLabelText('Members score with')).toBeTruthy(),
  'ready.editing': (s: Snapshot) => {
    const form = screen.getByRole('form');
    expect(within(form).getByRole('heading', { level: 3 }).textContent).toBe(
      s.context.editing ? `Edit “${s.context.editing.name}”` : 'New rubric',
    );
    // A scored rubric says that saving makes its next version.
    if (s.context.editing) expect(form.textContent).toContain('Saving makes version 2');
  },
  'ready.saving': () => expect(screen.getByRole('form').getAttribute('aria-busy')).toBe('true'),
  'ready.confirmingDelete': (s: Snapshot) => {
    const name = s.context.removing!.name;
    const group = screen.getByRole('group', { name: `Delete “${name}”?` });
    expect(item(name).contains(group)).toBe(true);
    expect(document.activeElement).toBe(within(group).getByRole('button', { name: 'Delete rubric' }));
    expect(button(`Edit ${name}`).hasAttribute('disabled')).toBe(true);
  },
  'ready.deleting': () => {
    expect(button('Delete rubric').getAttribute('aria-busy')).toBe('true');
    expect(screen.getAllByRole('status').map((e) => e.textContent)).toContain('Deleting the rubric…');
    expect(button('Keep it').hasAttribute('disabled')).toBe(true);
  },
};

describe('installation rubrics model', () => {
  const paths = checkedShortestPaths(rubricEditorMachine, { input: { sharedPortfolioId: null }, events }, checks, 4);
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
      const named = (step: Step) =>
        (step.event as { rubric: number }).rubric === SPARE.id ? SPARE.name : WALKTHROUGH.name;
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'xstate.done.actor.loadRubrics': (step: Step) => settle(h.load.next(), step),
          'editor.start': () => h.ux.click(button('New rubric from the NGSS practices')),
          'editor.edit': (step: Step) => h.ux.click(button(`Edit ${named(step)}`)),
          'editor.save': () => h.ux.click(button('Save rubric')),
          'xstate.done.actor.saveRubric': async (step: Step) => {
            const call = h.save.next();
            const editing = (step.event as { output: Rubric }).output === NEXT;
            expect(call.input).toEqual(
              editing
                ? { id: WALKTHROUGH.id, sharedPortfolioId: null, body: bodyOf(draftOf(WALKTHROUGH)) }
                : { id: null, sharedPortfolioId: null, body: bodyOf(startDraft('ngss')) },
            );
            await settle(call, step);
          },
          'rubric.delete': (step: Step) => h.ux.click(button(`Delete ${named(step)}`)),
          'delete.cancel': () => h.ux.click(button('Keep it')),
          'delete.confirm': () => h.ux.click(button('Delete rubric')),
          'xstate.done.actor.deleteRubric': async (step: Step) => {
            const call = h.remove.next();
            expect(call.input).toEqual({ id: SPARE.id });
            await settle(call, step);
          },
          'xstate.error.actor.deleteRubric': async (step: Step) => {
            const call = h.remove.next();
            expect(call.input).toEqual({ id: WALKTHROUGH.id });
            await settle(call, step);
          },
        },
      });
    });
  }
});
