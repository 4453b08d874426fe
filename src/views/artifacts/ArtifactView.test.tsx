import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { artifactDeleteMachine } from '../../machines/artifactDelete/artifactDeleteMachine.ts';
import { ArtifactDeleteContext } from '../../machines/artifactDelete/useArtifactDelete.ts';
import type { Artifact } from '../../schemas/artifact.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError } from '../../services/errors.ts';
import { deferred } from '../../../tests/model/support/deferred.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { Toaster } from '../feedback/Toaster.tsx';
import { clearToasts, notify } from '../feedback/toastStore.ts';
import { ArtifactView, type ArtifactViewProps } from './ArtifactView.tsx';

afterEach(clearToasts);

function renderView(
  props: Omit<ArtifactViewProps, 'portfolioId'> & { portfolioId?: number },
  deleteArtifact = vi.fn<(id: number) => Promise<Artifact>>(() => Promise.resolve(props.artifact)),
) {
  const navigateToPortfolio = vi.fn<(portfolioId: number) => void>();
  const logic = artifactDeleteMachine.provide({
    actors: {
      deleteArtifact: fromPromise<Artifact, { artifactId: number }>(({ input }) => deleteArtifact(input.artifactId)),
    },
    actions: {
      notify: (_, n) => notify(n.message, n.tone),
      navigateToPortfolio: (_, p) => navigateToPortfolio(p.portfolioId),
    },
  });
  const location = memoryLocation({ path: '/my-portfolios/7/artifacts/1', record: true });
  render(
    <Router hook={location.hook}>
      <ArtifactDeleteContext.Provider value={{ logic }}>
        <ArtifactView portfolioId={7} {...props} />
      </ArtifactDeleteContext.Provider>
      <Toaster />
    </Router>,
  );
  return { navigateToPortfolio, deleteArtifact, location, ux: userEvent.setup() };
}

describe('ArtifactView', () => {
  it('offers EDIT, COPY TO and Delete Artifact for a completed artifact', async () => {
    const artifact = makeArtifact({ id: 12, parkingLot: false, responses: { artifactName: 'Ramp races' } });
    const { location, ux } = renderView({ artifact, readOnly: false });
    expect(screen.getByRole('link', { name: 'EDIT' }).getAttribute('href')).toBe('/my-portfolios/7/artifacts/12/edit');
    expect(screen.getByRole('link', { name: 'COPY TO' }).getAttribute('href')).toBe(
      '/my-portfolios/7/artifacts/12/copy',
    );
    expect(screen.getByRole('button', { name: 'Delete Artifact' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Complete Artifact' })).toBeNull();
    await ux.click(screen.getByRole('link', { name: 'EDIT' }));
    expect(location.history.at(-1)).toBe('/my-portfolios/7/artifacts/12/edit');
  });

  it('offers only Complete Artifact (to the edit page) for a parking-lot artifact', () => {
    const artifact = makeArtifact({ id: 13, parkingLot: true });
    renderView({ artifact, readOnly: false });
    expect(screen.getByRole('link', { name: 'Complete Artifact' }).getAttribute('href')).toBe(
      '/my-portfolios/7/artifacts/13/edit',
    );
    expect(screen.getByText('Parking Lot')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'EDIT' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'COPY TO' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Artifact' })).toBeNull();
  });

  it('offers nothing to a read-only viewer, and needs no actions provider', () => {
    const artifact = makeArtifact({ parkingLot: false, responses: { artifactName: 'Seen by a researcher' } });
    render(<ArtifactView artifact={artifact} portfolioId={7} readOnly />);
    expect(screen.getByRole('heading', { name: 'Seen by a researcher' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'EDIT' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'COPY TO' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Artifact' })).toBeNull();
  });

  it('asks “Do you want to delete <name>?”; NO keeps the artifact', async () => {
    const artifact = makeArtifact({ parkingLot: false, responses: { artifactName: 'Ramp races' } });
    const { ux, deleteArtifact } = renderView({ artifact, readOnly: false });
    await ux.click(screen.getByRole('button', { name: 'Delete Artifact' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Artifact' });
    expect(dialog.textContent).toContain('Do you want to delete Ramp races?');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'NO' }));
    await ux.click(screen.getByRole('button', { name: 'NO' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deleteArtifact).not.toHaveBeenCalled();
  });

  it('YES deletes, says so, tells the page and goes to the portfolio', async () => {
    const artifact = makeArtifact({ id: 21, parkingLot: false, responses: { artifactName: 'Ramp races' } });
    const onDeleted = vi.fn<(artifact: Artifact) => void>();
    const pending = deferred<Artifact>();
    const { ux, deleteArtifact, navigateToPortfolio } = renderView(
      { artifact, readOnly: false, onDeleted },
      vi.fn<(id: number) => Promise<Artifact>>(() => pending.promise),
    );
    await ux.click(screen.getByRole('button', { name: 'Delete Artifact' }));
    await ux.click(screen.getByRole('button', { name: 'YES' }));
    expect(deleteArtifact).toHaveBeenCalledWith(21);
    expect((screen.getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => pending.resolve(artifact));
    expect(await screen.findByText('Successfully deleted artifact')).toBeTruthy();
    expect(onDeleted).toHaveBeenCalledWith(artifact);
    expect(navigateToPortfolio).toHaveBeenCalledWith(7);
    expect(onDeleted).toHaveBeenCalledTimes(1);
  });

  it('a refused deletion alerts the server’s message and keeps the artifact', async () => {
    const artifact = makeArtifact({ parkingLot: false, responses: { artifactName: 'Ramp races' } });
    const { ux, navigateToPortfolio } = renderView(
      { artifact, readOnly: false },
      vi.fn<(id: number) => Promise<Artifact>>(() =>
        Promise.reject(new ApiError(404, 'not_found', 'Artifact not found.', '')),
      ),
    );
    await ux.click(screen.getByRole('button', { name: 'Delete Artifact' }));
    await ux.click(screen.getByRole('button', { name: 'YES' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Artifact not found.');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(navigateToPortfolio).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Delete Artifact' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
