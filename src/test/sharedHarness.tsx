/**
 * Test kit of Shared Portfolios: an in-memory stand-in for the shared portfolio API (its
 * answers follow the changes made, as the server's would), and the page rendered the way the
 * app wires it (the app's navigation on a memory location, toasts) with fake service actors.
 */
import { act, render, screen } from '@testing-library/react';
import { ScoringLogicContext } from '../machines/scoring/useScoring.ts';
import { noRubricScoring } from './scoringFixtures.ts';
import { CoverageLogicContext } from '../machines/coverage/useCoverage.ts';
import { emptyCoverage } from './coverageFixtures.ts';
import userEvent from '@testing-library/user-event';
import { Route, Router, Switch, useRoute } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { type ActorOptions, type AnyActorLogic, type InspectionEvent } from 'xstate';
import { provideSharedActions, provideSharedBrowser, SharedActionsProvider } from '../app/wiring/sharedRoutes.tsx';
import type { commentMachine } from '../machines/comment/commentMachine.ts';
import type { portfolioBrowserMachine } from '../machines/portfolioBrowser/portfolioBrowserMachine.ts';
import { provideBrowserServices, type BrowserServices } from '../machines/portfolioBrowser/provideBrowserServices.ts';
import type { reactionsMachine } from '../machines/reactions/reactionsMachine.ts';
import type { MomentsSetup } from '../machines/momentComment/useMomentComment.ts';
import { PortfolioBrowserActorContext } from '../machines/portfolioBrowser/usePortfolioBrowser.ts';
import type { Me } from '../schemas/user.ts';
import { signIn, signOut } from '../services/session.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { SharedPortfoliosPage } from '../views/pages/SharedPortfoliosPage.tsx';
import { preloadParts } from '../views/components/lazyParts.tsx';

// Parts of pages load on first use in the app (their own chunks); tests load them first, so that they render at once.
await preloadParts();

export { makeComment, makeReaction } from './sharedArtifactFixtures.ts';
export { makeSharedArtifact, makeSharedPortfolio, people, TEAM_QUESTION } from './sharedFixtures.ts';

export { accounts, badRequest, FakeSharedApi } from './fakeSharedApi.ts';
import { accounts, type FakeSharedApi } from './fakeSharedApi.ts';

/** Fake actors of each logic of the page; those left out come from `api`. */
export interface SharedFakes {
  browser?: Record<string, AnyActorLogic>;
  /** Reading a shared artifact whole (a side of the comparison). */
  details?: Record<string, AnyActorLogic>;
  /** The discussion's own (loading the artifact); `comment` and `reactions` are those of its children. */
  discussion?: Record<string, AnyActorLogic>;
  comment?: Record<string, AnyActorLogic>;
  reactions?: Record<string, AnyActorLogic>;
  deletion?: Record<string, AnyActorLogic>;
  leave?: Record<string, AnyActorLogic>;
}

/** Inspectors (coverage) per logic. */
export interface SharedInspectors {
  browser?: (event: InspectionEvent) => void;
  /** The discussion's and its children's (the comment thread and the reactions bar). */
  discussion?: (event: InspectionEvent) => void;
  deletion?: (event: InspectionEvent) => void;
  leave?: (event: InspectionEvent) => void;
}

type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

const toId = (value: string | undefined | null): number | null => (value ? Number(value) : null);

function SharedPortfoliosAt({
  logic,
  viewerId,
  inspect,
  clock,
}: {
  logic: typeof portfolioBrowserMachine;
  viewerId: number;
  inspect?: ((event: InspectionEvent) => void) | undefined;
  clock?: Clock | undefined;
}) {
  const [withArtifact, artifactParams] = useRoute<{ id: string; artifactId: string }>(
    '/shared-portfolios/:id/artifacts/:artifactId',
  );
  const [withPortfolio, portfolioParams] = useRoute<{ id: string }>('/shared-portfolios/:id');
  const portfolioId = toId(withArtifact ? artifactParams.id : withPortfolio ? portfolioParams.id : null);
  const artifactId = toId(withArtifact ? artifactParams.artifactId : null);
  return (
    <PortfolioBrowserActorContext.Provider
      logic={logic}
      options={{
        input: { mode: 'shared', owner: null, portfolioId, artifactId, viewerId },
        ...(inspect ? { inspect } : {}),
        ...(clock ? { clock } : {}),
      }}
    >
      <SharedPortfoliosPage
        portfolioId={portfolioId}
        artifactId={artifactId}
        exportUrl="http://portal.test/api/v1/shared-portfolios/export"
      />
    </PortfolioBrowserActorContext.Provider>
  );
}

/**
 * Shared Portfolios at `path` for `user`, wired as the app wires it (its navigation moves a memory
 * location, whose changes reach the page as they would from the router), with the actors of `api`
 * unless `fakes` replaces them. `delays` shortens or lengthens the machines' timers; `clock`
 * drives them by hand.
 */
export function renderSharedPortfolios({
  path = '/shared-portfolios',
  user = accounts.tess,
  api,
  fakes = {},
  inspect = {},
  delays,
  clock,
  moments,
}: {
  path?: string;
  user?: Me;
  api: FakeSharedApi;
  fakes?: SharedFakes;
  inspect?: SharedInspectors;
  delays?: { leaveDelay?: number };
  /** The browser's clock. */
  clock?: Clock;
  /** The video moments logic (players, composer, caption editor), when not the app's. */
  moments?: MomentsSetup;
}) {
  signOut();
  act(() => signIn(user));
  api.viewer = user;
  const location = memoryLocation({ path, record: true });
  const real = api.actors();
  const browserLogic = provideBrowserServices(provideSharedBrowser(location.navigate), {
    ...real.browser,
    ...fakes.browser,
  } as BrowserServices);
  const setup = provideSharedActions(location.navigate);
  const children = setup.discussion.logic.implementations.actors as unknown as {
    thread: typeof commentMachine;
    reactionsBar: typeof reactionsMachine;
  };
  const actions = {
    discussion: {
      logic: setup.discussion.logic.provide({
        actors: {
          ...real.discussion,
          ...fakes.discussion,
          thread: children.thread.provide({ actors: { ...real.comment, ...fakes.comment } as never }),
          reactionsBar: children.reactionsBar.provide({ actors: { ...real.reactions, ...fakes.reactions } as never }),
        } as never,
      }),
      ...(inspect.discussion ? { inspect: inspect.discussion } : {}),
    },
    details: {
      logic: setup.details.logic.provide({ actors: { ...real.details, ...fakes.details } as never }),
    },
    deletion: {
      ...setup.deletion,
      logic: setup.deletion.logic.provide({
        actors: { ...real.deletion, ...fakes.deletion } as never,
        ...(delays?.leaveDelay !== undefined ? { delays: { leaveDelay: delays.leaveDelay } } : {}),
      }),
      ...(inspect.deletion ? { inspect: inspect.deletion } : {}),
    },
    leave: {
      logic: setup.leave.logic.provide({ actors: { ...real.leave, ...fakes.leave } as never }),
      ...(inspect.leave ? { inspect: inspect.leave } : {}),
    },
    moments: moments ?? setup.moments,
  };
  render(
    <ScoringLogicContext.Provider value={{ logic: noRubricScoring }}>
      <CoverageLogicContext.Provider value={{ logic: emptyCoverage }}>
        <Router hook={location.hook}>
          <Switch>
            <Route path="/shared-portfolios/new">
              <h1>Create Shared Portfolio</h1>
            </Route>
            <Route path="/shared-portfolios/:id/edit">
              <h1>Edit Shared Portfolio</h1>
            </Route>
            <Route path="/shared-portfolios/:id/artifacts/:artifactId/edit">
              <h1>Edit Shared Artifact</h1>
            </Route>
            <Route path="/shared-portfolios/:id/artifacts/:artifactId/copy">
              <h1>Copy Artifact</h1>
            </Route>
            <Route>
              <SharedActionsProvider setup={actions}>
                <SharedPortfoliosAt logic={browserLogic} viewerId={user.id} inspect={inspect.browser} clock={clock} />
              </SharedActionsProvider>
            </Route>
          </Switch>
          <Toaster />
        </Router>
      </CoverageLogicContext.Provider>
    </ScoringLogicContext.Provider>,
  );
  return { location, ux: userEvent.setup({ delay: null }), where: () => location.history.at(-1) };
}

/** The detail pane. */
export const detailPane = () => screen.getByRole('region', { name: 'Artifact details' });
