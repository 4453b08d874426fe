import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  artifactDetailsMachine,
  type WholeArtifactData,
} from '../../src/machines/artifactDetails/artifactDetailsMachine.ts';
import { ArtifactDetailsContext } from '../../src/machines/artifactDetails/useArtifactDetails.ts';
import { ArtifactBriefSchema } from '../../src/schemas/portfolio.ts';
import { ApiError } from '../../src/services/errors.ts';
import { makeArtifact } from '../../src/test/artifactFixtures.ts';
import { NOT_IN_PORTFOLIO } from '../../src/views/portfolios/Notices.tsx';
import { WholeArtifact } from '../../src/views/portfolios/WholeArtifact.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

// An artifact of the table held in brief, read whole when it is opened (the detail pane, a side of the comparison).
trackCoverage(artifactDetailsMachine);

type Snapshot = SnapshotFrom<typeof artifactDetailsMachine>;
type Step = { event: unknown };

const whole = makeArtifact({ id: 31, responses: { artifactName: 'Ramp races' } });
const brief = ArtifactBriefSchema.parse(whole);
const gone = new ApiError(404, 'not_found', 'Artifact not found.', '');
const broken = new ApiError(500, 'internal_error', 'Something went wrong on the server.', '');

type DetailsEvent = { type: 'retry' };

const events = modelEvents<DetailsEvent>([{ type: 'retry' }], {
  fetchArtifact: [
    { type: 'xstate.done.actor.fetchArtifact', output: whole },
    { type: 'xstate.error.actor.fetchArtifact', error: gone },
    { type: 'xstate.error.actor.fetchArtifact', error: broken },
  ] as unknown as DetailsEvent[],
});

function setup() {
  const fetchArtifact = controllableActor<WholeArtifactData, { artifactId: number }>();
  const logic = artifactDetailsMachine.provide({ actors: { fetchArtifact: fetchArtifact.logic } });
  render(
    <ArtifactDetailsContext.Provider value={{ logic, inspect: coverageInspector }}>
      <WholeArtifact brief={brief}>
        {(artifact) => <h3>{`${artifact.responses['artifactName']}: ${artifact.structure.length} questions`}</h3>}
      </WholeArtifact>
    </ArtifactDetailsContext.Provider>,
  );
  return { fetchArtifact, ux: userEvent.setup() };
}

const checks: Record<string, () => Promise<void>> = {
  loading: async () => {
    expect(await screen.findByRole('status', { name: 'Loading artifact' })).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
  },
  ready: async () => {
    expect(
      await screen.findByRole('heading', { name: `Ramp races: ${whole.structure.length} questions` }),
    ).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading artifact' })).toBeNull();
  },
  missing: async () => {
    expect((await screen.findByRole('status')).textContent).toBe(NOT_IN_PORTFOLIO);
    expect(screen.queryByRole('heading')).toBeNull();
  },
  failed: async () => {
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The artifact could not be loaded');
    expect(alert.textContent).toContain(broken.message);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
};

describe('artifact details model (an artifact opened from the table)', () => {
  const model = createPathModel(artifactDetailsMachine, { input: { artifactId: 31 }, events });
  for (const path of model.getShortestPaths()) {
    it(`${path.description}`, async () => {
      const h = setup();
      await path.test({
        states: {
          '*': async (snapshot) => {
            const s = snapshot as unknown as Snapshot;
            const key = Object.keys(checks).find((k) => s.matches(k as never));
            expect(key, `a DOM check for ${JSON.stringify(s.value)}`).toBeDefined();
            await checks[key!]!();
          },
        },
        events: {
          'xstate.done.actor.fetchArtifact': async () => {
            const call = h.fetchArtifact.next();
            expect(call.input).toEqual({ artifactId: 31 });
            await act(async () => call.deferred.resolve(whole));
          },
          'xstate.error.actor.fetchArtifact': async (step: Step) => {
            const { error } = step.event as { error: unknown };
            await act(async () => h.fetchArtifact.next().deferred.reject(error));
          },
          retry: async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
          },
        },
      });
    });
  }
});
