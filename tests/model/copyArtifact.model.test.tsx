import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COPY_MESSAGES,
  copyArtifactMachine,
  type CopyArtifactEvent,
  type CopyArtifactInput,
} from '../../src/machines/copyArtifact/copyArtifactMachine.ts';
import { copyTargets, toCopySource, type CopySourceOutput } from '../../src/machines/copySource/copySourceMachine.ts';
import { toUiError } from '../../src/services/errors.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { INCLUDE_NOTES_LABEL } from '../../src/views/pages/CopyArtifactPage.tsx';
import { renderCopyPage, type CopyPageHarness, type CopyPageSnapshot } from './support/copyArtifactPage.tsx';
import { assertEveryStateChecked, createPathModel, modelEvents } from './support/coverage.ts';
import { answerAsStep } from './support/deferred.ts';
import {
  AUTHOR,
  COPY_MODES,
  engineering,
  missing,
  notMine,
  offline,
  pathTitle,
  personal,
  refused,
  science,
  shared,
  theCopy,
} from './support/copyArtifactFixtures.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(copyArtifactMachine);

type Snapshot = CopyPageSnapshot;
type Step = { event: unknown };

const userEvents: CopyArtifactEvent[] = [
  { type: 'target.select', sharedPortfolioId: science.id },
  // After a failed copy, choosing another portfolio is what takes the user back to choosing.
  { type: 'target.select', sharedPortfolioId: engineering.id },
  { type: 'notes.include', include: true },
  { type: 'notes.include', include: false },
  { type: 'copy.submit' },
  { type: 'copy.cancel' },
  { type: 'retry' },
];

/**
 * The ends of loading, as `copySource` gives them for the page's mode (how it gets there, request
 * by request, is copySource.model.test.tsx's).
 */
function loadingEnds(snapshot: Snapshot): CopyArtifactEvent[] {
  const fromPersonal = snapshot.context.from === 'artifact';
  const source = toCopySource(fromPersonal ? personal() : shared());
  const ends: CopySourceOutput[] = [
    { kind: 'notFound' },
    {
      kind: 'loaded',
      source,
      portfolios: copyTargets({ from: snapshot.context.from, source }, [science, engineering]),
    },
    { kind: 'loaded', source, portfolios: [] },
    { kind: 'failed', error: toUiError(offline) },
  ];
  if (fromPersonal)
    ends.push(
      { kind: 'notCopyable', source: toCopySource(personal({ parkingLot: true })), reason: 'parkingLot' },
      { kind: 'notCopyable', source: toCopySource(notMine()), reason: 'notAuthor' },
    );
  return ends.map((output) => ({ type: 'xstate.done.actor.copySource', output }) as unknown as CopyArtifactEvent);
}

const actorEvents = {
  copySource: loadingEnds,
  copyArtifact: [
    { type: 'xstate.done.actor.copyArtifact', output: theCopy },
    { type: 'xstate.error.actor.copyArtifact', error: refused },
  ],
} as unknown as Record<string, CopyArtifactEvent[] | ((snapshot: Snapshot) => CopyArtifactEvent[])>;

/** The page's requests answered so that loading ends as the step says. */
async function answerLoading(step: Step) {
  const { output } = step.event as { output: CopySourceOutput };
  const failure = output.kind === 'notFound' ? missing : output.kind === 'failed' ? offline : null;
  await act(async () => {
    if (h.input.from === 'sharedArtifact') {
      const call = h.fakes.fetchSharedArtifact.next();
      if (failure) call.deferred.reject(failure);
      else call.deferred.resolve(shared());
      return;
    }
    const call = h.fakes.fetchArtifact.next();
    if (failure) call.deferred.reject(failure);
    else if (output.kind === 'notCopyable')
      call.deferred.resolve(output.reason === 'parkingLot' ? personal({ parkingLot: true }) : notMine());
    else call.deferred.resolve(personal());
  });
  if (output.kind !== 'loaded') return;
  // None to copy to: no shared portfolio at all, or (shared mode) only the one the artifact is in.
  const none = h.input.from === 'sharedArtifact' ? [science] : [];
  const list = h.fakes.listSharedPortfolios.next();
  await act(async () => list.deferred.resolve(output.portfolios.length > 0 ? [science, engineering] : none));
}

type Harness = CopyPageHarness;
let h: Harness;

const LEGEND = 'Copy snapshot of artifact to:';
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;
const radios = () => screen.queryAllByRole('radio') as HTMLInputElement[];
const NAMES: Record<number, string> = { [science.id]: science.name, [engineering.id]: engineering.name };
const sourceName = () => (h.input.from === 'sharedArtifact' ? 'Food web' : 'Ramp race');

/** The private notes choice: offered for a personal artifact only, ticked as the model says. */
function expectNotesChoice(s: Snapshot) {
  const box = screen.queryByRole('checkbox', { name: INCLUDE_NOTES_LABEL }) as HTMLInputElement | null;
  if (h.input.from === 'artifact') expect(box?.checked).toBe(s.context.includeNotes);
  else expect(box).toBeNull();
}

/** The form with its choices (never the shared portfolio a shared artifact is in), the artifact's name, and which one is chosen. */
function expectForm(s: Snapshot) {
  const { targetId, portfolios, source } = s.context;
  expect(screen.getByRole('heading', { level: 1, name: 'Copy Artifact' })).toBeTruthy();
  expect(screen.getByText(sourceName(), { selector: 'dd' })).toBeTruthy();
  expect(screen.getByRole('group', { name: LEGEND })).toBeTruthy();
  const offered =
    h.input.from === 'sharedArtifact'
      ? [engineering, science].filter((p) => p.id !== source!.portfolioId)
      : [engineering, science];
  expect(portfolios.map((p) => p.id)).toEqual(offered.map((p) => p.id));
  expect(radios().map((r) => Number(r.value))).toEqual(offered.map((p) => p.id));
  if (offered.includes(engineering))
    expect(radio('Engineering Design Circle').closest('li')!.textContent).toBe(
      'Engineering Design CirclePortfolio Topic: Bridges',
    );
  if (offered.includes(science))
    expect(radio('Grades 5–7 Science PLC').closest('li')!.textContent).toBe(
      'Grades 5–7 Science PLCPortfolio Topic: Forces and motionPLC Name: Middle school science',
    );
  expect(
    radios()
      .filter((r) => r.checked)
      .map((r) => Number(r.value)),
  ).toEqual(targetId === null ? [] : [targetId]);
}

function expectEnabled(enabled: boolean) {
  for (const r of radios()) expect(r.disabled).toBe(!enabled);
  expect(button('CANCEL').disabled).toBe(!enabled);
}

/** No page content yet, and nothing to press. */
function expectNothingToDo() {
  expect(screen.queryByRole('radio')).toBeNull();
  expect(screen.queryByRole('button', { name: 'COMPLETE COPY' })).toBeNull();
}

/** Every state has a DOM assertion (`assertEveryStateChecked` below makes sure). */
const states: Record<string, (s: Snapshot) => Promise<void>> = {
  starting: async () => {
    throw new Error('starting is transient: a path never rests there');
  },
  loading: async () => {
    expect(screen.getByRole('heading', { level: 1, name: 'Copy Artifact' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Loading artifact' })).toBeTruthy();
    expectNothingToDo();
    // The invoked copySource asks for the artifact of the address first.
    const fetch = h.input.from === 'sharedArtifact' ? h.fakes.fetchSharedArtifact : h.fakes.fetchArtifact;
    expect(fetch.calls.map((c) => c.input)).toEqual([{ artifactId: h.input.artifactId }]);
  },
  notFound: async () => {
    const message = h.input.from === 'sharedArtifact' ? 'Shared artifact not found.' : 'Artifact not found.';
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.queryByText(sourceName())).toBeNull();
    expectNothingToDo();
    expect(h.fakes.listSharedPortfolios.calls).toHaveLength(0);
  },
  loadFailed: async (s) => {
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(s.context.error!.message)).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expectNothingToDo();
  },
  notCopyable: async (s) => {
    expect(screen.getByText(sourceName(), { selector: 'dd' })).toBeTruthy();
    const message =
      s.context.reason === 'parkingLot'
        ? /Only completed artifacts can be copied/
        : /Only the author of an artifact can copy it\./;
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the artifact' }).getAttribute('href')).toBe(
      '/my-portfolios/7/artifacts/31',
    );
    expectNothingToDo();
    expect(h.fakes.listSharedPortfolios.calls).toHaveLength(0);
  },
  noPortfolios: async () => {
    expect(screen.getByText(sourceName(), { selector: 'dd' })).toBeTruthy();
    expect(
      screen.getByText(
        h.input.from === 'sharedArtifact' ? COPY_MESSAGES.noOtherPortfolios : COPY_MESSAGES.noPortfolios,
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Shared Portfolios' }).getAttribute('href')).toBe('/shared-portfolios');
    expectNothingToDo();
  },
  choosing: async (s) => {
    expectForm(s);
    expectNotesChoice(s);
    expectEnabled(true);
    expect(button('COMPLETE COPY').disabled).toBe(s.context.targetId === null);
    expect(screen.queryByText('Copying artifact to shared portfolio')).toBeNull();
  },
  copying: async (s) => {
    expectForm(s);
    expectNotesChoice(s);
    expectEnabled(false);
    expect(button('COMPLETE COPY').disabled).toBe(true);
    expect(screen.getByText('Copying artifact to shared portfolio')).toBeTruthy();
    expect(screen.getByTestId('busy-spinner')).toBeTruthy();
    expect(h.fakes.copyArtifact.calls.map((c) => c.input)).toEqual([
      {
        from: h.input.from,
        artifactId: h.input.artifactId,
        sharedPortfolioId: s.context.targetId,
        includeNotes: s.context.includeNotes,
      },
    ]);
  },
  failed: async (s) => {
    expectForm(s);
    expectNotesChoice(s);
    expectEnabled(true);
    expect(button('COMPLETE COPY').disabled).toBe(false);
    expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes(refused.message))).toBe(true);
    expect(screen.queryByText('Copying artifact to shared portfolio')).toBeNull();
    expect(h.navigateToCopy).not.toHaveBeenCalled();
  },
  copied: async (s) => {
    expect(screen.getByText('Successfully copied artifact')).toBeTruthy();
    expect(h.navigateToCopy).toHaveBeenCalledTimes(1);
    expect(h.navigateToCopy).toHaveBeenCalledWith({ sharedPortfolioId: s.context.targetId, artifactId: theCopy.id });
    expect(button('COMPLETE COPY').disabled).toBe(true);
    expect(h.navigateToArtifact).not.toHaveBeenCalled();
  },
  cancelled: async () => {
    expect(h.navigateToArtifact).toHaveBeenCalledTimes(1);
    expect(h.navigateToArtifact).toHaveBeenCalledWith({
      from: h.input.from,
      portfolioId: h.input.portfolioId,
      artifactId: h.input.artifactId,
    });
    expect(h.navigateToCopy).not.toHaveBeenCalled();
  },
};
assertEveryStateChecked(copyArtifactMachine, states);

/** The page's own actor is where the model says (a gesture that did nothing fails here). */
function expectLiveState(s: Snapshot) {
  expect(h.live()?.value, 'the page is in the state the path reached').toEqual(s.value);
}

/** The checks, each first comparing the page's actor with the model. */
const checked = Object.fromEntries(
  Object.entries(states).map(([key, check]) => [
    key,
    async (s: Snapshot) => {
      expectLiveState(s);
      await check(s);
    },
  ]),
);

/** Settles the oldest call of a fake actor as the model's event says. */
function settle(name: keyof Harness['fakes']) {
  return async (step: Step) => {
    const call = h.fakes[name].next();
    await answerAsStep(call, step);
  };
}

const events = {
  'xstate.done.actor.copySource': answerLoading,
  'xstate.done.actor.copyArtifact': settle('copyArtifact'),
  'xstate.error.actor.copyArtifact': settle('copyArtifact'),
  'target.select': async (step: Step) => {
    const name = NAMES[(step.event as { sharedPortfolioId: number }).sharedPortfolioId]!;
    // The whole option is the radio's label: a click on its name chooses the portfolio.
    await h.ux.click(screen.getByText(name, { selector: 'label span' }));
    expect(radio(name).checked).toBe(true);
  },
  'notes.include': async (step: Step) => {
    const box = screen.getByRole('checkbox', { name: INCLUDE_NOTES_LABEL }) as HTMLInputElement;
    expect(box.checked).toBe(!(step.event as { include: boolean }).include);
    await h.ux.click(box);
    expect(box.checked).toBe((step.event as { include: boolean }).include);
  },
  'copy.submit': async () => {
    await h.ux.click(button('COMPLETE COPY'));
  },
  'copy.cancel': async () => {
    await h.ux.click(button('CANCEL'));
  },
  retry: async () => {
    await h.ux.click(button('Try again'));
  },
};

afterEach(() => clearToasts());

const modes: { title: string; input: CopyArtifactInput }[] = [
  ...COPY_MODES,
  {
    title: 'an address without an artifact id',
    input: { from: 'artifact', portfolioId: 7, artifactId: Number.NaN, userId: AUTHOR },
  },
];

for (const mode of modes) {
  describe(`copyArtifact model (${mode.title})`, () => {
    const model = createPathModel(copyArtifactMachine, {
      input: mode.input,
      events: modelEvents(userEvents, actorEvents),
    });
    for (const path of model.getShortestPaths()) {
      it(`${pathTitle(path)}`, async () => {
        h = renderCopyPage(mode.input);
        await path.test({ states: checked, events });
        // The page never asked twice: at most the request of the state the path ends in is open.
        for (const fake of Object.values(h.fakes)) expect(fake.calls.length).toBeLessThanOrEqual(1);
      });
    }
  });
}
