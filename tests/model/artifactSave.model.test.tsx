import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArtifactLifecycleInput } from '../../src/machines/artifactLifecycle/artifactLifecycleMachine.ts';
import {
  artifactSaveMachine,
  type ArtifactSaveInput,
  type ArtifactSaveOutput,
} from '../../src/machines/artifactLifecycle/artifactSaveMachine.ts';
import type { EditableArtifact } from '../../src/machines/artifactLifecycle/artifactSelectors.ts';
import type { SharedSaveOutcome } from '../../src/machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import {
  alerts,
  button,
  endPersonalSave,
  endSharedSave,
  saveButtons,
  setup,
  type Harness,
} from './support/artifactEditModel.tsx';
import {
  completedArtifact,
  defect,
  outcomes,
  refused,
  sharedArtifact,
  type Step,
} from './support/artifactLifecyclePaths.ts';
import { checkStates } from './support/checkStates.ts';
import { modelEvents } from './support/coverage.ts';
import { checkedShortestPaths, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(artifactSaveMachine);
afterEach(clearToasts);

type Snapshot = ReturnType<typeof artifactSaveMachine.getInitialSnapshot>;

const MODES: { name: string; page: ArtifactLifecycleInput; artifact: EditableArtifact; save: ArtifactSaveInput }[] = [
  {
    name: 'a completed artifact, Save',
    page: { kind: 'personal', portfolioId: 7, artifactId: 12, readOnly: false },
    artifact: completedArtifact,
    save: {
      kind: 'personal',
      portfolioId: 7,
      artifactId: 12,
      intent: 'save',
      responses: { artifactName: 'Ramp races', learningGoal: 'Slopes and speed' },
      updatedAt: completedArtifact.updated_at,
      version: 0,
      questions: completedArtifact.structure,
    },
  },
  {
    name: 'a shared artifact, Save',
    page: { kind: 'shared', portfolioId: 9, artifactId: 70, readOnly: false },
    artifact: sharedArtifact,
    save: {
      kind: 'shared',
      portfolioId: 9,
      artifactId: 70,
      intent: 'save',
      responses: {},
      updatedAt: sharedArtifact.updated_at,
      version: sharedArtifact.version,
      questions: sharedArtifact.structure,
    },
  },
];

const actorEvents = {
  updateArtifact: [
    { type: 'xstate.done.actor.updateArtifact', output: completedArtifact },
    { type: 'xstate.error.actor.updateArtifact', error: refused },
  ],
  sharedArtifactSave: [
    { type: 'xstate.done.actor.sharedArtifactSave', output: outcomes.saved },
    { type: 'xstate.done.actor.sharedArtifactSave', output: outcomes.stopped },
    { type: 'xstate.done.actor.sharedArtifactSave', output: outcomes.cancelled },
    { type: 'xstate.error.actor.sharedArtifactSave', error: defect },
  ],
} as unknown as Record<string, never[]>;

let h: Harness;

/** The form is back, unlocked, with its save buttons (after a save that did not happen). */
async function formIsBack(): Promise<void> {
  await waitFor(() => expect(saveButtons()).toEqual(['Save']));
  expect(screen.queryByRole('alertdialog')).toBeNull();
}

const checks: Record<string, (s: Snapshot) => Promise<void> | void> = {
  choosing: () => {
    throw new Error('choosing is transient: a path never rests there');
  },
  saving: async ({ context }) => {
    await waitFor(() => expect(button('Save').getAttribute('aria-busy')).toBe('true'));
    expect(h.updateArtifact.calls.map((c) => c.input)).toEqual([
      { artifactId: 12, body: { responses: context.responses, parkingLot: false } },
    ]);
    expect(h.gateCheck.calls).toHaveLength(0);
  },
  savingShared: async ({ context }) => {
    await waitFor(() => expect(button('Save').getAttribute('aria-busy')).toBe('true'));
    // The gate check of the version the page loaded; nothing goes to the personal endpoint.
    expect(h.gateCheck.calls.map((c) => c.input)).toEqual([
      { portfolioId: 9, artifactId: 70, updatedAt: context.updatedAt },
    ]);
    expect(h.updateArtifact.calls).toHaveLength(0);
  },
  saved: async ({ context }) => {
    const message = context.kind === 'shared' ? 'Successfully edited shared artifact' : 'Successfully edited artifact';
    expect(await screen.findByText(message)).toBeTruthy();
    expect(context.output).toEqual({
      outcome: 'saved',
      artifact: context.kind === 'shared' ? null : completedArtifact,
    });
  },
  stopped: async ({ context }) => {
    // The shared save alerted why it stopped; the answers stay for another try.
    await formIsBack();
    expect(alerts().join()).toContain(outcomes.stopped.error.message);
    expect(context.output).toEqual({ outcome: 'stopped', error: outcomes.stopped.error });
  },
  declined: async () => {
    // Cancel in the Edit Conflict dialog: back to the answers, nothing sent.
    await formIsBack();
    expect(h.updateShared.calls).toHaveLength(0);
  },
  failed: async ({ context }) => {
    await formIsBack();
    const { error } = context.output as Extract<ArtifactSaveOutput, { outcome: 'failed' }>;
    await waitFor(() => expect(alerts().join()).toContain(error.message));
  },
};
const states = checkStates<Snapshot>(checks);

const events = {
  'xstate.done.actor.updateArtifact': (step: Step) =>
    endPersonalSave(h, { outcome: 'saved', artifact: (step.event as unknown as { output: never }).output }, refused),
  'xstate.error.actor.updateArtifact': () => endPersonalSave(h, { outcome: 'declined' }, refused),
  'xstate.done.actor.sharedArtifactSave': (step: Step) =>
    endSharedSave(h, (step.event as unknown as { output: SharedSaveOutcome }).output),
  'xstate.error.actor.sharedArtifactSave': () => endSharedSave(h, 'defect'),
};

for (const mode of MODES) {
  describe(`artifactSave model (${mode.name})`, () => {
    const paths = checkedShortestPaths(
      artifactSaveMachine,
      { input: mode.save, events: modelEvents([], actorEvents) },
      checks,
      1,
    );
    for (const path of paths) {
      it(`${pathName(path)}`, async () => {
        // The page is loaded and Save pressed: the page's save starts.
        h = setup(mode.page);
        await act(async () => h.fetchArtifact.next().deferred.resolve(mode.artifact));
        await waitFor(() => expect(saveButtons()).toEqual(['Save']));
        await h.ux.click(button('Save'));
        await path.test({ states, events });
        for (const fake of [h.updateArtifact, h.gateCheck, h.updateShared])
          expect(fake.calls.length).toBeLessThanOrEqual(1);
      });
    }
  });
}
