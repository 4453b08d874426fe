/**
 * The artifact edit page's path model: its fixtures and the events the paths may take in each
 * mode (personal, new, shared), used by artifactLifecycle.model.test.tsx.
 */
import type {
  artifactLifecycleMachine,
  ArtifactLifecycleEvent,
} from '../../../src/machines/artifactLifecycle/artifactLifecycleMachine.ts';
import { draftFromResponses } from '../../../src/machines/artifactLifecycle/draft.ts';
import type { ArtifactSaveOutput } from '../../../src/machines/artifactLifecycle/artifactSaveMachine.ts';
import type { SharedSaveOutcome } from '../../../src/machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { ArtifactUpdateBody } from '../../../src/schemas/artifact.ts';
import { ApiError, NetworkError, toUiError } from '../../../src/services/errors.ts';
import { makeArtifact } from '../../../src/test/artifactFixtures.ts';
import { makeSharedArtifactDetail } from '../../../src/test/sharedArtifactFixtures.ts';
import { makeSharedArtifact } from '../../../src/test/sharedFixtures.ts';

export type Snapshot = ReturnType<typeof artifactLifecycleMachine.getInitialSnapshot>;
export type UpdateInput = { artifactId: number; body: ArtifactUpdateBody };
export type Step = { event: { type: string } };

export const lotArtifact = makeArtifact({ id: 12, portfolio: { id: 7 }, parkingLot: true, responses: {} });
export const completedArtifact = makeArtifact({
  id: 12,
  portfolio: { id: 7 },
  parkingLot: false,
  responses: { artifactName: 'Ramp races', learningGoal: 'Slopes and speed' },
});
export const elsewhere = makeArtifact({ id: 12, portfolio: { id: 99 } });
/** Create New Artifact's artifact, before its first save. */
export const newArtifact = makeArtifact({
  id: 12,
  portfolio: { id: 7 },
  parkingLot: true,
  responses: {},
  saved: false,
});
export const notFound = new ApiError(404, 'not_found', 'Artifact not found.', '');
export const offline = new NetworkError();
export const refused = new ApiError(400, 'completed', 'A completed artifact cannot go back to the parking lot.', '');

export const LOADED = '2026-03-02T10:00:00.000Z';
export const sharedArtifact = makeSharedArtifactDetail({ updated_at: LOADED });
export const sharedElsewhere = makeSharedArtifactDetail({ sharedPortfolio: { id: 10 } });
export const sharedNotFound = new ApiError(404, 'not_found', 'Shared artifact not found.', '');
export const savedShared = makeSharedArtifact({
  responses: { artifactName: 'Ramp races', learningGoal: 'Forces' },
  updated_at: '2026-03-02T12:00:00.000Z',
});
/** How the shared save can end (its own model test covers how it gets there). */
export const outcomes = {
  saved: { outcome: 'saved', artifact: savedShared },
  stopped: { outcome: 'stopped', error: { kind: 'invalid', status: null, message: 'Invalid updated_at parameter.' } },
  cancelled: { outcome: 'cancelled' },
} satisfies Record<string, SharedSaveOutcome>;
/** A defect in the save (here: showing its alert throws) makes the invoked actor fail. */
export const defect = new Error('The alert broke.');

/** How the page's save can end (artifactSave.model.test.tsx covers how it gets there). */
export const saveOutputs = {
  refused: { outcome: 'failed', error: toUiError(refused) },
  sharedSaved: { outcome: 'saved', artifact: null },
  stopped: outcomes.stopped,
  declined: { outcome: 'declined' },
  defect: { outcome: 'failed', error: toUiError(defect) },
} satisfies Record<string, ArtifactSaveOutput>;

/** What the user types, by question key. */
export const LABELS: Record<string, string> = {
  artifactName: 'Artifact Name',
  learningGoal: 'What were students working to learn?',
};

export const REDIRECT = 'xstate.after.redirectDelay.artifactLifecycle.ready.saved';
export const timerEvents = [{ type: REDIRECT }] as unknown as ArtifactLifecycleEvent[];

export const personalUserEvents: ArtifactLifecycleEvent[] = [
  { type: 'field.change', key: 'artifactName', value: 'Ramp races' },
  { type: 'field.change', key: 'learningGoal', value: 'Slopes and speed' },
  { type: 'artifact.saveToLot' },
  { type: 'artifact.submit' },
  { type: 'artifact.save' },
  { type: 'retry' },
];
export const personalActorEvents = {
  fetchArtifact: [
    { type: 'xstate.done.actor.fetchArtifact', output: lotArtifact },
    { type: 'xstate.done.actor.fetchArtifact', output: completedArtifact },
    { type: 'xstate.done.actor.fetchArtifact', output: elsewhere },
    { type: 'xstate.error.actor.fetchArtifact', error: notFound },
    { type: 'xstate.error.actor.fetchArtifact', error: offline },
  ],
  artifactSave: [
    {
      type: 'xstate.done.actor.artifactSave',
      output: { outcome: 'saved', artifact: { ...completedArtifact, responses: { artifactName: 'Ramp races' } } },
    },
    { type: 'xstate.done.actor.artifactSave', output: saveOutputs.refused },
  ],
} as unknown as Record<string, ArtifactLifecycleEvent[]>;

/** A new artifact: typed or not, saved to the lot or left (the rest is covered above). */
export const newUserEvents: ArtifactLifecycleEvent[] = [
  { type: 'field.change', key: 'artifactName', value: 'Ramp races' },
  { type: 'artifact.saveToLot' },
];
export const newActorEvents = {
  fetchArtifact: [{ type: 'xstate.done.actor.fetchArtifact', output: newArtifact }],
  artifactSave: [
    {
      type: 'xstate.done.actor.artifactSave',
      output: {
        outcome: 'saved',
        artifact: { ...newArtifact, responses: { artifactName: 'Ramp races' }, saved: true },
      },
    },
  ],
  discardArtifact: [
    { type: 'xstate.done.actor.discardArtifact', output: newArtifact },
    { type: 'xstate.error.actor.discardArtifact', error: offline },
  ],
} as unknown as Record<string, ArtifactLifecycleEvent[]>;

export const sharedUserEvents: ArtifactLifecycleEvent[] = [
  { type: 'field.change', key: 'artifactName', value: 'Ramp races' },
  { type: 'artifact.save' },
  { type: 'retry' },
];
export const sharedActorEvents = {
  fetchArtifact: [
    { type: 'xstate.done.actor.fetchArtifact', output: sharedArtifact },
    { type: 'xstate.done.actor.fetchArtifact', output: sharedElsewhere },
    { type: 'xstate.error.actor.fetchArtifact', error: sharedNotFound },
    { type: 'xstate.error.actor.fetchArtifact', error: offline },
  ],
  artifactSave: [
    { type: 'xstate.done.actor.artifactSave', output: saveOutputs.sharedSaved },
    { type: 'xstate.done.actor.artifactSave', output: saveOutputs.stopped },
    { type: 'xstate.done.actor.artifactSave', output: saveOutputs.declined },
    { type: 'xstate.done.actor.artifactSave', output: saveOutputs.defect },
  ],
} as unknown as Record<string, ArtifactLifecycleEvent[]>;

/**
 * Deleting is offered once per loaded artifact, before anything was typed or saved (the delete
 * flow itself has its own model test).
 */
export function deleteEvents(snapshot: unknown): ArtifactLifecycleEvent[] {
  const s = snapshot as Snapshot;
  if (!s.matches({ ready: 'editing' }) || s.context.intent !== null || !s.context.artifact) return [];
  const untouched =
    JSON.stringify(s.context.draft) ===
    JSON.stringify(draftFromResponses(s.context.artifact.structure, s.context.artifact.responses));
  return untouched ? [{ type: 'artifact.deleted' }] : [];
}

/**
 * Leaving the form: Cancel, or a header link (the app then asks with leave.request), before any
 * save was tried (saving has its own paths); then the question's two answers.
 */
export function leaveEvents(snapshot: unknown): ArtifactLifecycleEvent[] {
  const s = snapshot as Snapshot;
  if (s.matches({ ready: 'confirmingLeave' })) return [{ type: 'leave.stay' }, { type: 'leave.confirm' }];
  if (!s.matches({ ready: 'editing' }) || s.context.intent !== null) return [];
  return [{ type: 'artifact.cancel' }, { type: 'leave.request' }];
}
