import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  artifactLifecycleMachine,
  REDIRECT_DELAY_MS,
  SHARED_ARTIFACT_NOT_FOUND,
  type ArtifactLifecycleEvent,
  type ArtifactLifecycleInput,
} from '../../src/machines/artifactLifecycle/artifactLifecycleMachine.ts';
import type { ArtifactSaveOutput } from '../../src/machines/artifactLifecycle/artifactSaveMachine.ts';
import { FORM_ERROR_MESSAGE } from '../../src/schemas/responses.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { READ_ONLY_MESSAGE } from '../../src/views/pages/ArtifactEditPage.tsx';
import {
  alerts,
  button,
  endPersonalSave,
  endSharedSave,
  input,
  saveButtons,
  setup,
  type Harness,
} from './support/artifactEditModel.tsx';
import { checkStates } from './support/checkStates.ts';
import { assertEveryStateChecked, createPathModel, modelEvents } from './support/coverage.ts';
import { answerAsStep } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';
import {
  completedArtifact,
  deleteEvents,
  elsewhere,
  leaveEvents,
  lotArtifact,
  newActorEvents,
  newArtifact,
  newUserEvents,
  notFound,
  offline,
  outcomes,
  personalActorEvents,
  personalUserEvents,
  REDIRECT,
  refused,
  saveOutputs,
  sharedActorEvents,
  sharedArtifact,
  sharedElsewhere,
  sharedNotFound,
  sharedUserEvents,
  type Snapshot,
  type Step,
  timerEvents,
} from './support/artifactLifecyclePaths.ts';

trackCoverage(artifactLifecycleMachine);
afterEach(clearToasts);

/** Short names of the payloads, for readable test names. */
const LABELS_OF = new Map<unknown, string>([
  [lotArtifact, 'parking-lot artifact'],
  [newArtifact, 'never-saved artifact'],
  [completedArtifact, 'completed artifact'],
  [elsewhere, 'artifact of another portfolio'],
  [notFound, '404'],
  [offline, 'offline'],
  [refused, '400'],
  [sharedArtifact, 'shared artifact'],
  [sharedElsewhere, 'shared artifact of another shared portfolio'],
  [sharedNotFound, '404'],
  [saveOutputs.refused, '400'],
  [saveOutputs.sharedSaved, 'saved'],
  [outcomes.stopped, 'stopped by the gate check'],
  [saveOutputs.declined, 'Cancel at Edit Conflict'],
  [saveOutputs.defect, 'defect'],
]);

function describePath(path: { state: { value: unknown }; steps: readonly Step[] }): string {
  const events = path.steps.slice(1).map(({ event }) => {
    const e = event as { type: string; output?: unknown; error?: unknown; key?: string };
    const label = LABELS_OF.get(e.output ?? e.error) ?? e.key ?? (e.output ? 'saved artifact' : '');
    return `${e.type.replace('xstate.', '')}${label ? ` (${label})` : ''}`;
  });
  return `reaches ${JSON.stringify(path.state.value)}: ${events.join(' → ') || 'start'}`;
}

const MODES: {
  name: string;
  input: ArtifactLifecycleInput;
  userEvents: ArtifactLifecycleEvent[];
  actorEvents: Record<string, ArtifactLifecycleEvent[]>;
}[] = [
  {
    name: 'a teacher’s artifact',
    input: { kind: 'personal', portfolioId: 7, artifactId: 12, readOnly: false },
    userEvents: personalUserEvents,
    actorEvents: personalActorEvents,
  },
  {
    name: 'a new artifact',
    input: { kind: 'personal', portfolioId: 7, artifactId: 12, readOnly: false },
    userEvents: newUserEvents,
    actorEvents: newActorEvents,
  },
  {
    name: 'a researcher',
    input: { kind: 'personal', portfolioId: 7, artifactId: 12, readOnly: true },
    userEvents: personalUserEvents,
    actorEvents: personalActorEvents,
  },
  {
    name: 'an address without a portfolio id',
    input: { kind: 'personal', portfolioId: Number.NaN, artifactId: 12, readOnly: false },
    userEvents: personalUserEvents,
    actorEvents: personalActorEvents,
  },
  {
    name: 'a shared artifact',
    input: { kind: 'shared', portfolioId: 9, artifactId: 70, readOnly: false },
    userEvents: sharedUserEvents,
    actorEvents: sharedActorEvents,
  },
  {
    name: 'a shared artifact’s address without a portfolio id',
    input: { kind: 'shared', portfolioId: Number.NaN, artifactId: 70, readOnly: false },
    userEvents: sharedUserEvents,
    actorEvents: sharedActorEvents,
  },
];

let h: Harness;

/** Every state has a DOM assertion (`assertEveryStateChecked` below makes sure). */
const states: Record<string, (s: Snapshot) => Promise<void>> = {
  starting: async () => {
    throw new Error('starting is transient: a path never rests there');
  },
  loading: async () => {
    expect(await screen.findByRole('status', { name: 'Loading artifact' })).toBeTruthy();
    expect(h.fetchArtifact.calls).toHaveLength(1);
  },
  denied: async () => {
    expect(await screen.findByText(READ_ONLY_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(h.fetchArtifact.calls).toHaveLength(0);
  },
  notFound: async (state) => {
    expect(await screen.findByText(state.context.notFoundMessage!)).toBeTruthy();
    if (state.context.kind === 'shared') expect(state.context.notFoundMessage).toBe(SHARED_ARTIFACT_NOT_FOUND);
    expect(screen.queryByRole('textbox')).toBeNull();
  },
  loadFailed: async (state) => {
    await waitFor(() => expect(alerts().join()).toContain(state.context.error!.message));
    expect(button('Try again')).toBeTruthy();
  },
  'ready.editing': async (state) => {
    const { artifact, draft, issues, error, kind } = state.context;
    await waitFor(() => expect(button('Delete Artifact').disabled).toBe(false));
    expect(input('artifactName').value).toBe(draft.artifactName);
    expect(input('learningGoal').value).toBe(draft.learningGoal);
    const messages = Object.values(issues);
    // The summary at the top, and each question's message under it.
    expect(alerts().filter((text) => text === FORM_ERROR_MESSAGE)).toEqual(
      messages.length > 0 ? [FORM_ERROR_MESSAGE] : [],
    );
    expect(messages.filter((message) => screen.queryByText(message) === null)).toEqual([]);
    // Problems bring the top of the page into view.
    expect(messages.length === 0 || h.scrollToTop.mock.calls.length > 0).toBe(true);
    // A refused save is alerted with the server's message.
    expect(error === null || alerts().join().includes(error.message)).toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() =>
      expect(saveButtons()).toEqual(artifact!.parkingLot ? ['Save to Parking Lot', 'Submit to Portfolio'] : ['Save']),
    );
    if (kind === 'shared')
      expect(screen.getByRole('region', { name: 'Team questions for shared portfolio' })).toBeTruthy();
  },
  'ready.validating': async () => {
    throw new Error('validating is transient: a path never rests there');
  },
  'ready.saving': async (state) => {
    if (state.context.kind === 'shared') {
      await waitFor(() => expect(button('Save').getAttribute('aria-busy')).toBe('true'));
      // The shared save starts with the gate check of the version the page loaded; nothing goes to the personal endpoint.
      expect(h.gateCheck.calls.map((c) => c.input)).toEqual([
        { portfolioId: 9, artifactId: 70, updatedAt: state.context.artifact!.updated_at },
      ]);
      expect(h.updateArtifact.calls).toHaveLength(0);
      return;
    }
    const pressed = { saveToLot: 'Save to Parking Lot', submit: 'Submit to Portfolio', save: 'Save' }[
      state.context.intent!
    ];
    await waitFor(() => expect(button(pressed).getAttribute('aria-busy')).toBe('true'));
    const call = h.updateArtifact.calls[0]!;
    expect(call.input).toEqual({
      artifactId: 12,
      body: { responses: state.context.responses, parkingLot: state.context.intent === 'saveToLot' },
    });
  },
  'ready.saved': async (state) => {
    expect(
      await screen.findByText(
        state.context.kind === 'shared' ? 'Successfully edited shared artifact' : 'Successfully edited artifact',
      ),
    ).toBeTruthy();
    expect(input('artifactName').disabled).toBe(true);
  },
  'ready.left': async (state) => {
    await waitFor(() =>
      expect(h.navigateToArtifact).toHaveBeenCalledWith(state.context.portfolioId, state.context.artifactId),
    );
    expect(h.navigateToArtifact).toHaveBeenCalledTimes(1);
  },
  'ready.confirmingLeave': async () => {
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave this page?' });
    expect(dialog.textContent).toContain('Your changes are not saved.');
    // The navigation waits for the answer.
    expect(h.location.history.at(-1)).toMatch(/\/edit$/);
  },
  'ready.discarding': async (state) => {
    // The never-saved artifact is removed on the way out, files included (the server's DELETE).
    await waitFor(() =>
      expect(h.discardArtifact.calls.map((c) => c.input)).toEqual([{ artifactId: state.context.artifactId }]),
    );
    expect(button('Cancel').disabled).toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  },
  'ready.leaving': async (state) => {
    expect(await screen.findByText('Another page')).toBeTruthy();
    // Cancel of a new artifact shows its portfolio; a link goes where it pointed.
    expect(h.location.history.at(-1)).toBe(state.context.leaveBy === 'cancel' ? '/my-portfolios/7' : '/dashboard');
    if (state.context.leaveBy === 'cancel') expect(h.portfolioOpened).toHaveBeenCalledWith(7);
  },
  'ready.deleted': async (state) => {
    expect(
      await screen.findByText(
        state.context.kind === 'shared' ? 'Successfully deleted shared artifact' : 'Successfully deleted artifact',
      ),
    ).toBeTruthy();
    // The form stays locked until the app leaves.
    await waitFor(() => expect(input('artifactName').disabled).toBe(true));
    expect(saveButtons()).toEqual([]);
  },
};
assertEveryStateChecked(artifactLifecycleMachine, states);

/** Settles the oldest call of a fake actor as the model's event says. */
function settle(
  fake: () => { next: () => { deferred: { resolve: (value: never) => void; reject: (error: unknown) => void } } },
) {
  return async (step: Step) => {
    const call = fake().next();
    await answerAsStep(call, step);
  };
}

const events = {
  'xstate.done.actor.fetchArtifact': settle(() => h.fetchArtifact),
  'xstate.error.actor.fetchArtifact': settle(() => h.fetchArtifact),
  'xstate.done.actor.discardArtifact': settle(() => h.discardArtifact),
  'xstate.error.actor.discardArtifact': settle(() => h.discardArtifact),
  'artifact.cancel': async () => {
    await h.ux.click(button('Cancel'));
  },
  'leave.request': async () => {
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
  },
  'leave.stay': async () => {
    await h.ux.click(
      within(screen.getByRole('alertdialog', { name: 'Leave this page?' })).getByRole('button', {
        name: 'Stay on this page',
      }),
    );
  },
  'leave.confirm': async () => {
    await h.ux.click(
      within(screen.getByRole('alertdialog', { name: 'Leave this page?' })).getByRole('button', {
        name: 'Leave without saving',
      }),
    );
  },
  'xstate.done.actor.artifactSave': async (step: Step) => {
    const { output } = step.event as unknown as { output: ArtifactSaveOutput };
    if (h.gateCheck.calls.length === 0) return endPersonalSave(h, output, refused);
    // A shared save fails only by a defect (saveOutputs.defect).
    const shared = { saved: outcomes.saved, stopped: outcomes.stopped, declined: outcomes.cancelled, failed: 'defect' };
    return endSharedSave(h, shared[output.outcome] as (typeof outcomes)[keyof typeof outcomes] | 'defect');
  },
  'field.change': async (step: Step) => {
    const { key, value } = step.event as unknown as { key: string; value: string };
    const field = input(key);
    await h.ux.clear(field);
    await h.ux.click(field);
    await h.ux.paste(value);
  },
  'artifact.saveToLot': async () => {
    await h.ux.click(button('Save to Parking Lot'));
  },
  'artifact.submit': async () => {
    await h.ux.click(button('Submit to Portfolio'));
  },
  'artifact.save': async () => {
    await h.ux.click(button('Save'));
  },
  'artifact.deleted': async () => {
    // Delete Artifact, YES: the page hears of the finished deletion.
    await h.ux.click(button('Delete Artifact'));
    await h.ux.click(
      within(screen.getByRole('alertdialog', { name: 'Delete Artifact' })).getByRole('button', { name: 'YES' }),
    );
  },
  retry: async () => {
    await h.ux.click(button('Try again'));
  },
  [REDIRECT]: async () => {
    // Two seconds after a personal save, at once after a shared one (see the page's component tests).
    await act(async () => h.clock.increment(REDIRECT_DELAY_MS));
    await waitFor(() => expect(h.navigateToArtifact).toHaveBeenCalled());
  },
};

for (const mode of MODES) {
  describe(`artifactLifecycle model (${mode.name})`, () => {
    const model = createPathModel(artifactLifecycleMachine, {
      input: mode.input,
      events: (snapshot) => [
        ...modelEvents(mode.userEvents, mode.actorEvents)(snapshot),
        ...modelEvents(timerEvents)(snapshot),
        ...deleteEvents(snapshot),
        ...leaveEvents(snapshot),
      ],
    });
    const paths = model.getShortestPaths();
    it('has paths', () => expect(paths.length).toBeGreaterThan(0));
    for (const path of paths) {
      it(`${describePath(path)}`, async () => {
        h = setup(mode.input);
        await path.test({ states: checkStates<Snapshot>(states), events });
        // The page never asked twice: at most the request of the state the path ends in is open.
        for (const fake of [h.fetchArtifact, h.updateArtifact, h.gateCheck, h.updateShared, h.discardArtifact])
          expect(fake.calls.length).toBeLessThanOrEqual(1);
      });
    }
  });
}
