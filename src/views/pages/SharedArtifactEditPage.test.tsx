import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { controllableActor } from '../../../tests/model/support/deferred.ts';
import { artifactDeleteMachine } from '../../machines/artifactDelete/artifactDeleteMachine.ts';
import { ArtifactDeleteContext } from '../../machines/artifactDelete/useArtifactDelete.ts';
import type { EditableArtifact } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import { provideArtifactLifecycle } from '../../machines/artifactLifecycle/provideArtifactLifecycle.ts';
import { ArtifactLifecycleActorContext } from '../../machines/artifactLifecycle/useArtifactLifecycle.ts';
import { FORM_ERROR_MESSAGE } from '../../schemas/responses.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError } from '../../services/errors.ts';
import { makeMedia } from '../../test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../test/artifactEditHarness.tsx';
import { makeComment, makeReaction, makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import { makeSharedArtifact, TEAM_QUESTION } from '../../test/sharedFixtures.ts';
import { Toaster } from '../feedback/Toaster.tsx';
import { clearToasts, notify } from '../feedback/toastStore.ts';
import { SharedArtifactEditPage } from './SharedArtifactEditPage.tsx';
import { alerts, button, field, input, renderLoaded } from '../../test/sharedArtifactEditPageKit.ts';

// The services behind the shared endpoints (the last test checks the page calls them, not the personal ones).
const services = vi.hoisted(() => ({
  startTransfer: vi.fn(),
  findRemembered: vi.fn(),
  removeFromSharedArtifact: vi.fn(),
  removeFromArtifact: vi.fn(),
}));
vi.mock('../../services/sharedService.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  removeFromSharedArtifact: services.removeFromSharedArtifact,
}));
vi.mock('../../services/mediaService.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  removeFromArtifact: services.removeFromArtifact,
}));
vi.mock('../../services/resumableUploads.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  startTransfer: services.startTransfer,
  findRemembered: services.findRemembered,
}));

afterEach(clearToasts);
beforeEach(() => Object.values(services).forEach((fn) => fn.mockReset()));

describe('the shared artifact edit page: the form', () => {
  it('loads the shared artifact and shows the personal form with the team questions under their own heading', async () => {
    await renderLoaded(
      makeSharedArtifactDetail({
        responses: { artifactName: 'Ramp race', learningGoal: 'Forces', [TEAM_QUESTION.key]: 'Another school' },
      }),
    );
    expect(field('Artifact Name').value).toBe('Ramp race');
    expect(screen.getByText('Date Created')).toBeTruthy();
    expect(screen.getByText('Last Edited')).toBeTruthy();
    expect(screen.getByLabelText('Choose files')).toBeTruthy();
    expect(screen.getByLabelText('When in the unit was this?')).toBeTruthy();
    const team = screen.getByRole('region', { name: 'Team questions for shared portfolio' });
    expect((within(team).getByLabelText(TEAM_QUESTION.text) as HTMLSelectElement).value).toBe('Another school');
    // The template questions stay outside the team section.
    expect(within(team).queryByLabelText(/Artifact Name/)).toBeNull();
  });

  it('offers Cancel (back to the view) and Save only: shared artifacts are complete', async () => {
    const { ux, location } = await renderLoaded();
    expect(button('Save')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save to Parking Lot' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit to Portfolio' })).toBeNull();
    await ux.click(button('Cancel'));
    expect(location.history.at(-1)).toBe('/shared-portfolios/9/artifacts/70');
  });

  it('requires the core questions: messages, the top message, scrolled to the top, and no gate check', async () => {
    const { ux, gateCheck, scrollToTop } = await renderLoaded();
    await ux.clear(field('What were students working to learn?'));
    await ux.click(button('Save'));
    expect(alerts()).toContain(FORM_ERROR_MESSAGE);
    expect(screen.getByText('Field What were students working to learn? is required.')).toBeTruthy();
    expect(scrollToTop).toHaveBeenCalledTimes(1);
    expect(gateCheck.calls).toHaveLength(0);
  });
});

describe('the shared artifact edit page: not found', () => {
  it.each([
    [
      'a 404 (not a member of the team)',
      () => Promise.reject(new ApiError(404, 'not_found', 'Shared artifact not found.', '')),
    ],
    ['an artifact of another shared portfolio', async () => makeSharedArtifactDetail({ sharedPortfolio: { id: 10 } })],
  ])('says “Shared artifact not found.” for %s', async (_, answer) => {
    renderArtifactEdit({
      input,
      fakes: { fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(answer) },
    });
    expect(await screen.findByText('Shared artifact not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Shared Portfolios' }).getAttribute('href')).toBe(
      '/shared-portfolios',
    );
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('asks nothing of the server for an address without ids', async () => {
    const fetchArtifact = controllableActor<EditableArtifact, { artifactId: number }>();
    renderArtifactEdit({ input: { ...input, portfolioId: Number.NaN }, fakes: { fetchArtifact: fetchArtifact.logic } });
    expect(await screen.findByText('Shared artifact not found.')).toBeTruthy();
    expect(fetchArtifact.calls).toHaveLength(0);
  });
});

describe('the shared artifact edit page: deleting', () => {
  it.each([
    ['comments', { comments: [makeComment()], commentCount: 1 }],
    ['reactions', { reactions: [makeReaction()] }],
  ])('offers no Delete Artifact when the artifact has %s', async (_, overrides) => {
    await renderLoaded(makeSharedArtifactDetail(overrides));
    expect(button('Save')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Artifact' })).toBeNull();
  });

  it('without comments and reactions: NO / YES, deletes the shared artifact, says so and opens the shared portfolio 2 seconds later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const artifact = makeSharedArtifactDetail();
    const { deleteShared, navigateToPortfolio } = await renderLoaded(artifact);
    const ux = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await ux.click(button('Delete Artifact'));
    expect(screen.getByRole('alertdialog', { name: 'Delete Artifact' }).textContent).toContain(
      'Do you want to delete Ramp race?',
    );
    await ux.click(button('YES'));
    expect(deleteShared.calls[0]!.input).toEqual({ artifactId: 70 });
    await act(async () => deleteShared.next().deferred.resolve(makeSharedArtifact()));
    expect(await screen.findByText('Successfully deleted shared artifact')).toBeTruthy();
    // The form is locked while the message shows.
    expect(field('Artifact Name').disabled).toBe(true);
    expect(button('Save').disabled).toBe(true);
    await act(async () => vi.advanceTimersByTime(1900));
    expect(navigateToPortfolio).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(150));
    expect(navigateToPortfolio).toHaveBeenCalledWith(9);
  });

  it('a refused deletion alerts the server’s message and keeps the page', async () => {
    const { ux, deleteShared, navigateToPortfolio } = await renderLoaded();
    await ux.click(button('Delete Artifact'));
    await ux.click(button('YES'));
    await act(async () =>
      deleteShared
        .next()
        .deferred.reject(
          new ApiError(400, 'has_activity', 'You cannot delete a shared artifact with comments or reactions.', ''),
        ),
    );
    await waitFor(() =>
      expect(alerts().join()).toContain('You cannot delete a shared artifact with comments or reactions.'),
    );
    expect(navigateToPortfolio).not.toHaveBeenCalled();
    expect(field('Artifact Name').disabled).toBe(false);
  });
});

describe('the shared artifact edit page: files', () => {
  it('uploads and deletes files through the shared artifact’s endpoints', async () => {
    const image = makeMedia('images', { id: 61, caption: 'A', name: 'ramp.png' });
    const uploaded = makeMedia('images', { id: 62, caption: 'B', name: 'one.png' });
    const artifact = makeSharedArtifactDetail({ images: [image] });
    services.findRemembered.mockResolvedValue([]);
    services.startTransfer.mockImplementation((_request, listener: { onStored: (answer: unknown) => void }) => {
      queueMicrotask(() => listener.onStored({ ...uploaded, parentSharedArtifact: makeSharedArtifact() }));
      return { pause: vi.fn() };
    });
    services.removeFromSharedArtifact.mockResolvedValue({ ...image, parentSharedArtifact: makeSharedArtifact() });
    // The page as the app wires it, with only the load faked: uploads and removals use the real service functions.
    const logic = provideArtifactLifecycle({
      kind: 'shared',
      notify: ({ message, tone }) => notify(message, tone),
      navigateToArtifact: vi.fn(),
      navigateToPortfolio: vi.fn(),
      scrollToTop: vi.fn(),
      allowLeave: vi.fn(),
      stayHere: vi.fn(),
      actors: { fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact) },
    });
    const location = memoryLocation({ path: '/shared-portfolios/9/artifacts/70/edit' });
    render(
      <Router hook={location.hook}>
        <ArtifactDeleteContext.Provider value={{ logic: artifactDeleteMachine, kind: 'shared' }}>
          <ArtifactLifecycleActorContext.Provider logic={logic} options={{ input }}>
            <SharedArtifactEditPage />
          </ArtifactLifecycleActorContext.Provider>
        </ArtifactDeleteContext.Provider>
        <Toaster />
      </Router>,
    );
    const ux = userEvent.setup();
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'one.png', { type: 'image/png' });
    await ux.upload(await screen.findByLabelText('Choose files'), file);
    expect(await screen.findByRole('link', { name: 'one' })).toBeTruthy();
    expect(services.startTransfer).toHaveBeenCalledWith(
      { target: 'sharedArtifact', portfolioId: 9, artifactId: 70, file, kind: 'images' },
      expect.any(Object),
    );
    expect(services.findRemembered).toHaveBeenCalledWith(
      { target: 'sharedArtifact', portfolioId: 9, artifactId: 70 },
      expect.any(AbortSignal),
    );
    await ux.click(button('Delete ramp'));
    await ux.click(button('YES'));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'ramp' })).toBeNull());
    expect(services.removeFromSharedArtifact).toHaveBeenCalledWith(9, 70, 'images', 61, expect.any(AbortSignal));
    expect(services.removeFromArtifact).not.toHaveBeenCalled();
  });
});
