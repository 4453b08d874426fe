import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { copyArtifactMachine, type CopyFrom } from '../../machines/copyArtifact/copyArtifactMachine.ts';
import type { Notice } from '../../machines/shared/notice.ts';
import { CopyArtifactActorContext } from '../../machines/copyArtifact/useCopyArtifact.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import { CopyArtifactPage } from '../../views/pages/CopyArtifactPage.tsx';
import { buildPath, paths } from '../../views/paths.ts';
import { PrivateRoute } from '../../views/routing/guards.tsx';

type RouteParams = { params: { id?: string; artifactId?: string } };

/** A route parameter as a positive id, or NaN (the page then says the artifact was not found). */
const toId = (param: string | undefined): number => (param && /^[0-9]{1,10}$/.test(param) ? Number(param) : Number.NaN);

/** The copy page's logic with the app's toasts and navigation. */
export function provideCopyArtifact(navigate: (to: string) => void) {
  return copyArtifactMachine.provide({
    actions: {
      notify: (_, notice: Notice) => notify(notice.message, notice.tone),
      navigateToCopy: (_, { sharedPortfolioId, artifactId }) =>
        navigate(buildPath(paths.sharedArtifactEdit, { id: sharedPortfolioId, artifactId })),
      navigateToArtifact: (_, { from, portfolioId, artifactId }) =>
        navigate(
          buildPath(from === 'sharedArtifact' ? paths.sharedArtifact : paths.myArtifact, {
            id: portfolioId,
            artifactId,
          }),
        ),
    },
  });
}

function CopyArtifact({ from, params }: { from: CopyFrom } & RouteParams) {
  const [, navigate] = useLocation();
  const user = useCurrentUser();
  const logic = useMemo(() => provideCopyArtifact(navigate), [navigate]);
  const input = { from, portfolioId: toId(params.id), artifactId: toId(params.artifactId), userId: user?.id ?? null };
  return (
    <CopyArtifactActorContext.Provider
      key={`${from}/${params.id}/${params.artifactId}`}
      logic={logic}
      options={{ input }}
    >
      <CopyArtifactPage />
    </CopyArtifactActorContext.Provider>
  );
}

/** Shared mode (spec §2): the address starts with `/shared-portfolios/`, so the source is a shared artifact. */
export const copyFromPath = (path: string): CopyFrom =>
  path.startsWith('/shared-portfolios/') ? 'sharedArtifact' : 'artifact';

/**
 * `/my-portfolios/:id/artifacts/:artifactId/copy` and `/shared-portfolios/:id/artifacts/:artifactId/copy`
 * (private): copies a personal artifact, or in shared mode a shared one, into a shared portfolio.
 */
export function ArtifactCopyRoute({ params }: RouteParams) {
  const [location] = useLocation();
  return (
    <PrivateRoute>
      <CopyArtifact from={copyFromPath(location)} params={params} />
    </PrivateRoute>
  );
}
