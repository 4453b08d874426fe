import { useMemo, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { artifactDeleteMachine } from '../../machines/artifactDelete/artifactDeleteMachine.ts';
import type { Notice } from '../../machines/shared/notice.ts';
import { ArtifactDeleteContext, type ArtifactDeleteSetup } from '../../machines/artifactDelete/useArtifactDelete.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { buildPath, paths } from '../../views/paths.ts';

// Apart from the edit routes, so that the pages that show artifacts load without the edit forms.

export const notifyAction = (_: unknown, notice: Notice) => notify(notice.message, notice.tone);

/** The delete logic of personal artifacts with the app's toasts and navigation. */
export function provideArtifactDelete(navigate: (to: string) => void): ArtifactDeleteSetup {
  return {
    logic: artifactDeleteMachine.provide({
      actions: {
        notify: notifyAction,
        navigateToPortfolio: (_, params) => navigate(buildPath(paths.myPortfolio, { id: params.portfolioId })),
      },
    }),
  };
}

/**
 * Gives `ArtifactView` and the artifact edit page what their actions need (deleting an artifact
 * with the app's toasts and navigation). Wrap any page that shows a mutable `ArtifactView`.
 */
export function ArtifactActionsProvider({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();
  const setup = useMemo(() => provideArtifactDelete(navigate), [navigate]);
  return <ArtifactDeleteContext.Provider value={setup}>{children}</ArtifactDeleteContext.Provider>;
}

/** The delete logic of shared artifacts with the app's toasts; the shared portfolio opens 2 s after a delete. */
export function provideSharedArtifactDelete(navigate: (to: string) => void): ArtifactDeleteSetup {
  return {
    kind: 'shared',
    logic: artifactDeleteMachine.provide({
      actions: {
        notify: notifyAction,
        navigateToPortfolio: (_, params) => navigate(buildPath(paths.sharedPortfolio, { id: params.portfolioId })),
      },
    }),
  };
}
