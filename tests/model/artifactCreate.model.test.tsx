import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactCreateMachine } from '../../src/machines/artifactCreate/artifactCreateMachine.ts';
import type { Artifact } from '../../src/schemas/artifact.ts';
import { answeringBrowserActors, renderMyPortfolios, rowNames } from '../../src/test/portfolioHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, modelEvents } from './support/coverage.ts';
import { answerAsStep, controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import { forces, NEW_ARTIFACT } from './support/portfolioBrowserFixtures.ts';
import { latest, serverError } from './support/portfolioBrowserModel.ts';

trackCoverage(artifactCreateMachine);
afterEach(clearToasts);

type Snapshot = ReturnType<typeof artifactCreateMachine.getInitialSnapshot>;
type Step = { event: unknown };

const actorEvents = {
  createArtifact: [
    { type: 'xstate.done.actor.createArtifact', output: NEW_ARTIFACT },
    { type: 'xstate.error.actor.createArtifact', error: serverError },
  ],
} as unknown as Record<string, never[]>;

/** My Portfolios on Forces and Motion, its portfolio shown; the new artifact waits for the test. */
function setup() {
  const createArtifact = controllableActor<Artifact, { portfolioId: number }>();
  const rendered = renderMyPortfolios({
    path: '/my-portfolios/41',
    actors: { ...answeringBrowserActors([forces]), createArtifact: createArtifact.logic },
    inspect: coverageInspector,
  });
  return { ...rendered, createArtifact, where: () => rendered.location.history.at(-1) };
}

let h: ReturnType<typeof setup>;

const createButton = () => screen.getByRole('button', { name: 'Create New Artifact' }) as HTMLButtonElement;

const checks: Record<string, (s: Snapshot) => Promise<void> | void> = {
  creating: async () => {
    await waitFor(() => expect(createButton().getAttribute('aria-busy')).toBe('true'));
    expect(createButton().disabled).toBe(true);
    expect(h.createArtifact.calls.map((c) => c.input)).toEqual([{ portfolioId: 41 }]);
  },
  created: async () => {
    // The new artifact's edit page opens.
    expect(await screen.findByRole('heading', { name: 'Edit Artifact' })).toBeTruthy();
    expect(h.where()).toBe(`/my-portfolios/41/artifacts/${NEW_ARTIFACT.id}/edit`);
  },
  failed: async () => {
    // The user is told; the portfolio stays, and Create New Artifact may be asked again.
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong on the server.');
    await waitFor(() => expect(createButton().disabled).toBe(false));
    expect(h.where()).toBe('/my-portfolios/41');
    expect(rowNames()).toHaveLength(forces.artifacts.length);
  },
};
const states = checkStates<Snapshot>(checks);

const events = {
  'xstate.done.actor.createArtifact': (step: Step) => answerAsStep(latest(h.createArtifact), step),
  'xstate.error.actor.createArtifact': (step: Step) => answerAsStep(latest(h.createArtifact), step),
};

describe('artifactCreate model (Create New Artifact of My Portfolios)', () => {
  const paths = checkedShortestPaths(
    artifactCreateMachine,
    { input: { portfolioId: 41 }, events: modelEvents([], actorEvents) },
    checks,
    1,
  );
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = setup();
      await waitFor(() => expect(createButton().disabled).toBe(false));
      await h.ux.click(createButton());
      await path.test({ states, events });
    });
  }
});
