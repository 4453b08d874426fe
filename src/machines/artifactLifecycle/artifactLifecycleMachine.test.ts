import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import { ApiError, toUiError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { artifactLifecycleMachine } from './artifactLifecycleMachine.ts';
import type { ArtifactLifecycleInput } from './artifactLifecycleTypes.ts';
import type { EditableArtifact } from './artifactSelectors.ts';
import type { ArtifactSaveOutput } from './artifactSaveMachine.ts';

const answers = { artifactName: 'Ramp', learningGoal: 'Slopes and speed' };
const completed = makeArtifact({ id: 12, portfolio: { id: 7 }, parkingLot: false, responses: answers });
const lot = makeArtifact({ id: 12, portfolio: { id: 7 }, parkingLot: true, responses: {} });
const personal: ArtifactLifecycleInput = { kind: 'personal', portfolioId: 7, artifactId: 12, readOnly: false };

/** The page on an artifact, with its save ending as given; the effects are spies. */
function start(
  input: ArtifactLifecycleInput,
  artifact: EditableArtifact,
  save: ArtifactSaveOutput | Promise<never> = { outcome: 'declined' },
) {
  const saves: unknown[] = [];
  const logic = artifactLifecycleMachine.provide({
    actions: { scrollToTop: () => {}, navigateToArtifact: () => {} },
    actors: {
      fetchArtifact: fromPromise(async () => artifact),
      // A promise in the save machine's place: the page only reads its output.
      artifactSave: fromPromise(async ({ input: saveInput }) => {
        saves.push(saveInput);
        return save;
      }) as never,
      uploadQueue: fromPromise(async () => undefined) as never,
    },
    delays: { redirectDelay: 60_000 },
  });
  const actor = createActor(logic, { input }).start();
  return { actor, saves };
}

const editing = (actor: ReturnType<typeof start>['actor']) =>
  waitFor(actor, (s) => s.matches({ ready: 'editing' }) && s.context.artifact !== null);

describe('artifactLifecycleMachine guards', () => {
  it('isReadOnly / hasBadAddress: a researcher is denied; an address without ids finds nothing', () => {
    expect(start({ ...personal, readOnly: true }, completed).actor.getSnapshot().value).toBe('denied');
    expect(start({ ...personal, portfolioId: Number.NaN }, completed).actor.getSnapshot().value).toBe('notFound');
  });

  it('isInThisPortfolio: an artifact of another portfolio is not found', async () => {
    const { actor } = start(personal, makeArtifact({ id: 12, portfolio: { id: 99 } }));
    await waitFor(actor, (s) => s.matches('notFound'));
    expect(actor.getSnapshot().context.artifact).toBeNull();
  });

  it('isInParkingLot / isCompleted: a completed artifact is only saved; a lot artifact is saved to the lot or submitted', async () => {
    const done = start(personal, completed);
    await editing(done.actor);
    done.actor.send({ type: 'artifact.saveToLot' });
    done.actor.send({ type: 'artifact.submit' });
    expect(done.saves).toEqual([]);
    const inLot = start(personal, lot);
    await editing(inLot.actor);
    inLot.actor.send({ type: 'artifact.save' });
    expect(inLot.saves).toEqual([]);
  });

  it('hasIssues: a submit without the core questions stays on the form and saves nothing', async () => {
    const { actor, saves } = start(personal, lot);
    await editing(actor);
    actor.send({ type: 'artifact.submit' });
    expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true);
    expect(Object.keys(actor.getSnapshot().context.issues).length).toBeGreaterThan(0);
    expect(saves).toEqual([]);
  });

  it('isSaved: a saved artifact is stored (the save told the user)', async () => {
    const answered: Artifact = { ...completed, responses: { artifactName: 'Ramp races' } };
    const own = start(personal, completed, { outcome: 'saved', artifact: answered });
    await editing(own.actor);
    own.actor.send({ type: 'artifact.save' });
    await waitFor(own.actor, (s) => s.matches({ ready: 'saved' }));
    expect(own.actor.getSnapshot().context.artifact).toEqual(answered);
    expect(own.saves).toEqual([
      {
        kind: 'personal',
        portfolioId: 7,
        artifactId: 12,
        intent: 'save',
        responses: answers,
        updatedAt: completed.updated_at,
        version: 0,
        questions: completed.structure,
      },
    ]);
    const shared = start({ ...personal, kind: 'shared' }, completed, { outcome: 'saved', artifact: null });
    await editing(shared.actor);
    shared.actor.send({ type: 'artifact.save' });
    await waitFor(shared.actor, (s) => s.matches({ ready: 'saved' }));
    // storeSaved: a shared save keeps the artifact as loaded.
    expect(shared.actor.getSnapshot().context.artifact).toBe(completed);
  });
});

describe('artifactLifecycleMachine actions', () => {
  it('storeOutcomeError: after a failed save (it alerted the server’s message) the answers stay', async () => {
    const error = toUiError(new ApiError(400, 'completed', 'Refused.', ''));
    const { actor } = start(personal, completed, { outcome: 'failed', error });
    await editing(actor);
    actor.send({ type: 'field.change', key: 'artifactName', value: 'Ramp races' });
    actor.send({ type: 'artifact.save' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.draft.artifactName).toBe('Ramp races');
    expect(actor.getSnapshot().context.error).toEqual(error);
  });

  it('storeOutcomeError: a stopped save keeps why; a declined one changes nothing', async () => {
    const error = { kind: 'invalid', status: null, message: 'Invalid updated_at parameter.' } as const;
    const stopped = start(personal, completed, { outcome: 'stopped', error });
    await editing(stopped.actor);
    stopped.actor.send({ type: 'artifact.save' });
    await waitFor(stopped.actor, (s) => s.context.error !== null);
    expect(stopped.actor.getSnapshot().context.error).toEqual(error);
    const declined = start(personal, completed, { outcome: 'declined' });
    await editing(declined.actor);
    declined.actor.send({ type: 'artifact.save' });
    await waitFor(declined.actor, () => declined.saves.length === 1);
    await editing(declined.actor);
    expect(declined.actor.getSnapshot().context.error).toBeNull();
  });
});
