import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import { ApiError, toUiError } from '../../services/errors.ts';
import { BASIC_STRUCTURE, makeArtifact } from '../../test/artifactFixtures.ts';
import type { SharedSaveOutcome } from '../sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { Notice } from '../shared/notice.ts';
import { SAVED_MESSAGE, SHARED_SAVED_MESSAGE } from './artifactLifecycleTypes.ts';
import { artifactSaveMachine, saveInputOf, type ArtifactSaveInput } from './artifactSaveMachine.ts';

const QUESTIONS = BASIC_STRUCTURE;
const saved = makeArtifact({ id: 12, portfolio: { id: 7 }, parkingLot: false });
const refused = new ApiError(400, 'completed', 'A completed artifact cannot go back to the parking lot.', '');
const stoppedError = { kind: 'invalid', status: null, message: 'Invalid updated_at parameter.' } as const;

function input(kind: 'personal' | 'shared', intent: ArtifactSaveInput['intent'] = 'save'): ArtifactSaveInput {
  return {
    kind,
    portfolioId: 7,
    artifactId: 12,
    intent,
    responses: { artifactName: 'Ramp' },
    updatedAt: 'v1',
    version: 4,
    questions: QUESTIONS,
  };
}

/** Runs one save with its calls answered as given; resolves with its output and the PUT's inputs. */
async function run(
  saveInput: ArtifactSaveInput,
  answers: { put?: () => Promise<Artifact>; shared?: () => Promise<SharedSaveOutcome> },
) {
  const puts: unknown[] = [];
  const shared: unknown[] = [];
  const notices: Notice[] = [];
  const logic = artifactSaveMachine.provide({
    actions: { notify: (_, notice) => notices.push(notice) },
    actors: {
      updateArtifact: fromPromise(async ({ input }) => {
        puts.push(input);
        return (answers.put ?? (() => Promise.reject(new Error('no PUT expected'))))();
      }),
      // A promise in the shared save machine's place: the save only reads its outcome.
      sharedArtifactSave: fromPromise(async ({ input }) => {
        shared.push(input);
        return (answers.shared ?? (() => Promise.reject(new Error('no shared save expected'))))();
      }) as never,
    },
  });
  const actor = createActor(logic, { input: saveInput }).start();
  const output = await toPromise(actor);
  return { output, puts, shared, notices, value: actor.getSnapshot().value };
}

describe('artifactSaveMachine guards', () => {
  it('isShared: a personal artifact is PUT with its intent; nothing goes to the shared save', async () => {
    const result = await run(input('personal', 'saveToLot'), { put: async () => saved });
    expect(result.puts).toEqual([{ artifactId: 12, body: { responses: { artifactName: 'Ramp' }, parkingLot: true } }]);
    expect(result.shared).toEqual([]);
  });

  it('isShared: a shared artifact goes to the shared save with the version the page loaded', async () => {
    const result = await run(input('shared'), { shared: async () => ({ outcome: 'cancelled' }) });
    expect(result.shared).toEqual([
      {
        portfolioId: 7,
        artifactId: 12,
        responses: { artifactName: 'Ramp' },
        updatedAt: 'v1',
        version: 4,
        questions: QUESTIONS,
      },
    ]);
    expect(result.puts).toEqual([]);
  });

  it('isSaved / isStopped: the shared save’s outcome decides how the save ends', async () => {
    const artifact = (await run(input('shared'), { shared: async () => ({ outcome: 'saved', artifact: {} as never }) }))
      .output;
    expect(artifact).toEqual({ outcome: 'saved', artifact: null });
    const stopped = await run(input('shared'), { shared: async () => ({ outcome: 'stopped', error: stoppedError }) });
    expect(stopped.value).toBe('stopped');
    const declined = await run(input('shared'), { shared: async () => ({ outcome: 'cancelled' }) });
    expect(declined.value).toBe('declined');
    expect(declined.output).toEqual({ outcome: 'declined' });
    // The shared save alerted why it stopped; NO at the Edit Conflict question says nothing.
    expect([...stopped.notices, ...declined.notices]).toEqual([]);
  });
});

describe('artifactSaveMachine actions', () => {
  it('storeSaved: a personal save ends with the artifact as the server answered', async () => {
    const result = await run(input('personal'), { put: async () => saved });
    expect(result.value).toBe('saved');
    expect(result.output).toEqual({ outcome: 'saved', artifact: saved });
  });

  it('notify: a save tells the user with the personal or the shared message', async () => {
    expect((await run(input('personal'), { put: async () => saved })).notices).toEqual([
      { message: SAVED_MESSAGE, tone: 'success' },
    ]);
    const shared = await run(input('shared'), { shared: async () => ({ outcome: 'saved', artifact: {} as never }) });
    expect(shared.notices).toEqual([{ message: SHARED_SAVED_MESSAGE, tone: 'success' }]);
  });

  it('saveInputOf: the page’s checked responses, the version it loaded and its questions; no intent saves', () => {
    const page = { kind: 'personal', portfolioId: 7, artifactId: 12, responses: { artifactName: 'Ramp' } } as const;
    const artifact = { updated_at: 'v2', structure: QUESTIONS };
    expect(saveInputOf({ ...page, intent: 'submit', artifact })).toEqual({
      ...page,
      intent: 'submit',
      updatedAt: 'v2',
      version: 0,
      questions: QUESTIONS,
    });
    expect(saveInputOf({ ...page, intent: null, artifact }).intent).toBe('save');
    // A shared artifact tells its version number: a merge starts from it.
    expect(saveInputOf({ ...page, kind: 'shared', intent: null, artifact: { ...artifact, version: 6 } }).version).toBe(
      6,
    );
  });

  it('storeStopped: a stopped shared save ends with why it stopped', async () => {
    const result = await run(input('shared'), { shared: async () => ({ outcome: 'stopped', error: stoppedError }) });
    expect(result.output).toEqual({ outcome: 'stopped', error: stoppedError });
  });

  it('storeFailed: a refused PUT or a failing shared save ends with the error as the user reads it', async () => {
    const personal = await run(input('personal'), { put: () => Promise.reject(refused) });
    expect(personal.value).toBe('failed');
    expect(personal.output).toEqual({ outcome: 'failed', error: toUiError(refused) });
    // notify: the server's message is alerted.
    expect(personal.notices).toEqual([{ message: refused.message, tone: 'error' }]);
    const defect = new Error('The alert broke.');
    const shared = await run(input('shared'), { shared: () => Promise.reject(defect) });
    expect(shared.output).toEqual({ outcome: 'failed', error: toUiError(defect) });
  });
});
