import { render } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise, type InspectionEvent, type PromiseActorLogic } from 'xstate';
import { artifactDeleteMachine } from '../machines/artifactDelete/artifactDeleteMachine.ts';
import { ArtifactDeleteContext } from '../machines/artifactDelete/useArtifactDelete.ts';
import type { ArtifactLifecycleInput } from '../machines/artifactLifecycle/artifactLifecycleMachine.ts';
import { provideArtifactLifecycle, type ArtifactEditActors, type EditNotice } from '../machines/artifactLifecycle/provideArtifactLifecycle.ts';
import { ArtifactLifecycleActorContext } from '../machines/artifactLifecycle/useArtifactLifecycle.ts';
import type { Artifact } from '../schemas/artifact.ts';
import type { SharedArtifact } from '../schemas/sharedPortfolio.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { ArtifactEditPage } from '../views/pages/ArtifactEditPage.tsx';
import { SharedArtifactEditPage } from '../views/pages/SharedArtifactEditPage.tsx';
import { theme } from '../views/theme/theme.ts';

/** Service fakes of the edit pages; any left out never answers. */
export interface ArtifactEditFakes extends ArtifactEditActors {
  deleteArtifact?: PromiseActorLogic<Artifact, { artifactId: number }>;
  deleteSharedArtifact?: PromiseActorLogic<SharedArtifact, { artifactId: number }>;
}

const never = <T, I>() => fromPromise<T, I>(() => new Promise<T>(() => undefined));

/**
 * Renders the artifact edit page as the app wires it — the personal page, or for
 * `input.kind: 'shared'` the shared one — with fake services, real toasts and spies for its
 * outward effects (navigation, scrolling).
 */
export function renderArtifactEdit({
  input = { kind: 'personal', portfolioId: 7, artifactId: 12, readOnly: false },
  fakes = {},
  redirectDelay,
  leaveDelay,
  notice = ({ message, tone }) => notify(message, tone),
  inspect,
}: {
  input?: ArtifactLifecycleInput;
  fakes?: ArtifactEditFakes;
  redirectDelay?: number;
  /** How long a deleted shared artifact's page waits before leaving (2 s in the app). */
  leaveDelay?: number;
  /** How the edit page's messages are shown (the app's toasts unless told). */
  notice?: (notice: EditNotice) => void;
  inspect?: (event: InspectionEvent) => void;
} = {}) {
  const navigateToArtifact = vi.fn<(portfolioId: number, artifactId: number) => void>();
  const navigateToPortfolio = vi.fn<(portfolioId: number) => void>();
  const scrollToTop = vi.fn<() => void>();
  const shared = input.kind === 'shared';
  const logic = provideArtifactLifecycle({
    kind: input.kind,
    notify: notice,
    navigateToArtifact,
    scrollToTop,
    actors: {
      fetchArtifact: fakes.fetchArtifact ?? never(),
      updateArtifact: fakes.updateArtifact ?? never(),
      gateCheck: fakes.gateCheck ?? never(),
      updateSharedArtifact: fakes.updateSharedArtifact ?? never(),
      uploadFile: fakes.uploadFile ?? never(),
      removeFile: fakes.removeFile ?? never(),
    },
    ...(redirectDelay !== undefined ? { redirectDelay } : {}),
  });
  const deleteLogic = artifactDeleteMachine.provide({
    actors: { deleteArtifact: fakes.deleteArtifact ?? never(), deleteSharedArtifact: fakes.deleteSharedArtifact ?? never() },
    actions: {
      notify: (_, n) => notify(n.message, n.tone),
      navigateToPortfolio: (_, p) => navigateToPortfolio(p.portfolioId),
    },
    ...(leaveDelay !== undefined ? { delays: { leaveDelay } } : {}),
  });
  const base = shared ? '/shared-portfolios' : '/my-portfolios';
  const location = memoryLocation({ path: `${base}/${input.portfolioId}/artifacts/${input.artifactId}/edit`, record: true });
  const view = render(
    <ThemeProvider theme={theme}>
      <Router hook={location.hook}>
        <ArtifactDeleteContext.Provider value={{ logic: deleteLogic, kind: input.kind, ...(inspect ? { inspect } : {}) }}>
          <ArtifactLifecycleActorContext.Provider logic={logic} options={{ input, ...(inspect ? { inspect } : {}) }}>
            {shared ? <SharedArtifactEditPage /> : <ArtifactEditPage />}
          </ArtifactLifecycleActorContext.Provider>
        </ArtifactDeleteContext.Provider>
        <Toaster />
      </Router>
    </ThemeProvider>,
  );
  return { ...view, navigateToArtifact, navigateToPortfolio, scrollToTop, location };
}
