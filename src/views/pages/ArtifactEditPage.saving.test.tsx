import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { controllableActor } from '../../../tests/model/support/deferred.ts';
import type { Artifact } from '../../schemas/artifact.ts';
import type { EditableArtifact } from '../../machines/artifactLifecycle/artifactSelectors.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeMedia } from '../../test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../test/artifactEditHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import {
  button,
  completedArtifact,
  field,
  headerLink,
  leaveDialog,
  lotArtifact,
  renderLoaded,
  type UpdateInput,
} from '../../test/artifactEditPageKit.ts';

afterEach(clearToasts);

describe('the artifact edit page: saving', () => {
  it('Submit to Portfolio sends only the answered questions and parkingLot false', async () => {
    const { ux, saves } = await renderLoaded(lotArtifact({ responses: { nextSteps: 'Old text' } }));
    await ux.type(field('Artifact Name'), 'Ramp races');
    await ux.type(field('What were students working to learn?'), 'Slopes and speed');
    await ux.click(screen.getByLabelText('Assessment'));
    await ux.click(screen.getByLabelText('Assessment'));
    await ux.type(field('Day of the unit'), '4');
    await ux.clear(field('What would you do next, or differently?'));
    await ux.type(field("What does this evidence show about students' thinking?"), '   ');
    await ux.click(button('Submit to Portfolio'));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]).toEqual({
      artifactId: 12,
      body: {
        responses: { artifactName: 'Ramp races', learningGoal: 'Slopes and speed', unitDay: 4 },
        parkingLot: false,
      },
    });
  });

  it('Enter in a field saves to the parking lot, never submits by accident', async () => {
    const { ux, saves } = await renderLoaded(lotArtifact());
    await ux.type(field('Artifact Name'), 'Ramp races{Enter}');
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.body).toEqual({ responses: { artifactName: 'Ramp races' }, parkingLot: true });
  });

  it('after a save says “Successfully edited artifact” and opens the artifact view 2 seconds later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const artifact = completedArtifact();
    const rendered = renderArtifactEdit({
      input: { kind: 'personal', portfolioId: 7, artifactId: 12, readOnly: false },
      fakes: {
        fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact),
        updateArtifact: fromPromise<Artifact, UpdateInput>(async () => artifact),
      },
    });
    const ux = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await ux.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully edited artifact')).toBeTruthy();
    expect(button('Save').disabled).toBe(true);
    await act(async () => vi.advanceTimersByTime(1900));
    expect(rendered.navigateToArtifact).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(150));
    expect(rendered.navigateToArtifact).toHaveBeenCalledWith(7, 12);
  });

  it('while saving the buttons are disabled and the one pressed says so', async () => {
    const update = controllableActor<Artifact, UpdateInput>();
    const artifact = lotArtifact({ responses: { artifactName: 'x', learningGoal: 'y' } });
    renderArtifactEdit({
      fakes: {
        fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact),
        updateArtifact: update.logic,
      },
    });
    const ux = userEvent.setup();
    await ux.click(await screen.findByRole('button', { name: 'Submit to Portfolio' }));
    expect(button('Submit to Portfolio').getAttribute('aria-busy')).toBe('true');
    expect(button('Save to Parking Lot').disabled).toBe(true);
    expect(screen.getByText('Submitting to the portfolio…')).toBeTruthy();
    expect(field('Artifact Name').disabled).toBe(true);
    await act(async () => update.next().deferred.resolve({ ...artifact, parkingLot: false }));
    expect(await screen.findByText('Successfully edited artifact')).toBeTruthy();
  });

  it('a refused save alerts the server’s message and keeps the form', async () => {
    const { ux } = await renderLoaded(lotArtifact({ responses: { artifactName: 'x', learningGoal: 'y' } }), {
      update: () => Promise.reject(new ApiError(400, 'invalid_responses', 'Field Artifact Name is required.', '')),
    });
    await ux.click(button('Submit to Portfolio'));
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('alert')
          .map((a) => a.textContent)
          .join(),
      ).toContain('Field Artifact Name is required.'),
    );
    await waitFor(() => expect(button('Submit to Portfolio').disabled).toBe(false));
    expect(field('Artifact Name').value).toBe('x');
  });
});

describe('the artifact edit page: deleting', () => {
  it('asks NO / YES and goes to the portfolio after YES', async () => {
    const deleted = completedArtifact();
    const rendered = renderArtifactEdit({
      fakes: {
        fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => deleted),
        deleteArtifact: fromPromise<Artifact, { artifactId: number }>(async () => deleted),
      },
    });
    const ux = userEvent.setup();
    await ux.click(await screen.findByRole('button', { name: 'Delete Artifact' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Do you want to delete Ramp races?');
    await ux.click(button('NO'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await ux.click(button('Delete Artifact'));
    await ux.click(button('YES'));
    expect(await screen.findByText('Successfully deleted artifact')).toBeTruthy();
    expect(rendered.navigateToPortfolio).toHaveBeenCalledWith(7);
  });

  it('shows the artifact’s files', async () => {
    await renderLoaded(lotArtifact({ images: [makeMedia('images', { caption: 'A', name: 'ramp.png' })] }));
    expect(screen.getByRole('link', { name: 'ramp' })).toBeTruthy();
  });
});

describe('the artifact edit page: leaving', () => {
  it('asks before a link leaves typed answers behind; Stay keeps them, Leave goes on', async () => {
    const { ux, location, saves } = await renderLoaded(completedArtifact());
    await ux.type(field("What does this evidence show about students' thinking?"), 'Most used arrows');
    await ux.click(headerLink());
    expect(leaveDialog()?.textContent).toContain('Your changes are not saved.');
    expect(location.history.at(-1)).toBe('/my-portfolios/7/artifacts/12/edit');
    await ux.click(button('Stay on this page'));
    expect(leaveDialog()).toBeNull();
    expect(field("What does this evidence show about students' thinking?").value).toBe('Most used arrows');
    await ux.click(headerLink());
    await ux.click(button('Leave without saving'));
    expect(location.history.at(-1)).toBe('/dashboard');
    expect(saves).toEqual([]);
  });

  it('lets a link go at once when nothing changed (and removes nothing)', async () => {
    const { ux, location, discarded } = await renderLoaded(completedArtifact());
    await ux.type(field('Artifact Name'), '!');
    await ux.type(field('Artifact Name'), '{Backspace}');
    await ux.click(headerLink());
    expect(leaveDialog()).toBeNull();
    expect(location.history.at(-1)).toBe('/dashboard');
    expect(discarded).toEqual([]);
  });

  it('Cancel discards typed answers without asking and shows the artifact', async () => {
    const { ux, location, discarded } = await renderLoaded(completedArtifact());
    await ux.type(field('Artifact Name'), ' (draft)');
    await ux.click(button('Cancel'));
    expect(leaveDialog()).toBeNull();
    expect(location.history.at(-1)).toBe('/my-portfolios/7/artifacts/12');
    expect(discarded).toEqual([]);
  });

  it('removes a never-saved artifact on Cancel and shows its portfolio', async () => {
    const { ux, location, discarded, portfolioOpened } = await renderLoaded(lotArtifact({ saved: false }));
    await ux.type(field('Artifact Name'), 'Ramp races');
    await ux.click(button('Cancel'));
    await waitFor(() => expect(location.history.at(-1)).toBe('/my-portfolios/7'));
    expect(discarded).toEqual([12]);
    expect(portfolioOpened).toHaveBeenCalledWith(7);
  });

  it('removes a never-saved artifact left by a link: at once when untouched, after the question otherwise', async () => {
    const first = await renderLoaded(lotArtifact({ saved: false }));
    await first.ux.click(headerLink());
    expect(leaveDialog()).toBeNull();
    await waitFor(() => expect(first.location.history.at(-1)).toBe('/dashboard'));
    expect(first.discarded).toEqual([12]);
    first.unmount();

    const second = await renderLoaded(lotArtifact({ saved: false }));
    await second.ux.type(field('Artifact Name'), 'Ramp races');
    await second.ux.click(headerLink());
    expect(second.discarded).toEqual([]);
    await second.ux.click(button('Leave without saving'));
    await waitFor(() => expect(second.location.history.at(-1)).toBe('/dashboard'));
    expect(second.discarded).toEqual([12]);
  });

  it('still leaves when the never-saved artifact cannot be removed now (housekeeping removes it later)', async () => {
    const { ux, location, discarded } = await renderLoaded(lotArtifact({ saved: false }), {
      discard: () => Promise.reject(new NetworkError()),
    });
    await ux.click(button('Cancel'));
    await waitFor(() => expect(location.history.at(-1)).toBe('/my-portfolios/7'));
    expect(discarded).toEqual([12]);
  });

  it('keeps a saved new artifact: leaving after the first save removes nothing', async () => {
    const { ux, location, discarded } = await renderLoaded(lotArtifact({ saved: false }), { redirectDelay: 0 });
    await ux.type(field('Artifact Name'), 'Ramp races');
    await ux.click(button('Save to Parking Lot'));
    await waitFor(() => expect(location.history.at(-1)).toBe('/my-portfolios/7/artifacts/12'));
    expect(discarded).toEqual([]);
  });
});
