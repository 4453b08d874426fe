import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { COPY_MESSAGES } from '../../src/machines/copyArtifact/copyArtifactMachine.ts';
import { copySourceMachine } from '../../src/machines/copySource/copySourceMachine.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { COPY_MODES, engineering, pathTitle, science, SOURCE_ANSWERS } from './support/copyArtifactFixtures.ts';
import { renderCopyPage, type CopyPageHarness } from './support/copyArtifactPage.tsx';
import { modelEvents } from './support/coverage.ts';
import { answerAsStep } from './support/deferred.ts';
import { checkedShortestPaths } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(copySourceMachine);
afterEach(clearToasts);

type Snapshot = ReturnType<typeof copySourceMachine.getInitialSnapshot>;
type Step = { event: unknown };

let h: CopyPageHarness;

const sourceName = () => (h.input.from === 'sharedArtifact' ? 'Food web' : 'Ramp race');

/** The page waits for the artifact and its targets: nothing to choose or press yet. */
function expectLoading() {
  expect(screen.getByRole('status', { name: 'Loading artifact' })).toBeTruthy();
  expect(screen.queryByRole('radio')).toBeNull();
  expect(screen.queryByRole('button', { name: 'COMPLETE COPY' })).toBeNull();
}

/** The page's own actor shows what loading reached (or is still loading). */
function expectPage(value: string) {
  expect(h.live()?.value, 'the page is where loading ended').toBe(value);
}

const checks: Record<string, (s: Snapshot) => Promise<void> | void> = {
  source: () => {
    throw new Error('source is transient: a path never rests there');
  },
  artifact: () => {
    expectPage('loading');
    expectLoading();
    expect(h.fakes.fetchArtifact.calls.map((c) => c.input)).toEqual([{ artifactId: 31 }]);
    expect(h.fakes.fetchSharedArtifact.calls).toEqual([]);
  },
  sharedArtifact: () => {
    expectPage('loading');
    expectLoading();
    expect(h.fakes.fetchSharedArtifact.calls.map((c) => c.input)).toEqual([{ artifactId: 70 }]);
    expect(h.fakes.fetchArtifact.calls).toEqual([]);
  },
  portfolios: () => {
    // Asked once the artifact is known to be copyable.
    expectPage('loading');
    expectLoading();
    expect(h.fakes.listSharedPortfolios.calls).toHaveLength(1);
  },
  notFound: () => {
    expectPage('notFound');
    expect(
      screen.getByText(h.input.from === 'sharedArtifact' ? 'Shared artifact not found.' : 'Artifact not found.'),
    ).toBeTruthy();
    expect(screen.queryByText(sourceName())).toBeNull();
    expect(h.fakes.listSharedPortfolios.calls).toHaveLength(0);
  },
  notCopyable: ({ context }) => {
    expectPage('notCopyable');
    expect(screen.getByText(sourceName(), { selector: 'dd' })).toBeTruthy();
    expect(
      screen.getByText(context.reason === 'parkingLot' ? COPY_MESSAGES.parkingLot : COPY_MESSAGES.notAuthor),
    ).toBeTruthy();
    expect(h.fakes.listSharedPortfolios.calls).toHaveLength(0);
  },
  loaded: ({ context }) => {
    expect(screen.getByText(sourceName(), { selector: 'dd' })).toBeTruthy();
    if (context.portfolios.length === 0) {
      expectPage('noPortfolios');
      const none = h.input.from === 'sharedArtifact' ? COPY_MESSAGES.noOtherPortfolios : COPY_MESSAGES.noPortfolios;
      expect(screen.getByText(none)).toBeTruthy();
      return;
    }
    expectPage('choosing');
    // By name, and never the shared portfolio a shared artifact is in.
    const offered = (screen.getAllByRole('radio') as HTMLInputElement[]).map((r) => Number(r.value));
    expect(offered).toEqual(h.input.from === 'sharedArtifact' ? [engineering.id] : [engineering.id, science.id]);
    expect(context.portfolios.map((p) => p.id)).toEqual(offered);
  },
  failed: ({ context }) => {
    expectPage('loadFailed');
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(context.error!.message)).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
};
const states = checkStates<Snapshot>(checks);

const events = {
  'xstate.done.actor.fetchArtifact': (step: Step) => answerAsStep(h.fakes.fetchArtifact.next(), step),
  'xstate.error.actor.fetchArtifact': (step: Step) => answerAsStep(h.fakes.fetchArtifact.next(), step),
  'xstate.done.actor.fetchSharedArtifact': (step: Step) => answerAsStep(h.fakes.fetchSharedArtifact.next(), step),
  'xstate.error.actor.fetchSharedArtifact': (step: Step) => answerAsStep(h.fakes.fetchSharedArtifact.next(), step),
  'xstate.done.actor.listSharedPortfolios': (step: Step) => answerAsStep(h.fakes.listSharedPortfolios.next(), step),
  'xstate.error.actor.listSharedPortfolios': (step: Step) => answerAsStep(h.fakes.listSharedPortfolios.next(), step),
};

for (const mode of COPY_MODES) {
  describe(`copySource model (${mode.title})`, () => {
    const paths = checkedShortestPaths(
      copySourceMachine,
      { input: mode.input, events: modelEvents([], SOURCE_ANSWERS) },
      checks,
      2,
    );
    for (const path of paths) {
      it(`${pathTitle(path)}`, async () => {
        h = renderCopyPage(mode.input);
        await path.test({ states, events });
        // Nothing was asked twice: at most the request of the state the path ends in is open.
        for (const fake of Object.values(h.fakes)) expect(fake.calls.length).toBeLessThanOrEqual(1);
        expect(h.fakes.copyArtifact.calls).toEqual([]);
      });
    }
  });
}
