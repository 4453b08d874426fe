/** The Copy Artifact page with fake services, for the copy model tests (`copyArtifact`, `copySource`). */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from 'styled-components';
import { vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  copyArtifactMachine,
  type CopyArtifactInput,
  type CopyFrom,
  type CopyRequest,
} from '../../../src/machines/copyArtifact/copyArtifactMachine.ts';
import { provideCopyServices } from '../../../src/machines/copyArtifact/provideCopyServices.ts';
import { CopyArtifactActorContext } from '../../../src/machines/copyArtifact/useCopyArtifact.ts';
import type { Artifact } from '../../../src/schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../../src/schemas/sharedArtifact.ts';
import type { SharedArtifact, SharedPortfolioListItem } from '../../../src/schemas/sharedPortfolio.ts';
import { Toaster } from '../../../src/views/feedback/Toaster.tsx';
import { notify } from '../../../src/views/feedback/toastStore.ts';
import { CopyArtifactPage } from '../../../src/views/pages/CopyArtifactPage.tsx';
import { theme } from '../../../src/views/theme/theme.ts';
import { coverageInspector } from './coverage.ts';
import { controllableActor } from './deferred.ts';

export type CopyPageSnapshot = SnapshotFrom<typeof copyArtifactMachine>;

/** Renders the page for `input`; every service call waits for the test (`fakes`). */
export function renderCopyPage(input: CopyArtifactInput) {
  let live: CopyPageSnapshot | null = null;
  const fakes = {
    fetchArtifact: controllableActor<Artifact, { artifactId: number }>(),
    fetchSharedArtifact: controllableActor<SharedArtifactDetail, { artifactId: number }>(),
    listSharedPortfolios: controllableActor<SharedPortfolioListItem[]>(),
    copyArtifact: controllableActor<SharedArtifact, CopyRequest>(),
  };
  const navigateToCopy = vi.fn<(params: { sharedPortfolioId: number; artifactId: number }) => void>();
  const navigateToArtifact = vi.fn<(params: { from: CopyFrom; portfolioId: number; artifactId: number }) => void>();
  const logic = provideCopyServices(
    copyArtifactMachine.provide({
      actions: {
        notify: (_, { message, tone }) => notify(message, tone),
        navigateToCopy: (_, params) => navigateToCopy(params),
        navigateToArtifact: (_, params) => navigateToArtifact(params),
      },
    }),
    {
      fetchArtifact: fakes.fetchArtifact.logic,
      fetchSharedArtifact: fakes.fetchSharedArtifact.logic,
      listSharedPortfolios: fakes.listSharedPortfolios.logic,
      copyArtifact: fakes.copyArtifact.logic,
    },
  );
  render(
    <ThemeProvider theme={theme}>
      <CopyArtifactActorContext.Provider
        logic={logic}
        options={{
          input,
          inspect: (event) => {
            coverageInspector(event);
            if (event.type === '@xstate.snapshot' && event.actorRef.sessionId === event.rootId)
              live = event.snapshot as CopyPageSnapshot;
          },
        }}
      >
        <CopyArtifactPage />
      </CopyArtifactActorContext.Provider>
      <Toaster />
    </ThemeProvider>,
  );
  return { input, fakes, navigateToCopy, navigateToArtifact, live: () => live, ux: userEvent.setup({ delay: null }) };
}

export type CopyPageHarness = ReturnType<typeof renderCopyPage>;
