import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import {
  artifactDeleteMachine,
  SHARED_LEAVE_DELAY_MS,
  type ArtifactDeleteEvent,
  type ArtifactDeleteInput,
} from '../../src/machines/artifactDelete/artifactDeleteMachine.ts';
import { ArtifactDeleteContext } from '../../src/machines/artifactDelete/useArtifactDelete.ts';
import type { EditableArtifact } from '../../src/machines/artifactLifecycle/artifactSelectors.ts';
import type { Artifact } from '../../src/schemas/artifact.ts';
import type { SharedArtifact } from '../../src/schemas/sharedPortfolio.ts';
import { ApiError } from '../../src/services/errors.ts';
import { makeArtifact } from '../../src/test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../src/test/artifactEditHarness.tsx';
import { makeSharedArtifactDetail } from '../../src/test/sharedArtifactFixtures.ts';
import { makeSharedArtifact } from '../../src/test/sharedFixtures.ts';
import { ArtifactView } from '../../src/views/artifacts/ArtifactView.tsx';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { assertEveryStateChecked, coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(artifactDeleteMachine);
afterEach(clearToasts);

type Snapshot = ReturnType<typeof artifactDeleteMachine.getInitialSnapshot>;

const artifact = makeArtifact({
  id: 21,
  portfolio: { id: 7 },
  parkingLot: false,
  responses: { artifactName: 'Ramp races' },
});
const sharedArtifact = makeSharedArtifactDetail();
const deletedShared = makeSharedArtifact();
const forbidden = new ApiError(403, 'forbidden', 'Researchers can read teacher portfolios but not change them.', '');
const hasActivity = new ApiError(
  400,
  'has_activity',
  'You cannot delete a shared artifact with comments or reactions.',
  '',
);

const userEvents: ArtifactDeleteEvent[] = [
  { type: 'artifact.delete' },
  { type: 'artifact.confirmDelete' },
  { type: 'artifact.cancelDelete' },
];
const LEAVE = 'xstate.after.leaveDelay.artifactDelete.leaving';
const actorEvents = {
  deleteArtifact: [
    { type: 'xstate.done.actor.deleteArtifact', output: artifact },
    { type: 'xstate.error.actor.deleteArtifact', error: forbidden },
  ],
  deleteSharedArtifact: [
    { type: 'xstate.done.actor.deleteSharedArtifact', output: deletedShared },
    { type: 'xstate.error.actor.deleteSharedArtifact', error: hasActivity },
  ],
} as unknown as Record<string, ArtifactDeleteEvent[]>;
const timerEvents = [{ type: LEAVE }] as unknown as ArtifactDeleteEvent[];

interface Harness {
  deleteArtifact: ReturnType<typeof controllableActor<Artifact, { artifactId: number }>>;
  deleteShared: ReturnType<typeof controllableActor<SharedArtifact, { artifactId: number }>>;
  navigateToPortfolio: ReturnType<typeof vi.fn<(portfolioId: number) => void>>;
  /** What the page heard of the deletion (the artifact view's `onDeleted`). */
  onDeleted: ReturnType<typeof vi.fn<(artifact: Artifact) => void>>;
  ux: ReturnType<typeof userEvent.setup>;
}

/** A personal artifact's Delete Artifact, in the artifact view. */
function setupPersonal(): Harness {
  const deleteArtifact = controllableActor<Artifact, { artifactId: number }>();
  const deleteShared = controllableActor<SharedArtifact, { artifactId: number }>();
  const navigateToPortfolio = vi.fn<(portfolioId: number) => void>();
  const onDeleted = vi.fn<(artifact: Artifact) => void>();
  const logic = artifactDeleteMachine.provide({
    actors: { deleteArtifact: deleteArtifact.logic, deleteSharedArtifact: deleteShared.logic },
    actions: {
      notify: (_, n) => notify(n.message, n.tone),
      navigateToPortfolio: (_, p) => navigateToPortfolio(p.portfolioId),
    },
  });
  const location = memoryLocation({ path: '/my-portfolios/7/artifacts/21', record: true });
  render(
    <Router hook={location.hook}>
      <ArtifactDeleteContext.Provider value={{ logic, inspect: coverageInspector }}>
        <ArtifactView artifact={artifact} portfolioId={7} readOnly={false} onDeleted={onDeleted} />
      </ArtifactDeleteContext.Provider>
      <Toaster />
    </Router>,
  );
  return { deleteArtifact, deleteShared, navigateToPortfolio, onDeleted, ux: userEvent.setup() };
}

/** A shared artifact's Delete Artifact, on its edit page (the shared portfolio opens 2 s after a delete). */
async function setupShared(): Promise<Harness> {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const deleteArtifact = controllableActor<Artifact, { artifactId: number }>();
  const deleteShared = controllableActor<SharedArtifact, { artifactId: number }>();
  const rendered = renderArtifactEdit({
    input: { kind: 'shared', portfolioId: 9, artifactId: 70, readOnly: false },
    fakes: {
      fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => sharedArtifact),
      deleteArtifact: deleteArtifact.logic,
      deleteSharedArtifact: deleteShared.logic,
    },
    inspect: coverageInspector,
  });
  await screen.findByRole('heading', { level: 1, name: 'Edit Shared Artifact' });
  return {
    deleteArtifact,
    deleteShared,
    navigateToPortfolio: rendered.navigateToPortfolio,
    onDeleted: vi.fn(),
    ux: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }),
  };
}

const alerts = () =>
  screen
    .queryAllByRole('alert')
    .map((a) => a.textContent ?? '')
    .join(' | ');
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const title = () => screen.queryByRole('textbox', { name: 'Artifact Name' }) as HTMLInputElement | null;

let h: Harness;

/** Every state has a DOM assertion (`assertEveryStateChecked` below makes sure). */
const states: Record<string, (s: Snapshot) => Promise<void> | void> = {
  idle: async () => {
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(button('Delete Artifact').disabled).toBe(false);
    expect(h.navigateToPortfolio).not.toHaveBeenCalled();
  },
  confirming: (s) => {
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Artifact' });
    expect(dialog.textContent).toContain(`Do you want to delete ${s.context.name}?`);
    expect(button('YES').disabled).toBe(false);
  },
  deleting: () => {
    expect(button('YES').disabled).toBe(true);
    expect(button('NO').disabled).toBe(true);
    expect(h.deleteArtifact.calls[0]!.input).toEqual({ artifactId: 21 });
    expect(h.deleteShared.calls).toHaveLength(0);
  },
  deletingShared: () => {
    expect(button('YES').disabled).toBe(true);
    expect(button('NO').disabled).toBe(true);
    expect(h.deleteShared.calls[0]!.input).toEqual({ artifactId: 70 });
    expect(h.deleteArtifact.calls).toHaveLength(0);
  },
  leaving: async () => {
    expect(await screen.findByText('Successfully deleted shared artifact')).toBeTruthy();
    // The page stays, locked, while the message shows.
    await waitFor(() => expect(title()!.disabled).toBe(true));
    expect(button('Delete Artifact').disabled).toBe(true);
    expect(h.navigateToPortfolio).not.toHaveBeenCalled();
  },
  deleted: async (s) => {
    if (s.context.kind === 'shared') {
      expect(screen.getByText('Successfully deleted shared artifact')).toBeTruthy();
      await waitFor(() => expect(h.navigateToPortfolio).toHaveBeenCalledWith(9));
    } else {
      expect(await screen.findByText('Successfully deleted artifact')).toBeTruthy();
      expect(h.onDeleted).toHaveBeenCalledWith(artifact);
      expect(h.navigateToPortfolio).toHaveBeenCalledWith(7);
    }
    expect(h.navigateToPortfolio).toHaveBeenCalledTimes(1);
  },
};
assertEveryStateChecked(artifactDeleteMachine, states);

const events = {
  'artifact.delete': async () => {
    await h.ux.click(button('Delete Artifact'));
  },
  'artifact.confirmDelete': async () => {
    await h.ux.click(button('YES'));
  },
  'artifact.cancelDelete': async () => {
    await h.ux.keyboard('{Escape}');
  },
  'xstate.done.actor.deleteArtifact': async (step: { event: unknown }) => {
    const { output } = step.event as { output: Artifact };
    await act(async () => h.deleteArtifact.next().deferred.resolve(output));
  },
  'xstate.error.actor.deleteArtifact': async (step: { event: unknown }) => {
    const { error } = step.event as { error: ApiError };
    await act(async () => h.deleteArtifact.next().deferred.reject(error));
    // The server's message is alerted.
    await waitFor(() => expect(alerts()).toContain(error.message));
  },
  'xstate.done.actor.deleteSharedArtifact': async (step: { event: unknown }) => {
    const { output } = step.event as { output: SharedArtifact };
    await act(async () => h.deleteShared.next().deferred.resolve(output));
  },
  'xstate.error.actor.deleteSharedArtifact': async (step: { event: unknown }) => {
    const { error } = step.event as { error: ApiError };
    await act(async () => h.deleteShared.next().deferred.reject(error));
    await waitFor(() => expect(alerts()).toContain(error.message));
  },
  [LEAVE]: async () => {
    await act(async () => vi.advanceTimersByTime(SHARED_LEAVE_DELAY_MS - 100));
    expect(h.navigateToPortfolio).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(150));
  },
};

const MODES: { title: string; input: ArtifactDeleteInput; setup: () => Harness | Promise<Harness> }[] = [
  {
    title: 'the artifact view’s Delete Artifact',
    input: { kind: 'personal', artifactId: 21, portfolioId: 7, name: 'Ramp races' },
    setup: setupPersonal,
  },
  {
    title: 'the shared artifact edit page’s Delete Artifact',
    input: { kind: 'shared', artifactId: 70, portfolioId: 9, name: 'Ramp race' },
    setup: setupShared,
  },
];

for (const mode of MODES) {
  describe(`artifactDelete model (${mode.title})`, () => {
    const model = createPathModel(artifactDeleteMachine, {
      input: mode.input,
      events: (snapshot) => [...modelEvents(userEvents, actorEvents)(snapshot), ...modelEvents(timerEvents)(snapshot)],
    });
    for (const path of model.getShortestPaths()) {
      const steps = path.steps
        .slice(1)
        .map(
          (s) =>
            s.event.type.replace('xstate.', '') +
            ('error' in s.event ? ` (${(s.event as unknown as { error: ApiError }).error.status})` : ''),
        )
        .join(' → ');
      it(`reaches ${JSON.stringify(path.state.value)}: ${steps || 'start'}`, async () => {
        h = await mode.setup();
        await path.test({ states: checkStates<Snapshot>(states), events });
        // One deletion at most, at the endpoint of the artifact's kind.
        expect(h.deleteArtifact.calls.length + h.deleteShared.calls.length).toBeLessThanOrEqual(1);
      });
    }
  });
}
