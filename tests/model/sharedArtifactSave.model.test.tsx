import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyActorRef, InspectionEvent, SnapshotFrom } from 'xstate';
import type { EditableArtifact } from '../../src/machines/artifactLifecycle/artifactSelectors.ts';
import type { MergeSources, MergeSourcesInput } from '../../src/machines/sharedArtifactSave/mergeSources.ts';
import {
  sharedArtifactSaveMachine,
  type GateCheckInput,
  type SharedArtifactSaveEvent,
  type SharedArtifactSaveInput,
  type SharedUpdateInput,
} from '../../src/machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { GateCheckResponse } from '../../src/schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../../src/schemas/sharedPortfolio.ts';
import type { Responses } from '../../src/schemas/structure.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { renderArtifactEdit } from '../../src/test/artifactEditHarness.tsx';
import { makeSharedArtifactDetail } from '../../src/test/sharedArtifactFixtures.ts';
import { makeSharedArtifact } from '../../src/test/sharedFixtures.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { assertEveryStateChecked, coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(sharedArtifactSaveMachine);
afterEach(clearToasts);

type Snapshot = SnapshotFrom<typeof sharedArtifactSaveMachine>;
type Step = { event: { type: string } };

const LOADED = '2026-03-02T10:00:00.000Z';
const STORED = '2026-03-02T11:30:00.000Z';
const NEWEST = '2026-03-02T11:45:00.000Z';
const artifact = makeSharedArtifactDetail({ updated_at: LOADED, version: 1 });
const BASE: Responses = { artifactName: 'Ramp race', learningGoal: 'Forces' };

/** What the page sends once the user added an 's' to the title, ' and motion' to the goal, and pressed Save. */
const INPUT: SharedArtifactSaveInput = {
  portfolioId: 9,
  artifactId: 70,
  responses: { artifactName: 'Ramp races', learningGoal: 'Forces and motion' },
  updatedAt: LOADED,
  version: 1,
  questions: artifact.structure,
};

const ok: GateCheckResponse = { type: 'ok', message: 'Shared artifact can be safely saved.', updated_at: LOADED };
const warning: GateCheckResponse = {
  type: 'warning',
  message: 'This artifact has recently been saved by someone else at 03/02/26 11:30.',
  updated_at: STORED,
};
const refusal: GateCheckResponse = { type: 'error', message: 'Invalid updated_at parameter.' };
const offline = new NetworkError();
const stale = new ApiError(409, 'conflict', 'This artifact has recently been saved by someone else.', '');
const refused = new ApiError(400, 'invalid_responses', 'Field Artifact Name is required.', '');
const saved: SharedArtifact = makeSharedArtifact({ responses: INPUT.responses, updated_at: NEWEST });

/** Ana's version 2: only the students' thinking changed (merged without a question). */
const AUTO_V2: Responses = { ...BASE, studentThinking: 'Mass does not matter' };
/** Ana's version 2: the title and the goal changed too (two conflicts), and the students' thinking. */
const CLASH_V2: Responses = { artifactName: 'Ramp rally', learningGoal: 'Forces on ramps', studentThinking: 'Mass' };
const v = (number: number, responses: Responses) => ({ number, responses, files: [] });
const autoMerge: MergeSources = { base: v(1, BASE), current: v(2, AUTO_V2), updatedAt: STORED, people: ['Ana Lopez'] };
const clash: MergeSources = { base: v(1, BASE), current: v(2, CLASH_V2), updatedAt: STORED, people: ['Ana Lopez'] };
/** Lee's version 3, saved while the second save was on its way: next steps added. */
const third = (v2: Responses): MergeSources => ({
  base: v(2, v2),
  current: v(3, { ...v2, nextSteps: 'Try friction' }),
  updatedAt: NEWEST,
  people: ['Lee Lead'],
});
/** Which version 2 a merged save was based on: the auto-merged one kept the title 'Ramp races'. */
const v2Of = (s: Snapshot) => (s.context.mine['artifactName'] === 'Ramp races' ? AUTO_V2 : CLASH_V2);

const EDITED = 'Ramp relay';
const userEvents: SharedArtifactSaveEvent[] = [
  { type: 'merge.choose', key: 'artifactName', choice: { pick: 'theirs' } },
  { type: 'merge.choose', key: 'artifactName', choice: { pick: 'edit', value: EDITED } },
  { type: 'merge.choose', key: 'learningGoal', choice: { pick: 'mine' } },
  { type: 'merge.save' },
  { type: 'merge.cancel' },
];
const actorEvents = {
  gateCheck: [
    { type: 'xstate.done.actor.gateCheck', output: ok },
    { type: 'xstate.done.actor.gateCheck', output: warning },
    { type: 'xstate.done.actor.gateCheck', output: refusal },
    { type: 'xstate.error.actor.gateCheck', error: offline },
  ],
  updateSharedArtifact: [
    { type: 'xstate.done.actor.updateSharedArtifact', output: saved },
    { type: 'xstate.error.actor.updateSharedArtifact', error: stale },
    { type: 'xstate.error.actor.updateSharedArtifact', error: refused },
  ],
  // From the loaded version: auto-merged, two conflicts, or unreadable; from version 2: Lee's third save.
  loadMergeSources: (s: Snapshot) =>
    s.context.basedOn === 1
      ? [
          { type: 'xstate.done.actor.loadMergeSources', output: autoMerge },
          { type: 'xstate.done.actor.loadMergeSources', output: clash },
          { type: 'xstate.error.actor.loadMergeSources', error: offline },
        ]
      : s.context.basedOn === 2
        ? [{ type: 'xstate.done.actor.loadMergeSources', output: third(v2Of(s)) }]
        : [],
} as unknown as Record<string, SharedArtifactSaveEvent[] | ((s: unknown) => SharedArtifactSaveEvent[])>;

const LABELS = new Map<unknown, string>([
  [ok, 'ok'],
  [warning, 'warning'],
  [refusal, 'error'],
  [offline, 'offline'],
  [stale, '409'],
  [refused, '400'],
  [saved, 'saved'],
  [autoMerge, 'only their other field'],
  [clash, 'two fields both changed'],
]);

function pathTitle(path: { state: { value: unknown }; steps: readonly Step[] }): string {
  const events = path.steps.slice(1).map(({ event }) => {
    const e = event as { type: string; output?: unknown; error?: unknown; key?: string; choice?: { pick: string } };
    const label = LABELS.get(e.output ?? e.error) ?? (e.choice ? `${e.key}: ${e.choice.pick}` : undefined);
    return `${e.type.replace('xstate.', '')}${label ? ` (${label})` : ''}`;
  });
  return `reaches ${JSON.stringify(path.state.value)}: Save → ${events.join(' → ') || 'gate check asked'}`;
}

interface Harness extends ReturnType<typeof renderArtifactEdit> {
  gateCheck: ReturnType<typeof controllableActor<GateCheckResponse, GateCheckInput>>;
  update: ReturnType<typeof controllableActor<SharedArtifact, SharedUpdateInput>>;
  load: ReturnType<typeof controllableActor<MergeSources, MergeSourcesInput>>;
  ux: ReturnType<typeof userEvent.setup>;
  live: () => AnyActorRef | null;
  /** The answers of the last PUT the page sent. */
  sent: SharedUpdateInput[];
}
let h: Harness;

/** The shared artifact edit page with the title and the goal changed and Save pressed: the gate check waits. */
async function setup(): Promise<Harness> {
  const gateCheck = controllableActor<GateCheckResponse, GateCheckInput>();
  const update = controllableActor<SharedArtifact, SharedUpdateInput>();
  const load = controllableActor<MergeSources, MergeSourcesInput>();
  const fetchArtifact = controllableActor<EditableArtifact, { artifactId: number }>();
  let saveActor: AnyActorRef | null = null;
  const inspect = (event: InspectionEvent) => {
    coverageInspector(event);
    const logic = (event.actorRef as unknown as { logic?: { id?: string } }).logic;
    if (event.type === '@xstate.actor' && logic?.id === sharedArtifactSaveMachine.id)
      saveActor = event.actorRef as AnyActorRef;
  };
  const rendered = renderArtifactEdit({
    input: { kind: 'shared', portfolioId: 9, artifactId: 70, readOnly: false },
    fakes: {
      fetchArtifact: fetchArtifact.logic,
      gateCheck: gateCheck.logic,
      updateSharedArtifact: update.logic,
      loadMergeSources: load.logic,
    },
    redirectDelay: 0,
    inspect,
  });
  await act(async () => fetchArtifact.next().deferred.resolve(artifact));
  const ux = userEvent.setup();
  await ux.type(await screen.findByRole('textbox', { name: 'Artifact Name' }), 's');
  await ux.type(screen.getByRole('textbox', { name: /What were students working to learn/ }), ' and motion');
  await ux.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(gateCheck.calls).toHaveLength(1));
  return { ...rendered, gateCheck, update, load, ux, live: () => saveActor, sent: [] };
}

const pageButton = (name: string) =>
  screen.getAllByRole('button', { name }).find((b) => !dialog()?.contains(b)) as HTMLButtonElement;
const dialog = () => screen.queryByRole('alertdialog', { name: 'Edit Conflict' });
const alerts = () =>
  screen
    .queryAllByRole('alert')
    .map((a) => a.textContent ?? '')
    .join(' | ');
const field = (name: string | RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement;

/** The form keeps my edits: the title and the goal as typed. */
function expectMyEdits() {
  expect(field('Artifact Name').value).toBe('Ramp races');
  expect(field(/What were students working to learn/).value).toBe('Forces and motion');
}

async function expectWaiting() {
  await waitFor(() => expect(pageButton('Save').getAttribute('aria-busy')).toBe('true'));
  expect(dialog()).toBeNull();
  expectMyEdits();
}

async function expectEditing() {
  await waitFor(() => expect(pageButton('Save').disabled).toBe(false));
  expect(dialog()).toBeNull();
  expectMyEdits();
  expect(h.update.calls.length + h.gateCheck.calls.length + h.load.calls.length).toBe(0);
  expect(h.navigateToArtifact).not.toHaveBeenCalled();
}

/** What a radio group of the dialog has checked. */
const checkedIn = (group: HTMLElement) =>
  within(group)
    .getAllByRole('radio')
    .filter((r) => (r as HTMLInputElement).checked)
    .map((r) => r.closest('label')?.textContent);

const states: Record<string, (s: Snapshot) => Promise<void>> = {
  checking: async () => {
    await expectWaiting();
    expect(h.gateCheck.calls.map((c) => c.input)).toEqual([{ portfolioId: 9, artifactId: 70, updatedAt: LOADED }]);
  },
  merging: async (s) => {
    await expectWaiting();
    // The merge starts from the version the answers were based on: the loaded one, then the one merged with.
    expect(h.load.calls.map((c) => c.input)).toEqual([{ artifactId: 70, basedOn: s.context.basedOn }]);
    expect(h.update.calls).toHaveLength(0);
  },
  resolving: async (s) => {
    const box = await screen.findByRole('alertdialog', { name: 'Edit Conflict' });
    expect(box.textContent).toContain('Ana Lopez saved this artifact after you opened it, and you both changed');
    // Their change to a field I did not touch is named as kept.
    expect(box.textContent).toContain(
      "Their changes to “What does this evidence show about students' thinking?” are kept as well.",
    );
    const title = within(box).getByRole('group', { name: 'Artifact Name' });
    expect(within(title).getByLabelText('Artifact Name: before').textContent).toContain('Ramp race');
    expect(within(title).getByLabelText('Artifact Name: theirs').textContent).toContain('Ramp rally');
    expect(within(title).getByLabelText('Artifact Name: mine').textContent).toContain('Ramp races');
    const goal = within(box).getByRole('group', { name: 'What were students working to learn?' });
    expect(within(goal).getByLabelText('What were students working to learn?: theirs').textContent).toContain(
      'Forces on ramps',
    );
    const choice = s.context.choices['artifactName'];
    expect(checkedIn(within(box).getByRole('radiogroup', { name: 'Keep for Artifact Name' }))).toEqual(
      choice ? [{ theirs: 'Keep theirs', mine: 'Keep mine', edit: 'Edit' }[choice.pick]] : [],
    );
    if (choice?.pick === 'edit') expect(field('Your text for Artifact Name').value).toBe(EDITED);
    const complete = Object.keys(s.context.choices).length === 2;
    expect((within(box).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(!complete);
    expect(box.contains(document.activeElement)).toBe(true);
    expect(h.update.calls.length + h.gateCheck.calls.length + h.load.calls.length).toBe(0);
  },
  saving: async (s) => {
    await expectWaiting();
    const [put] = h.update.calls.map((c) => c.input);
    expect(put).toEqual({ artifactId: 70, responses: s.context.mine, updatedAt: s.context.savingAt });
    if (s.context.basedOn === 1) expect(put).toEqual({ artifactId: 70, responses: INPUT.responses, updatedAt: LOADED });
    else {
      // Against the newest version, with their field kept and my goal (mine or chosen) kept.
      expect(put!.updatedAt).toBe(s.context.basedOn === 2 ? STORED : NEWEST);
      expect(put!.responses).toMatchObject({ learningGoal: 'Forces and motion', studentThinking: expect.any(String) });
      expect(['Ramp races', 'Ramp rally', EDITED]).toContain(put!.responses['artifactName']);
      if (s.context.basedOn === 3) expect(put!.responses['nextSteps']).toBe('Try friction');
    }
  },
  saved: async (s) => {
    expect(await screen.findByText('Successfully edited shared artifact')).toBeTruthy();
    if (s.context.fromOthers.length > 0) expect(await screen.findByText(/^Saved with .*Ana Lopez/)).toBeTruthy();
    else expect(screen.queryByText(/^Saved with /)).toBeNull();
    await waitFor(() => expect(h.navigateToArtifact).toHaveBeenCalledWith(9, 70));
  },
  cancelled: async () => {
    await expectEditing();
    expect(alerts()).toBe('');
  },
  stopped: async (s) => {
    await waitFor(() => expect(alerts()).toContain(s.context.error!.message));
    await expectEditing();
  },
};
assertEveryStateChecked(sharedArtifactSaveMachine, states);

/** The page's save actor is where the model says (a gesture that did nothing fails here). */
function expectLiveState(s: Snapshot) {
  expect(h.live()?.getSnapshot().value, 'the page is in the state the path reached').toEqual(s.value);
}

const checked = Object.fromEntries(
  Object.entries(states).map(([key, check]) => [
    key,
    async (s: Snapshot) => {
      expectLiveState(s);
      await check(s);
    },
  ]),
);

/** Settles the oldest open call of a fake with the step's output or error. */
const settle =
  (pick: () => { next: () => { deferred: { resolve: (value: never) => void; reject: (error: unknown) => void } } }) =>
  async (step: Step) => {
    const e = step.event as unknown as { type: string; output?: unknown; error?: unknown };
    const call = pick().next();
    await act(async () =>
      e.type.startsWith('xstate.done') ? call.deferred.resolve(e.output as never) : call.deferred.reject(e.error),
    );
  };

const events = {
  'xstate.done.actor.gateCheck': settle(() => h.gateCheck),
  'xstate.error.actor.gateCheck': settle(() => h.gateCheck),
  'xstate.done.actor.updateSharedArtifact': settle(() => h.update),
  'xstate.error.actor.updateSharedArtifact': settle(() => h.update),
  'xstate.done.actor.loadMergeSources': settle(() => h.load),
  'xstate.error.actor.loadMergeSources': settle(() => h.load),
  'merge.choose': async (step: Step) => {
    const { key, choice } = step.event as unknown as { key: string; choice: { pick: string } };
    const title = key === 'artifactName' ? 'Artifact Name' : 'What were students working to learn?';
    const group = within(dialog()!).getByRole('radiogroup', { name: `Keep for ${title}` });
    const label = { theirs: 'Keep theirs', mine: 'Keep mine', edit: 'Edit' }[choice.pick]!;
    await h.ux.click(within(group).getByRole('radio', { name: label }));
    if (choice.pick === 'edit') {
      const text = field(`Your text for ${title}`);
      await h.ux.clear(text);
      await h.ux.type(text, EDITED);
    }
  },
  'merge.save': async () => {
    await h.ux.click(within(dialog()!).getByRole('button', { name: 'Save' }));
  },
  'merge.cancel': async () => {
    await h.ux.click(within(dialog()!).getByRole('button', { name: 'Cancel' }));
  },
};

describe('sharedArtifactSave model (the shared artifact edit page’s Save, merging with saves in between)', () => {
  const alone = sharedArtifactSaveMachine.provide({ actions: { notify: () => undefined } });
  const model = createPathModel(alone, { input: INPUT, events: modelEvents(userEvents, actorEvents) });
  const paths = model.getShortestPaths();
  it('has paths through auto-merge, each choice, a third save during the dialog, and cancel', () => {
    const titles = paths.map(pathTitle);
    expect(titles.some((t) => t.includes('only their other field') && t.startsWith('reaches "saved"'))).toBe(true);
    expect(titles.some((t) => t.includes('artifactName: theirs') && t.includes('learningGoal: mine'))).toBe(true);
    expect(titles.some((t) => t.includes('artifactName: edit'))).toBe(true);
    expect(titles.some((t) => /merge\.save.*\(409\).*loadMergeSources/.test(t))).toBe(true);
    expect(titles.some((t) => t.startsWith('reaches "cancelled"'))).toBe(true);
  });
  for (const path of paths) {
    it(`${pathTitle(path)}`, async () => {
      h = await setup();
      await path.test({ states: checked, events });
      expect(h.gateCheck.calls.length + h.update.calls.length + h.load.calls.length).toBeLessThanOrEqual(1);
    });
  }
});
