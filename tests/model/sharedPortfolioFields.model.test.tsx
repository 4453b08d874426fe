import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { getInitialSnapshot, getNextSnapshot, type SnapshotFrom } from 'xstate';
import {
  buildBody,
  invalidQuestionsMessage,
  parseFormDraft,
} from '../../src/machines/sharedPortfolioForm/sharedForm.ts';
import {
  sharedPortfolioFieldsMachine,
  type SharedPortfolioFieldsEvent as FieldsEvent,
  type SharedPortfolioFieldsInput,
} from '../../src/machines/sharedPortfolioForm/sharedPortfolioFieldsMachine.ts';
import type { SharedPortfolioFormInput } from '../../src/machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import type { SharedPortfolioBody } from '../../src/schemas/sharedPortfolio.ts';
import { currentUser } from '../../src/services/session.ts';
import { TEAM_QUESTION } from '../../src/test/sharedFixtures.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { GRADES } from '../../src/schemas/catalog.ts';
import { checkedShortestPaths, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import {
  CREATE_INPUT,
  DRAFT_STORED,
  draftOffer,
  EDIT_INPUT,
  expectAlert,
  expectForm,
  field,
  FIELD_LABELS,
  invalidOnServer,
  offline,
  replaceText,
  saveButton,
  setupLoaded,
  TEMPLATE,
  type Harness,
} from './support/sharedPortfolioFormPage.tsx';
import { loadedFields } from './support/sharedPortfolioFormScenarios.ts';

/*
 * The fields of the shared portfolio form (the Summary and the Questions table), driven through the
 * page once it is loaded: typing, the messages after a refused Save, a local draft put back, the body
 * a valid Save sends, and the fields open again when the server refuses the save. The form around
 * them has its own model test (sharedPortfolioForm.model.test.tsx).
 */
trackCoverage(sharedPortfolioFieldsMachine);

type Snapshot = SnapshotFrom<typeof sharedPortfolioFieldsMachine>;

/** The fields as the model computes them: alone, so what they tell the form around them goes nowhere. */
const alone = sharedPortfolioFieldsMachine.provide({
  actions: { reportChange: () => undefined, reportInvalid: () => undefined, reportValid: () => undefined },
});
type Step = { event: unknown; state: unknown };

/** The user's steps after the page loaded, in order (create). */
const CREATE_SCRIPT: FieldsEvent[] = [
  { type: 'form.submit' }, // only the name is missing
  { type: 'grades.change', grades: ['K', '6th'] },
  { type: 'question.toggle', key: 'unitDay', included: false },
  { type: 'question.add' }, // its messages show at once: the form was checked before
  { type: 'field.change', field: 'name', value: 'Team' },
  { type: 'question.change', key: '', field: 'text', value: 'Which grade?' },
  { type: 'question.change', key: '', field: 'type', value: 'singleSelection' },
  { type: 'form.submit' }, // the choices are missing
  { type: 'question.change', key: '', field: 'choices', value: 'Near, Far' },
  { type: 'form.submit' }, // valid
];

/** The user's steps after the page loaded, in order (edit). */
const EDIT_SCRIPT: FieldsEvent[] = [
  { type: 'field.change', field: 'plcName', value: 'Science PLC' },
  { type: 'question.toggle', key: 'nextSteps', included: true },
  { type: 'question.change', key: TEAM_QUESTION.key, field: 'choices', value: 'Near, Far' },
  { type: 'form.submit' },
];

/** The parts of a state that tell the script's stages apart (team question keys are random). */
function stageKey(snapshot: unknown): string {
  const s = snapshot as Snapshot;
  const rows = s.context.rows.map((row) =>
    row.kind === 'template' ? [row.key, row.included] : [row.text, row.type, row.choicesText],
  );
  return JSON.stringify([s.value, s.context.values, rows, s.context.validated]);
}

/** The key of each stage of a script, replayed on the machine itself from the loaded page. */
function stagesOf(input: SharedPortfolioFieldsInput, script: readonly FieldsEvent[]): string[] {
  let snapshot = getInitialSnapshot(alone, input);
  const keys = [stageKey(snapshot)];
  for (const event of script) {
    snapshot = getNextSnapshot(alone, snapshot, withKey(snapshot, event));
    keys.push(stageKey(snapshot));
  }
  return keys;
}

/** A team question event of the script names the first team question (its key is random). */
function withKey(snapshot: unknown, event: FieldsEvent): FieldsEvent {
  if ((event.type !== 'question.change' && event.type !== 'question.remove') || event.key !== '') return event;
  const first = (snapshot as Snapshot).context.rows.find((row) => row.kind === 'bonus');
  return { ...event, key: first?.key ?? '' };
}

const DRAFT_SCRIPT: FieldsEvent[] = [
  { type: 'form.restore', draft: parseFormDraft(DRAFT_STORED)! },
  { type: 'form.submit' },
];

interface Scenario {
  name: string;
  input: SharedPortfolioFormInput;
  /** The fields as loaded. */
  fields: SharedPortfolioFieldsInput;
  script: readonly FieldsEvent[];
  /** A draft of the form kept in the browser before the page opens. */
  draft?: string;
}

const CREATE_FIELDS = loadedFields('create');
const EDIT_FIELDS = loadedFields('edit');

const SCENARIOS: Scenario[] = [
  {
    name: 'create',
    input: CREATE_INPUT,
    fields: CREATE_FIELDS,
    script: CREATE_SCRIPT,
  },
  {
    name: 'edit',
    input: EDIT_INPUT,
    fields: EDIT_FIELDS,
    script: EDIT_SCRIPT,
  },
  {
    name: 'edit, a draft left by a reload',
    input: EDIT_INPUT,
    fields: EDIT_FIELDS,
    script: DRAFT_SCRIPT,
    draft: DRAFT_STORED,
  },
];

/**
 * The events of the model in a state: the next step of the script (and, once the team question
 * is added and the form was checked, deleting it); once submitted, the server refusing the save.
 */
function eventsFor(scenario: Scenario) {
  const stages = stagesOf(scenario.fields, scenario.script);
  return (snapshot: unknown): FieldsEvent[] => {
    const s = snapshot as Snapshot;
    const list: FieldsEvent[] = [];
    const stage = stages.indexOf(stageKey(s));
    if (s.matches('editing') && stage >= 0) {
      const next = scenario.script[stage];
      if (next) list.push(withKey(s, next));
      const bonus = s.context.rows.find((row) => row.kind === 'bonus');
      if (bonus && bonus.text === '' && s.context.validated && scenario.input.mode === 'create')
        list.push({ type: 'question.remove', key: bonus.key });
    }
    if (s.matches('submitted')) list.push({ type: 'form.reopen' });
    return list.filter((event) => s.can(event));
  };
}

/** The save call the valid fields started. */
const pendingSave = () =>
  (h.fakes.createSharedPortfolio.calls[0] ?? h.fakes.updateSharedPortfolio.calls[0]) as
    { input: { body: SharedPortfolioBody } } | undefined;

/** Every state has a DOM assertion; a state without one fails the path. */
const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  editing: async (s) => {
    expectForm(s.context, false);
    // A draft is offered when the form opens, until it is put back.
    const restored = s.context.values.plcGoals === 'Typed before the reload';
    if (draftOf && !restored)
      expect(draftOffer()!.querySelector('p')!.textContent).toMatch(
        /^Restore your unsaved text from \d{1,2}:\d\d[ap]m\?$/,
      );
    else expect(draftOffer()).toBeNull();
    expect(saveButton().disabled).toBe(false);
    expect(pendingSave()).toBeUndefined();
  },
  submitted: async (s) => {
    expectForm(s.context, true);
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect(field(FIELD_LABELS.name).disabled).toBe(true);
    const body = pendingSave()!.input.body;
    expectBody(body, s);
    // A stored choice list is split again only because the user edited it.
    if (h.fakes.updateSharedPortfolio.calls.length > 0) expect(body.structure.at(-1)!.choices).toEqual(['Near', 'Far']);
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

/** The body the form must send, compared without the random keys of team questions. */
function expectBody(body: SharedPortfolioBody, s: Snapshot) {
  const unkeyed = (b: SharedPortfolioBody) =>
    b.structure.map((q) => (q.bonus && q.key !== TEAM_QUESTION.key ? { ...q, key: 'random' } : q));
  const expected = buildBody(s.context.values, s.context.rows);
  expect({ ...body, structure: unkeyed(body) }).toEqual({ ...expected, structure: unkeyed(expected) });
  for (const q of body.structure.filter((q) => q.bonus && q.key !== TEAM_QUESTION.key))
    expect(q.key).toMatch(/^[0-9a-f-]{36}$/);
}

/** The draft of the scenario being tested, if it has one. */
let draftOf: string | null = null;
let h: Harness;

afterEach(() => {
  clearToasts();
  localStorage.clear();
  currentUser.value = null;
});

const label = (event: { type: string; field?: string; value?: string }) =>
  `${event.type}${event.field ? ` ${event.field}="${event.value}"` : ''}`;

for (const scenario of SCENARIOS) {
  describe(`shared portfolio fields model (${scenario.name})`, () => {
    const paths = checkedShortestPaths(
      alone,
      { input: scenario.fields, events: eventsFor(scenario) },
      { '*': checkState },
      0,
    );
    for (const path of paths) {
      it(`${pathName(path, label)}`, async () => {
        draftOf = scenario.draft ?? null;
        // The page loads; the form spawns its fields.
        h = await setupLoaded(scenario.input, scenario.draft);
        await path.test({
          states: { '*': checkState },
          events: {
            'field.change': async (step: Step) => {
              const { field: name, value } = step.event as { field: keyof typeof FIELD_LABELS; value: string };
              await replaceText(h.ux, field(FIELD_LABELS[name]), value);
            },
            'grades.change': async (step: Step) => {
              const { grades } = step.event as { grades: string[] };
              await h.ux.click(screen.getByRole('button', { name: /^Grade Levels/ }));
              for (const code of grades)
                await h.ux.click(screen.getByRole('checkbox', { name: GRADES.find((g) => g.value === code)!.label }));
              await h.ux.keyboard('{Escape}');
            },
            'question.toggle': async (step: Step) => {
              const { key } = step.event as { key: string };
              await h.ux.click(
                screen.getByRole('switch', { name: `Include: ${TEMPLATE.find((q) => q.key === key)!.text}` }),
              );
            },
            'question.add': async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
            },
            'question.remove': async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Delete team question 1' }));
            },
            'question.change': async (step: Step) => {
              const { field: part, value } = step.event as { field: 'text' | 'type' | 'choices'; value: string };
              if (part === 'type') {
                await h.ux.selectOptions(field('Type of team question 1'), value);
              } else {
                await replaceText(
                  h.ux,
                  field(
                    part === 'text' ? 'Text of team question 1' : 'Choices of team question 1 (separated by commas)',
                  ),
                  value,
                );
              }
            },
            'form.restore': async () => {
              await h.ux.click(within(draftOffer()!).getByRole('button', { name: 'Restore' }));
            },
            'form.submit': async (step: Step) => {
              await h.ux.click(saveButton());
              const s = step.state as Snapshot;
              const invalid = Object.keys(s.context.errors.questions).length;
              if (s.matches('editing') && invalid > 0) expectAlert(invalidQuestionsMessage(invalid));
            },
            // The server refuses the save: its reason shows and the fields open again.
            'form.reopen': async () => {
              const create = scenario.input.mode === 'create';
              const refusal = create ? invalidOnServer : offline;
              const call = (create ? h.fakes.createSharedPortfolio : h.fakes.updateSharedPortfolio).next();
              await act(async () => call.deferred.reject(refusal));
              expectAlert(refusal.message);
            },
          },
        });
      });
    }
  });
}
