import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { artifactEditHasUnsavedChanges } from '../../machines/artifactLifecycle/artifactLifecycleMachine.ts';
import { provideArtifactLifecycle } from '../../machines/artifactLifecycle/provideArtifactLifecycle.ts';
import { ArtifactLifecycleActorContext } from '../../machines/artifactLifecycle/useArtifactLifecycle.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { ArtifactEditPage } from '../../views/pages/ArtifactEditPage.tsx';
import { buildPath, paths } from '../../views/paths.ts';
import { PrivateRoute } from '../../views/routing/guards.tsx';
import { allowLeave, stayHere } from '../navigation/leaveGuard.ts';
import { useLeaveGuard } from '../navigation/useLeaveGuard.ts';
import { ArtifactActionsProvider } from './artifactActions.tsx';

/** A route parameter as a positive id, or NaN (the page then says the item was not found). */
export const toId = (param: string | undefined): number =>
  param && /^[0-9]{1,10}$/.test(param) ? Number(param) : Number.NaN;

/** Brings the top of the page (and a form's error summary) into view. */
export function scrollToTop(): void {
  // jsdom does not implement scrolling.
  if (!navigator.userAgent.includes('jsdom')) window.scrollTo({ top: 0, behavior: 'smooth' });
}

function ArtifactEdit({ portfolioId, artifactId }: { portfolioId: number; artifactId: number }) {
  const [, navigate] = useLocation();
  const user = useCurrentUser();
  const logic = useMemo(
    () =>
      provideArtifactLifecycle({
        notify: ({ message, tone }) => notify(message, tone),
        navigateToArtifact: (id, aid) => navigate(buildPath(paths.myArtifact, { id, artifactId: aid })),
        navigateToPortfolio: (id) => navigate(buildPath(paths.myPortfolio, { id })),
        scrollToTop,
        allowLeave,
        stayHere,
      }),
    [navigate],
  );
  return (
    <ArtifactActionsProvider>
      <ArtifactLifecycleActorContext.Provider
        key={`${portfolioId}/${artifactId}`}
        logic={logic}
        options={{
          input: {
            kind: 'personal',
            portfolioId,
            artifactId,
            readOnly: user !== null && !user.abilities.ownPortfolios,
          },
        }}
      >
        <ArtifactEditLeaveGuard />
        <ArtifactEditPage />
      </ArtifactLifecycleActorContext.Provider>
    </ArtifactActionsProvider>
  );
}

/** Asks the edit page's machine before anyone leaves the page. */
export function ArtifactEditLeaveGuard() {
  useLeaveGuard(ArtifactLifecycleActorContext.useActorRef(), artifactEditHasUnsavedChanges);
  return null;
}

/** `/my-portfolios/:id/artifacts/:artifactId/edit` (private). */
export function ArtifactEditRoute({ params }: { params: { id?: string; artifactId?: string } }) {
  return (
    <PrivateRoute>
      <ArtifactEdit portfolioId={toId(params.id)} artifactId={toId(params.artifactId)} />
    </PrivateRoute>
  );
}
