/**
 * The artifact edit page rendered for a model test: its fake services (each call settled by a
 * path step), its clock, and the page's controls (artifactLifecycle and artifactSave models).
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise, SimulatedClock } from 'xstate';
import type { ArtifactLifecycleInput } from '../../../src/machines/artifactLifecycle/artifactLifecycleMachine.ts';
import type { EditableArtifact } from '../../../src/machines/artifactLifecycle/artifactSelectors.ts';
import type { ArtifactSaveOutput } from '../../../src/machines/artifactLifecycle/artifactSaveMachine.ts';
import type {
  GateCheckInput,
  SharedSaveOutcome,
  SharedUpdateInput,
} from '../../../src/machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { MergeSources, MergeSourcesInput } from '../../../src/machines/sharedArtifactSave/mergeSources.ts';
import type { Artifact } from '../../../src/schemas/artifact.ts';
import type { GateCheckResponse } from '../../../src/schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../../../src/schemas/sharedPortfolio.ts';
import { renderArtifactEdit } from '../../../src/test/artifactEditHarness.tsx';
import { notify } from '../../../src/views/feedback/toastStore.ts';
import { coverageInspector } from './coverage.ts';
import { controllableActor } from './deferred.ts';
import { completedArtifact, defect, LABELS, LOADED, savedShared, type UpdateInput } from './artifactLifecyclePaths.ts';

export interface Harness extends ReturnType<typeof renderArtifactEdit> {
  discardArtifact: ReturnType<typeof controllableActor<Artifact, { artifactId: number }>>;
  fetchArtifact: ReturnType<typeof controllableActor<EditableArtifact, { artifactId: number }>>;
  updateArtifact: ReturnType<typeof controllableActor<Artifact, UpdateInput>>;
  gateCheck: ReturnType<typeof controllableActor<GateCheckResponse, GateCheckInput>>;
  updateShared: ReturnType<typeof controllableActor<SharedArtifact, SharedUpdateInput>>;
  loadMerge: ReturnType<typeof controllableActor<MergeSources, MergeSourcesInput>>;
  ux: ReturnType<typeof userEvent.setup>;
  /** The page's timers (the redirect after a save). */
  clock: SimulatedClock;
  /** The next message shown throws (a defect). */
  flags: { breakNextNotice: boolean };
}

export function setup(input: ArtifactLifecycleInput): Harness {
  const discardArtifact = controllableActor<Artifact, { artifactId: number }>();
  const fetchArtifact = controllableActor<EditableArtifact, { artifactId: number }>();
  const updateArtifact = controllableActor<Artifact, UpdateInput>();
  const gateCheck = controllableActor<GateCheckResponse, GateCheckInput>();
  const updateShared = controllableActor<SharedArtifact, SharedUpdateInput>();
  const loadMerge = controllableActor<MergeSources, MergeSourcesInput>();
  const flags = { breakNextNotice: false };
  const clock = new SimulatedClock();
  const rendered = renderArtifactEdit({
    input,
    fakes: {
      discardArtifact: discardArtifact.logic,
      fetchArtifact: fetchArtifact.logic,
      updateArtifact: updateArtifact.logic,
      gateCheck: gateCheck.logic,
      updateSharedArtifact: updateShared.logic,
      loadMergeSources: loadMerge.logic,
      deleteArtifact: fromPromise<Artifact, { artifactId: number }>(async () => completedArtifact),
      deleteSharedArtifact: fromPromise<SharedArtifact, { artifactId: number }>(async () => savedShared),
    },
    clock,
    notice: ({ message, tone }) => {
      if (flags.breakNextNotice) {
        flags.breakNextNotice = false;
        throw defect;
      }
      notify(message, tone);
    },
    inspect: coverageInspector,
  });
  return {
    ...rendered,
    discardArtifact,
    fetchArtifact,
    updateArtifact,
    gateCheck,
    updateShared,
    loadMerge,
    ux: userEvent.setup(),
    clock,
    flags,
  };
}

export const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent ?? '');
export const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
/** The enabled save buttons on the page. */
export const saveButtons = () =>
  ['Save to Parking Lot', 'Submit to Portfolio', 'Save'].filter((name) => {
    const found = screen.queryByRole('button', { name }) as HTMLButtonElement | null;
    return found !== null && !found.disabled;
  });
export const input = (key: string) => screen.getByRole('textbox', { name: LABELS[key] ?? key }) as HTMLInputElement;

/**
 * Ends the shared save as its outcome says, through the page: the gate check's answer, then the
 * PUT, or a merge with a title both changed and Cancel in the Edit Conflict dialog; a defect
 * (showing the alert throws) fails the save.
 */
export async function endSharedSave(h: Harness, output: SharedSaveOutcome | 'defect'): Promise<void> {
  const gate = h.gateCheck.next();
  if (output === 'defect') {
    h.flags.breakNextNotice = true;
    await act(async () => gate.deferred.resolve({ type: 'error', message: 'Invalid updated_at parameter.' }));
  } else if (output.outcome === 'saved') {
    await act(async () =>
      gate.deferred.resolve({ type: 'ok', message: 'Shared artifact can be safely saved.', updated_at: LOADED }),
    );
    const put = h.updateShared.next();
    await act(async () => put.deferred.resolve(output.artifact));
  } else if (output.outcome === 'stopped') {
    await act(async () => gate.deferred.resolve({ type: 'error', message: output.error.message }));
  } else {
    await act(async () =>
      gate.deferred.resolve({
        type: 'warning',
        message: 'Saved by someone else.',
        updated_at: '2026-03-02T11:00:00.000Z',
      }),
    );
    const read = h.loadMerge.next();
    const base = { number: 1, responses: {}, files: [] };
    await act(async () =>
      read.deferred.resolve({
        base,
        current: { number: 2, responses: { artifactName: 'Their title' }, files: [] },
        updatedAt: '2026-03-02T11:00:00.000Z',
        people: ['Ana Lopez'],
      }),
    );
    await h.ux.click(
      within(await screen.findByRole('alertdialog', { name: 'Edit Conflict' })).getByRole('button', { name: 'Cancel' }),
    );
  }
}

/** Ends a personal save as the page's model says: the PUT answers with the artifact or is refused. */
export async function endPersonalSave(h: Harness, output: ArtifactSaveOutput, refusal: unknown): Promise<void> {
  const put = h.updateArtifact.next();
  await act(async () =>
    output.outcome === 'saved' ? put.deferred.resolve(output.artifact as Artifact) : put.deferred.reject(refusal),
  );
}
