import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import {
  fromCallback,
  fromPromise,
  type ActorOptions,
  type AnyActorLogic,
  type InspectionEvent,
  type PromiseActorLogic,
} from 'xstate';
import { allowLeave, guardedNavigation, stayHere } from '../app/navigation/leaveGuard.ts';
import { ArtifactEditLeaveGuard } from '../app/wiring/artifactRoutes.tsx';
import { artifactDeleteMachine } from '../machines/artifactDelete/artifactDeleteMachine.ts';
import { ArtifactDeleteContext } from '../machines/artifactDelete/useArtifactDelete.ts';
import type { ArtifactLifecycleInput } from '../machines/artifactLifecycle/artifactLifecycleMachine.ts';
import {
  provideArtifactLifecycle,
  type ArtifactEditActors,
} from '../machines/artifactLifecycle/provideArtifactLifecycle.ts';
import type { Notice } from '../machines/shared/notice.ts';
import { ArtifactLifecycleActorContext } from '../machines/artifactLifecycle/useArtifactLifecycle.ts';
import type { Artifact } from '../schemas/artifact.ts';
import type { SharedArtifact } from '../schemas/sharedPortfolio.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { ArtifactEditPage } from '../views/pages/ArtifactEditPage.tsx';
import { SharedArtifactEditPage } from '../views/pages/SharedArtifactEditPage.tsx';
import { HeaderLink } from './portfolioHarness.tsx';

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
  clock,
}: {
  input?: ArtifactLifecycleInput;
  fakes?: ArtifactEditFakes;
  redirectDelay?: number;
  /** How long a deleted shared artifact's page waits before leaving (2 s in the app). */
  leaveDelay?: number;
  /** How the edit page's messages are shown (the app's toasts unless told). */
  notice?: (notice: Notice) => void;
  inspect?: (event: InspectionEvent) => void;
  /** The clock of the page's timers (tests drive it by hand). */
  clock?: NonNullable<ActorOptions<AnyActorLogic>['clock']>;
} = {}) {
  const navigateToArtifact = vi.fn<(portfolioId: number, artifactId: number) => void>();
  /** The deletion's trip to the portfolio (the delete flow leaves by itself; see its own tests). */
  const navigateToPortfolio = vi.fn<(portfolioId: number) => void>();
  /** The edit page's own trip to the portfolio (Cancel of a never-saved artifact). */
  const portfolioOpened = vi.fn<(portfolioId: number) => void>();
  const scrollToTop = vi.fn<() => void>();
  const shared = input.kind === 'shared';
  const base = shared ? '/shared-portfolios' : '/my-portfolios';
  const location = memoryLocation({
    path: `${base}/${input.portfolioId}/artifacts/${input.artifactId}/edit`,
    record: true,
  });
  // The page's own navigation passes the leave guard, as the router's `aroundNav` makes it.
  const navigate = (to: string) => guardedNavigation(location.navigate, to);
  const logic = provideArtifactLifecycle({
    kind: input.kind,
    notify: notice,
    navigateToArtifact: (portfolioId, artifactId) => {
      navigateToArtifact(portfolioId, artifactId);
      navigate(`${base}/${portfolioId}/artifacts/${artifactId}`);
    },
    navigateToPortfolio: (portfolioId) => {
      portfolioOpened(portfolioId);
      navigate(`${base}/${portfolioId}`);
    },
    scrollToTop,
    allowLeave,
    stayHere,
    actors: {
      fetchArtifact: fakes.fetchArtifact ?? never(),
      discardArtifact: fakes.discardArtifact ?? never(),
      updateArtifact: fakes.updateArtifact ?? never(),
      gateCheck: fakes.gateCheck ?? never(),
      updateSharedArtifact: fakes.updateSharedArtifact ?? never(),
      loadMergeSources: fakes.loadMergeSources ?? never(),
      transfer: fakes.transfer ?? fromCallback(() => undefined),
      watchConnection: fakes.watchConnection ?? fromCallback(() => undefined),
      terminate: fakes.terminate ?? fromPromise<void, { uploadUrl: string }>(async () => undefined),
      removeFile: fakes.removeFile ?? never(),
      watchPoster: fakes.watchPoster ?? fromCallback(() => undefined),
      findRemembered: fakes.findRemembered ?? fromCallback(() => undefined),
      forgetRemembered:
        fakes.forgetRemembered ?? fromPromise<void, { uploadUrl: string; key: string }>(async () => undefined),
    },
    ...(redirectDelay !== undefined ? { redirectDelay } : {}),
  });
  const deleteLogic = artifactDeleteMachine.provide({
    actors: {
      deleteArtifact: fakes.deleteArtifact ?? never(),
      deleteSharedArtifact: fakes.deleteSharedArtifact ?? never(),
    },
    actions: {
      notify: (_, n) => notify(n.message, n.tone),
      navigateToPortfolio: (_, p) => navigateToPortfolio(p.portfolioId),
    },
    ...(leaveDelay !== undefined ? { delays: { leaveDelay } } : {}),
  });
  const view = render(
    <Router hook={location.hook} aroundNav={guardedNavigation}>
      <HeaderLink />
      <Switch>
        <Route path={`${base}/:id/artifacts/:artifactId/edit`}>
          <ArtifactDeleteContext.Provider
            value={{ logic: deleteLogic, kind: input.kind, ...(inspect ? { inspect } : {}) }}
          >
            <ArtifactLifecycleActorContext.Provider
              logic={logic}
              options={{ input, ...(inspect ? { inspect } : {}), ...(clock ? { clock } : {}) }}
            >
              <ArtifactEditLeaveGuard />
              {shared ? <SharedArtifactEditPage /> : <ArtifactEditPage />}
            </ArtifactLifecycleActorContext.Provider>
          </ArtifactDeleteContext.Provider>
        </Route>
        <Route>
          <p>Another page</p>
        </Route>
      </Switch>
      <Toaster />
    </Router>,
  );
  return { ...view, navigateToArtifact, navigateToPortfolio, portfolioOpened, scrollToTop, location };
}
