import { useMemo, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { fromPromise } from 'xstate';
import {
  artifactDetailsMachine,
  type WholeArtifactData,
} from '../../machines/artifactDetails/artifactDetailsMachine.ts';
import {
  ArtifactDetailsContext,
  type ArtifactDetailsSetup,
} from '../../machines/artifactDetails/useArtifactDetails.ts';
import { commentMachine } from '../../machines/comment/commentMachine.ts';
import { leaveSharedMachine } from '../../machines/leaveShared/leaveSharedMachine.ts';
import { LeaveSharedContext, type LeaveSharedSetup } from '../../machines/leaveShared/useLeaveShared.ts';
import { MomentsContext, type MomentsSource } from '../../machines/momentComment/useMomentComment.ts';
import { sharedPortfolioBrowserMachine } from '../../machines/portfolioBrowser/sharedPortfolioBrowserMachine.ts';
import { PortfolioBrowserActorContext } from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { reactionsMachine } from '../../machines/reactions/reactionsMachine.ts';
import { sharedArtifactDiscussionMachine } from '../../machines/sharedArtifactDiscussion/sharedArtifactDiscussionMachine.ts';
import {
  SharedDiscussionContext,
  type DiscussionSetup,
} from '../../machines/sharedArtifactDiscussion/useSharedArtifactDiscussion.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { ArtifactDeleteContext, type ArtifactDeleteSetup } from '../../machines/artifactDelete/useArtifactDelete.ts';
import { getSharedArtifact, sharedExportUrl } from '../../services/sharedService.ts';
import { PageHeading } from '../../views/components/PageHeading.tsx';
import { notify } from '../../views/feedback/toastStore.ts';
import { SharedPortfoliosPage } from '../../views/pages/SharedPortfoliosPage.tsx';
import { buildPath, paths } from '../../views/paths.ts';
import { Problem } from '../../views/portfolios/Notices.tsx';
import { SHARED_PORTFOLIO_NOT_FOUND } from '../../views/portfolios/PortfolioBrowser.tsx';
import { PrivateRoute } from '../../views/routing/guards.tsx';
import { provideSharedArtifactDelete } from './artifactActions.tsx';
import { loadMoments } from './momentsLoader.ts';
import type { Notice } from '../../machines/shared/notice.ts';

type Navigate = (to: string, options?: { replace?: boolean }) => void;

const notifyAction = (_: unknown, notice: Notice) => notify(notice.message, notice.tone);

/** An id from the address: `null` when absent, `NaN` when it is not a positive whole number. */
function parseId(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  return /^[0-9]{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : Number.NaN;
}

/** The browser of Shared Portfolios with the app's navigation and toasts. */
export function provideSharedBrowser(navigate: Navigate) {
  return sharedPortfolioBrowserMachine.provide({
    actions: {
      showPortfolio: (_, { portfolioId }) => navigate(buildPath(paths.sharedPortfolio, { id: portfolioId })),
      showArtifact: (_, { portfolioId, artifactId }) =>
        navigate(buildPath(paths.sharedArtifact, { id: portfolioId, artifactId }), { replace: true }),
      hideArtifact: (_, { portfolioId }) =>
        navigate(buildPath(paths.sharedPortfolio, { id: portfolioId }), { replace: true }),
    },
  });
}

/** The discussion of a shared artifact with its comment thread and reactions bar, with the app's toasts. */
export function provideDiscussion(): typeof sharedArtifactDiscussionMachine {
  return sharedArtifactDiscussionMachine.provide({
    actors: {
      thread: commentMachine.provide({ actions: { notify: notifyAction } }),
      reactionsBar: reactionsMachine.provide({ actions: { notify: notifyAction } }),
    },
  });
}

/** Reading a shared artifact of the table whole (a side of the comparison: the table holds them in brief). */
export const sharedArtifactDetails = artifactDetailsMachine.provide({
  actors: {
    fetchArtifact: fromPromise<WholeArtifactData, { artifactId: number }>(({ input, signal }) =>
      getSharedArtifact(input.artifactId, signal),
    ),
  },
});

/**
 * The logic of the shared artifact pane, the comparison and the summary (discussion, reading an
 * artifact whole, deleting, leaving) with the app's toasts and navigation.
 */
export function provideSharedActions(navigate: Navigate): {
  discussion: DiscussionSetup;
  details: ArtifactDetailsSetup;
  deletion: ArtifactDeleteSetup;
  leave: LeaveSharedSetup;
  moments: MomentsSource;
} {
  return {
    discussion: { logic: provideDiscussion() },
    details: { logic: sharedArtifactDetails },
    deletion: provideSharedArtifactDelete(navigate),
    leave: {
      logic: leaveSharedMachine.provide({
        actions: { notify: notifyAction, navigateToList: () => navigate(paths.sharedPortfolios) },
      }),
    },
    moments: loadMoments,
  };
}

/** Gives the shared artifact pane, the comparison and the summary the logic of their actions. */
export function SharedActionsProvider({
  setup,
  children,
}: {
  setup: ReturnType<typeof provideSharedActions>;
  children: ReactNode;
}) {
  return (
    <SharedDiscussionContext.Provider value={setup.discussion}>
      <ArtifactDetailsContext.Provider value={setup.details}>
        <ArtifactDeleteContext.Provider value={setup.deletion}>
          <LeaveSharedContext.Provider value={setup.leave}>
            <MomentsContext.Provider value={setup.moments}>{children}</MomentsContext.Provider>
          </LeaveSharedContext.Provider>
        </ArtifactDeleteContext.Provider>
      </ArtifactDetailsContext.Provider>
    </SharedDiscussionContext.Provider>
  );
}

function SharedPortfolios({ portfolioId, artifactId }: { portfolioId: number | null; artifactId: number | null }) {
  const [, navigate] = useLocation();
  const user = useCurrentUser();
  const logic = useMemo(() => provideSharedBrowser(navigate), [navigate]);
  const actions = useMemo(() => provideSharedActions(navigate), [navigate]);
  return (
    <SharedActionsProvider setup={actions}>
      <PortfolioBrowserActorContext.Provider
        logic={logic}
        options={{ input: { mode: 'shared', owner: null, portfolioId, artifactId, viewerId: user?.id ?? null } }}
      >
        <SharedPortfoliosPage portfolioId={portfolioId} artifactId={artifactId} exportUrl={sharedExportUrl()} />
      </PortfolioBrowserActorContext.Provider>
    </SharedActionsProvider>
  );
}

/**
 * `/shared-portfolios`, `/shared-portfolios/:id` and `/shared-portfolios/:id/artifacts/:artifactId`:
 * one page (its actor lives on while the address moves between them).
 */
export function SharedPortfoliosRoute({ params }: { params: { id?: string; artifactId?: string } }) {
  const portfolioId = parseId(params.id);
  const artifactId = parseId(params.artifactId);
  const bad = (portfolioId !== null && Number.isNaN(portfolioId)) || (artifactId !== null && Number.isNaN(artifactId));
  return (
    <PrivateRoute>
      {bad ? (
        <>
          <PageHeading title="Shared Portfolios" />
          <Problem title={SHARED_PORTFOLIO_NOT_FOUND} />
        </>
      ) : (
        <SharedPortfolios portfolioId={portfolioId} artifactId={artifactId} />
      )}
    </PrivateRoute>
  );
}
