import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyActorRef, InspectionEvent, SnapshotFrom } from 'xstate';
import type { EditableArtifact } from '../../src/machines/artifactLifecycle/artifactSelectors.ts';
import {
  OVERWRITE_QUESTION,
  sharedArtifactSaveMachine,
  type GateCheckInput,
  type SharedArtifactSaveEvent,
  type SharedArtifactSaveInput,
  type SharedUpdateInput,
} from '../../src/machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { GateCheckResponse } from '../../src/schemas/sharedArtifact.ts';
import { conflictSentence } from '../../src/views/artifacts/edit/EditConflictDialog.tsx';
import type { SharedArtifact } from '../../src/schemas/sharedPortfolio.ts';
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
const artifact = makeSharedArtifactDetail({ updated_at: LOADED });

/** What the page sends once the user added an 's' to the title and pressed Save. */
const INPUT: SharedArtifactSaveInput = {
  portfolioId: 9,
  artifactId: 70,
  responses: { artifactName: 'Ramp races', learningGoal: 'Forces' },
  updatedAt: LOADED,
};

const ok: GateCheckResponse = { type: 'ok', message: 'Shared artifact can be safely saved.', updated_at: LOADED };
const conflict: GateCheckResponse = {
  type: 'warning',
  message: 'This artifact has recently been saved by someone else at 03/02/26 11:30.',
  updated_at: STORED,
};
// The newest version names who saved it (the server's answer since it records the saver); `conflict` does not (an older server).
const newest: GateCheckResponse = {
  type: 'warning',
  message: 'This artifact has recently been saved by someone else at 03/02/26 11:45.',
  updated_at: NEWEST,
  saved_by: { id: 99, username: 'Ana Lopez' },
};
const refusal: GateCheckResponse = { type: 'error', message: 'Invalid updated_at parameter.' };
const offline = new NetworkError();
const stale = new ApiError(
  409,
  'conflict',
  'This artifact has recently been saved by someone else at 03/02/26 11:45.',
  '',
);
const refused = new ApiError(400, 'invalid_responses', 'Field Artifact Name is required.', '');
const saved: SharedArtifact = makeSharedArtifact({ responses: INPUT.responses, updated_at: NEWEST });

const userEvents: SharedArtifactSaveEvent[] = [{ type: 'overwrite.confirm' }, { type: 'overwrite.cancel' }];
const actorEvents = {
  gateCheck: [
    { type: 'xstate.done.actor.gateCheck', output: ok },
    { type: 'xstate.done.actor.gateCheck', output: conflict },
    { type: 'xstate.done.actor.gateCheck', output: newest },
    { type: 'xstate.done.actor.gateCheck', output: refusal },
    { type: 'xstate.error.actor.gateCheck', error: offline },
  ],
  updateSharedArtifact: [
    { type: 'xstate.done.actor.updateSharedArtifact', output: saved },
    { type: 'xstate.error.actor.updateSharedArtifact', error: stale },
    { type: 'xstate.error.actor.updateSharedArtifact', error: refused },
  ],
} as unknown as Record<string, SharedArtifactSaveEvent[]>;

/** Short names of the payloads, for readable test names. */
const LABELS = new Map<unknown, string>([
  [ok, 'ok'],
  [conflict, 'warning'],
  [newest, 'warning, newest version'],
  [refusal, 'error'],
  [offline, 'offline'],
  [stale, '409'],
  [refused, '400'],
  [saved, 'saved'],
]);

function pathTitle(path: { state: { value: unknown }; steps: readonly Step[] }): string {
  const events = path.steps.slice(1).map(({ event }) => {
    const e = event as { type: string; output?: unknown; error?: unknown };
    const label = LABELS.get(e.output ?? e.error);
    return `${e.type.replace('xstate.', '')}${label ? ` (${label})` : ''}`;
  });
  return `reaches ${JSON.stringify(path.state.value)}: Save → ${events.join(' → ') || 'gate check asked'}`;
}

interface Harness extends ReturnType<typeof renderArtifactEdit> {
  gateCheck: ReturnType<typeof controllableActor<GateCheckResponse, GateCheckInput>>;
  update: ReturnType<typeof controllableActor<SharedArtifact, SharedUpdateInput>>;
  ux: ReturnType<typeof userEvent.setup>;
  /** The save actor the page started. */
  live: () => AnyActorRef | null;
  /** The last answer of the gate check. */
  lastGate: GateCheckResponse | null;
}
let h: Harness;

/**
 * The shared artifact edit page with the artifact loaded, the title changed and Save pressed:
 * the save machine then starts in `checking`, waiting for the gate check the test settles.
 */
async function setup(): Promise<Harness> {
  const gateCheck = controllableActor<GateCheckResponse, GateCheckInput>();
  const update = controllableActor<SharedArtifact, SharedUpdateInput>();
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
    fakes: { fetchArtifact: fetchArtifact.logic, gateCheck: gateCheck.logic, updateSharedArtifact: update.logic },
    redirectDelay: 0,
    inspect,
  });
  await act(async () => fetchArtifact.next().deferred.resolve(artifact));
  const ux = userEvent.setup();
  await ux.type(await screen.findByRole('textbox', { name: 'Artifact Name' }), 's');
  await ux.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(gateCheck.calls).toHaveLength(1));
  return { ...rendered, gateCheck, update, ux, live: () => saveActor, lastGate: null };
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const dialog = () => screen.queryByRole('alertdialog', { name: 'Edit Conflict' });
const alerts = () =>
  screen
    .queryAllByRole('alert')
    .map((a) => a.textContent ?? '')
    .join(' | ');

/** While a request runs: no question, the title kept, Save busy. */
async function expectWaiting() {
  await waitFor(() => expect(button('Save').getAttribute('aria-busy')).toBe('true'));
  expect(dialog()).toBeNull();
  expect((screen.getByRole('textbox', { name: 'Artifact Name' }) as HTMLInputElement).value).toBe('Ramp races');
}

/** Back at the form: the answers kept, Save offered again, nothing left to send. */
async function expectEditing() {
  await waitFor(() => expect(button('Save').disabled).toBe(false));
  expect(button('Save').getAttribute('aria-busy')).toBeNull();
  expect(dialog()).toBeNull();
  expect((screen.getByRole('textbox', { name: 'Artifact Name' }) as HTMLInputElement).value).toBe('Ramp races');
  expect(h.update.calls).toHaveLength(0);
  expect(h.gateCheck.calls).toHaveLength(0);
  expect(h.navigateToArtifact).not.toHaveBeenCalled();
}

/** Every state has a DOM assertion (`assertEveryStateChecked` below makes sure). */
const states: Record<string, (s: Snapshot) => Promise<void>> = {
  checking: async () => {
    await expectWaiting();
    // The gate check asks about the version the editor loaded.
    expect(h.gateCheck.calls.map((c) => c.input)).toEqual([{ portfolioId: 9, artifactId: 70, updatedAt: LOADED }]);
    expect(h.update.calls).toHaveLength(0);
  },
  rechecking: async () => {
    await expectWaiting();
    // After a 409 a fresh gate check learns the stored version; the loaded one is what it compares with.
    expect(h.gateCheck.calls.map((c) => c.input)).toEqual([{ portfolioId: 9, artifactId: 70, updatedAt: LOADED }]);
    expect(h.update.calls).toHaveLength(0);
  },
  confirming: async (s) => {
    const question = await screen.findByRole('alertdialog', { name: 'Edit Conflict' });
    // Who saved in between and when, when the answer says; the server's message otherwise.
    const why = s.context.conflictSave ? conflictSentence(s.context.conflictSave, null) : s.context.conflictMessage;
    if (s.context.conflictSave)
      expect(why).toMatch(/^Ana Lopez saved this artifact on March 2, 2026 \d{1,2}:45[ap]m, after you opened it\.$/);
    expect(question.textContent).toContain(`${why} ${OVERWRITE_QUESTION}`);
    expect(
      within(question)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['NO', 'YES']);
    expect(question.contains(document.activeElement)).toBe(true);
    expect(h.update.calls).toHaveLength(0);
    expect(h.gateCheck.calls).toHaveLength(0);
  },
  saving: async (s) => {
    await expectWaiting();
    // The PUT carries the loaded version after an ok, or after YES the version the last gate check returned.
    const expected = h.lastGate?.type === 'ok' ? LOADED : h.lastGate!.updated_at;
    expect(h.update.calls.map((c) => c.input)).toEqual([
      { artifactId: 70, responses: INPUT.responses, updatedAt: expected },
    ]);
    expect(s.context.version).toBe(expected);
  },
  saved: async () => {
    expect(await screen.findByText('Successfully edited shared artifact')).toBeTruthy();
    await waitFor(() => expect(h.navigateToArtifact).toHaveBeenCalledWith(9, 70));
    expect(h.navigateToArtifact).toHaveBeenCalledTimes(1);
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

/** The checks, each first comparing the page's save actor with the model. */
const checked = Object.fromEntries(
  Object.entries(states).map(([key, check]) => [
    key,
    async (s: Snapshot) => {
      expectLiveState(s);
      await check(s);
    },
  ]),
);

const events = {
  'xstate.done.actor.gateCheck': async (step: Step) => {
    const { output } = step.event as unknown as { output: GateCheckResponse };
    h.lastGate = output;
    await act(async () => h.gateCheck.next().deferred.resolve(output));
  },
  'xstate.error.actor.gateCheck': async (step: Step) => {
    const { error } = step.event as unknown as { error: unknown };
    await act(async () => h.gateCheck.next().deferred.reject(error));
  },
  'xstate.done.actor.updateSharedArtifact': async (step: Step) => {
    const { output } = step.event as unknown as { output: SharedArtifact };
    await act(async () => h.update.next().deferred.resolve(output));
  },
  'xstate.error.actor.updateSharedArtifact': async (step: Step) => {
    const { error } = step.event as unknown as { error: unknown };
    await act(async () => h.update.next().deferred.reject(error));
  },
  'overwrite.confirm': async () => {
    await h.ux.click(within(dialog()!).getByRole('button', { name: 'YES' }));
  },
  'overwrite.cancel': async () => {
    await h.ux.click(within(dialog()!).getByRole('button', { name: 'NO' }));
  },
};

describe('sharedArtifactSave model (the shared artifact edit page’s Save)', () => {
  // Paths are generated from the machine alone, without the page that shows its alerts.
  const alone = sharedArtifactSaveMachine.provide({ actions: { notify: () => undefined } });
  const model = createPathModel(alone, { input: INPUT, events: modelEvents(userEvents, actorEvents) });
  const paths = model.getShortestPaths();
  it('has paths', () => expect(paths.length).toBeGreaterThan(0));
  for (const path of paths) {
    it(`${pathTitle(path)}`, async () => {
      h = await setup();
      await path.test({ states: checked, events });
      // The page never asked twice: at most the request of the state the path ends in is open.
      expect(h.gateCheck.calls.length + h.update.calls.length).toBeLessThanOrEqual(1);
    });
  }
});
