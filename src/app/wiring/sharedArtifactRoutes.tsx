import { useMemo, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ArtifactDeleteContext } from '../../machines/artifactDelete/useArtifactDelete.ts';
import { provideArtifactLifecycle } from '../../machines/artifactLifecycle/provideArtifactLifecycle.ts';
import { ArtifactLifecycleActorContext } from '../../machines/artifactLifecycle/useArtifactLifecycle.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { SharedArtifactEditPage } from '../../views/pages/SharedArtifactEditPage.tsx';
import { buildPath, paths } from '../../views/paths.ts';
import { PrivateRoute } from '../../views/routing/guards.tsx';
import { allowLeave, stayHere } from '../navigation/leaveGuard.ts';
import { provideSharedArtifactDelete } from './artifactActions.tsx';
import { ArtifactEditLeaveGuard, scrollToTop, toId } from './artifactRoutes.tsx';

/** Gives Delete Artifact buttons below it the shared artifacts' delete (wrap any page that deletes shared artifacts). */
export function SharedArtifactActionsProvider({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();
  const setup = useMemo(() => provideSharedArtifactDelete(navigate), [navigate]);
  return <ArtifactDeleteContext.Provider value={setup}>{children}</ArtifactDeleteContext.Provider>;
}

function SharedArtifactEdit({ portfolioId, artifactId }: { portfolioId: number; artifactId: number }) {
  const [, navigate] = useLocation();
  const logic = useMemo(
    () =>
      provideArtifactLifecycle({
        kind: 'shared',
        notify: ({ message, tone }) => notify(message, tone),
        navigateToArtifact: (id, aid) => navigate(buildPath(paths.sharedArtifact, { id, artifactId: aid })),
        navigateToPortfolio: (id) => navigate(buildPath(paths.sharedPortfolio, { id })),
        scrollToTop,
        allowLeave,
        stayHere,
      }),
    [navigate],
  );
  return (
    <SharedArtifactActionsProvider>
      {/* Members and researchers edit shared artifacts; the server answers 404 to anyone else. */}
      <ArtifactLifecycleActorContext.Provider
        key={`${portfolioId}/${artifactId}`}
        logic={logic}
        options={{ input: { kind: 'shared', portfolioId, artifactId, readOnly: false } }}
      >
        <ArtifactEditLeaveGuard />
        <SharedArtifactEditPage />
      </ArtifactLifecycleActorContext.Provider>
    </SharedArtifactActionsProvider>
  );
}

/** `/shared-portfolios/:id/artifacts/:artifactId/edit` (private). */
export function SharedArtifactEditRoute({ params }: { params: { id?: string; artifactId?: string } }) {
  return (
    <PrivateRoute>
      <SharedArtifactEdit portfolioId={toId(params.id)} artifactId={toId(params.artifactId)} />
    </PrivateRoute>
  );
}
