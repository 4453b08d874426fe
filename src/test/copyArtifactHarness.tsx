/**
 * Test kit of the Copy Artifact page: the page on its own actor, with the service calls a test
 * gives; the navigations are recorded, messages go to the toasts as in the app.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import type { InspectionEvent } from 'xstate';
import {
  copyArtifactMachine,
  type CopyArtifactInput,
  type CopyFrom,
} from '../machines/copyArtifact/copyArtifactMachine.ts';
import { provideCopyServices, type CopyServices } from '../machines/copyArtifact/provideCopyServices.ts';
import { CopyArtifactActorContext } from '../machines/copyArtifact/useCopyArtifact.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { CopyArtifactPage } from '../views/pages/CopyArtifactPage.tsx';

/** Renders the page for `input` with `services` in place of the real calls. */
export function renderCopyArtifactPage(
  input: CopyArtifactInput,
  services: CopyServices,
  inspect?: (event: InspectionEvent) => void,
) {
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
    services,
  );
  render(
    <>
      <CopyArtifactActorContext.Provider logic={logic} options={{ input, ...(inspect ? { inspect } : {}) }}>
        <CopyArtifactPage />
      </CopyArtifactActorContext.Provider>
      <Toaster />
    </>,
  );
  return { navigateToCopy, navigateToArtifact, ux: userEvent.setup({ delay: null }) };
}
